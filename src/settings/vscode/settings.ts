/**
 * The `gateway.*` settings in VS Code: the SettingsService over the configuration,
 * read again when a `gateway.*` setting changes, and a refused value shown once,
 * as a warning naming the setting with a button that opens it.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../base/common';
import { SettingsService } from '../common/settingsService';
import type { SettingError } from '../common/gatewaySettings';

export { SettingError, settingOrUndefined, type GatewaySettings } from '../common/gatewaySettings';
export { SettingsService } from '../common/settingsService';

export const SECTION = 'gateway';

const OPEN_SETTINGS = 'Open Settings';

/**
 * The settings service for this window. Each value goes through `inspect`, so a
 * user-only setting (the base URL, the approval mode, the budgets…) is taken
 * from the user's settings even when a workspace's `.vscode/settings.json`
 * holds it: the `application` scope in package.json hides it from the workspace
 * settings UI, this makes it certain.
 */
export function createSettingsService(logger: Logger): { service: SettingsService; subscription: vscode.Disposable } {
  const service = new SettingsService({ inspect: (name) => vscode.workspace.getConfiguration(SECTION).inspect(name) });
  const found = service.onDidFindProblems((problems) => report(problems, logger));
  const changes = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SECTION)) service.reload();
  });
  // A value refused since before this window opened is shown once as well, not at the first request that needs it.
  report(service.problems(), logger);
  return { service, subscription: vscode.Disposable.from(changes, found) };
}

function report(problems: readonly SettingError[], logger: Logger): void {
  for (const problem of problems) {
    const outcome = problem.setting === 'baseUrl' ? 'Requests wait until it is fixed.' : 'Its default applies until it is fixed.';
    logger.warn(`settings: ${problem.message} ${outcome}`);
    void vscode.window.showWarningMessage(`Gateway: ${problem.message} ${outcome}`, OPEN_SETTINGS).then((choice) => {
      if (choice === OPEN_SETTINGS) void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${problem.setting}`);
    });
  }
}
