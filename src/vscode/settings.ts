/** Reads the `gateway.*` settings from VS Code and checks them with the core's rules. */
import * as vscode from 'vscode';
import { DEFAULT_LIMITS, type ConfiguredLimits } from '../core/api';
import { parseSettings, SettingError, type GatewaySettings } from '../core/settings/gatewaySettings';

export { requireBaseUrl, SettingError, type GatewaySettings } from '../core/settings/gatewaySettings';

export const SECTION = 'gateway';

export function readSettings(): GatewaySettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return parseSettings((name) => config.get(name));
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
