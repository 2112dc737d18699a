/**
 * Tells the user what of a sandboxed command's changes was held back (a
 * repository, .vscode, a link …: terminal/common/changeReview.ts), and lets
 * them take it: Apply puts exactly the paths named into the workspace (through
 * folders checked again); Discard deletes what was held. Dismissing keeps it aside.
 */
import * as vscode from 'vscode';
import { describeControlPath, shownPath } from '../common/controlPaths';
import type { Logger } from '../../base/common';
import type { QuarantinedControlPaths } from '../common/commandPorts';

const RESTORE = 'Apply';
const CHOOSE = 'Apply…';
const DISCARD = 'Discard';

export function showControlRollback(quarantined: QuarantinedControlPaths, logger: Logger): void {
  const { moved, failed } = quarantined.rollback;
  if (failed.length > 0) {
    const names = failed.map((entry) => shownPath(entry.path)).join(', ');
    void vscode.window.showErrorMessage(
      `Gateway agent: a sandboxed command's change to ${names} could not be applied to the workspace (${failed[0].reason}). ` +
        'The workspace has the file as it was before the command.',
    );
  }
  const kept = moved.filter((entry) => entry.kept);
  if (moved.length === 0) return;
  const message =
    moved.length === 1
      ? `Gateway agent: the sandboxed command wrote ${shownPath(moved[0].path)} (${moved[0].reason ?? describeControlPath(moved[0].path, moved[0].kind)}); ` +
        'it was held back and nothing ran it. Its other changes were applied.'
      : `Gateway agent: ${moved.length} of the sandboxed command's changes were held back, as other software could run them or they are not ordinary files ` +
        `(${moved
          .slice(0, 3)
          .map((entry) => shownPath(entry.path))
          .join(', ')}${moved.length > 3 ? ' …' : ''}); nothing ran them. Its other changes were applied.`;
  const buttons = kept.length === 0 ? [] : kept.length === 1 ? [RESTORE, DISCARD] : [CHOOSE, DISCARD];
  void vscode.window.showWarningMessage(message, ...buttons).then((choice) => answer(choice, quarantined, logger));
}

async function answer(choice: string | undefined, quarantined: QuarantinedControlPaths, logger: Logger): Promise<void> {
  const signal = new AbortController().signal;
  const kept = quarantined.rollback.moved.filter((entry) => entry.kept);
  try {
    if (choice === DISCARD) await quarantined.discard(signal);
    if (choice !== RESTORE && choice !== CHOOSE) return;
    const paths =
      choice === RESTORE
        ? kept.map((entry) => entry.path)
        : (
            (await vscode.window.showQuickPick(
              kept.map((entry) => ({
                label: shownPath(entry.path),
                description: entry.reason ?? describeControlPath(entry.path, entry.kind),
                path: entry.path,
              })),
              { canPickMany: true, placeHolder: 'Apply which of them to the workspace?' },
            )) ?? []
          ).map((item) => item.path);
    for (const path of paths) await quarantined.restore(path, signal);
    if (paths.length > 0) void vscode.window.showInformationMessage(`Applied ${paths.map(shownPath).join(', ')}.`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(`control-file rollback: ${choice ?? ''} failed: ${message}`);
    void vscode.window.showErrorMessage(`Gateway agent: ${choice === DISCARD ? 'discarding' : 'applying'} failed: ${message}`);
  }
}
