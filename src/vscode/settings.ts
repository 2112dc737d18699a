/** Reads the `gateway.*` settings from VS Code and checks them with the core's rules. */
import * as vscode from 'vscode';
import { effectiveValue, parseSettings, type GatewaySettings } from '../core/settings/gatewaySettings';

export { requireBaseUrl, SettingError, type GatewaySettings } from '../core/settings/gatewaySettings';

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
