/** Reads the `gateway.*` settings from VS Code and checks them with the core's rules. */
import * as vscode from 'vscode';
import { DEFAULT_LIMITS, type ConfiguredLimits } from '../../gateway/common';
import { effectiveValue, parseSettings, SettingError, type GatewaySettings } from '../common/gatewaySettings';

export { requireBaseUrl, SettingError, type GatewaySettings } from '../common/gatewaySettings';

export const SECTION = 'gateway';

/**
 * Each value through `inspect`, so a user-only setting (the base URL, the
 * approval mode, the budgets…) is taken from the user's settings even when a
 * workspace's `.vscode/settings.json` holds it: the `application` scope in
 * package.json hides it from the workspace settings UI, this makes it certain.
 */
export function readSettings(): GatewaySettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return parseSettings((name) => effectiveValue(name, config.inspect(name)));
}

/** The configured limits; the defaults while a setting is invalid (the requests show that error, pacing goes on). */
export function readLimits(): ConfiguredLimits {
  return settingOrUndefined(() => readSettings().limits) ?? DEFAULT_LIMITS;
}

/** What `read` gives, or undefined while the settings it needs are missing or invalid. */
export function settingOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof SettingError) return undefined;
    throw error;
  }
}
