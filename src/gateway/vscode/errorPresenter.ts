/** Shows a failure as a notification whose buttons fix it (Set API Key, Top up, Open Settings…). */
import * as vscode from 'vscode';
import { AbortError } from '../common/errors';
import type { Logger } from '../../base/common';
import type { SettingsService } from '../../settings/common';
import { actionsFor, messageOf } from './errorActions';

export class ErrorPresenter {
  constructor(
    private readonly logger: Logger,
    private readonly settings: SettingsService,
  ) {}

  async show(error: unknown): Promise<void> {
    if (error instanceof AbortError) return;
    const message = messageOf(error);
    this.logger.warn(message);
    const actions = this.actionsFor(error);
    const chosen = await vscode.window.showErrorMessage(message, ...actions.map((action) => action.title));
    const action = actions.find((candidate) => candidate.title === chosen);
    if (action) await vscode.commands.executeCommand(action.command, ...(action.arguments ?? []));
  }

  /** The buttons that fix `error`, as in a notification: for a chat's or an agent turn's answer. */
  actionsFor(error: unknown): vscode.Command[] {
    return actionsFor(error, this.settings.current());
  }

  /** A command handler whose failure is shown here rather than lost in VS Code's generic "command failed". */
  guard(run: (...args: unknown[]) => Promise<unknown>): (...args: unknown[]) => Promise<unknown> {
    return async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        void this.show(error);
        return undefined;
      }
    };
  }
}
