/** Reads the `gateway.*` settings from VS Code and checks them with the core's rules. */
import * as vscode from 'vscode';
import { parseSettings, type GatewaySettings } from '../core/settings/gatewaySettings';

export { requireBaseUrl, SettingError, type GatewaySettings } from '../core/settings/gatewaySettings';

export const SECTION = 'gateway';

export function readSettings(): GatewaySettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return parseSettings((name) => config.get(name));
}
