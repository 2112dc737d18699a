/**
 * The `gateway.*` settings in VS Code: the SettingsService over the configuration,
 * read again when a `gateway.*` setting changes, and a refused value shown once,
 * as a warning naming the setting with a button that opens it.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../base/common';
import { announceProblems, SettingsService, type SettingsSource } from '../common/settingsService';
import type { SettingError, SettingLevels } from '../common/gatewaySettings';

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
export function createSettingsService(logger: Logger): { service: SettingsService; subscription: vscode.Disposable; reportProblems: () => void } {
  const source = sectionLevels();
  const service = new SettingsService(source);
  const announcer = announceProblems(service, (problems) => report(problems, logger));
  const changes = vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(SECTION)) return;
    source.forget();
    service.reload((name) => event.affectsConfiguration(`${SECTION}.${name}`));
  });
  // A value refused since before this window opened is shown once as well, right after activation (reportProblems),
  // not at the first request that needs it.
  return { service, subscription: vscode.Disposable.from(changes, announcer), reportProblems: () => announcer.start() };
}

/**
 * Every `gateway.*` setting's levels from one `inspect` of the whole section, read again after
 * `forget`. VS Code's `inspect` goes through every language override of the configuration each
 * time: once per setting, the 26 settings took most of activate() (95 ms of 133 in an e2e run).
 */
function sectionLevels(): SettingsSource & { forget(): void } {
  let section: SettingLevels | undefined;
  return {
    inspect: (name) => {
      section ??= vscode.workspace.getConfiguration().inspect(SECTION) ?? {};
      return levelsOf(section, name.split('.'));
    },
    forget: () => (section = undefined),
  };
}

/** One setting's levels inside the section's (`limits.requestsPerMinute` is `limits` → `requestsPerMinute` in each). */
function levelsOf(section: SettingLevels, path: readonly string[]): SettingLevels {
  return {
    defaultValue: valueAt(section.defaultValue, path),
    globalValue: valueAt(section.globalValue, path),
    workspaceValue: valueAt(section.workspaceValue, path),
    workspaceFolderValue: valueAt(section.workspaceFolderValue, path),
  };
}

function valueAt(tree: unknown, path: readonly string[]): unknown {
  let value = tree;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
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
