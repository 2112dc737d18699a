/**
 * Tells the user what a sandboxed command tried to leave in the workspace and
 * was moved out (a new .git, .vscode …), and lets them allow it: Restore puts
 * back exactly the path named (checked again: inside the workspace, nothing
 * there now); Discard deletes what was kept. Dismissing keeps it aside.
 */
import * as vscode from 'vscode';
import { describeControlPath, shownPath } from '../common/controlPaths';
import type { Logger } from '../../base/common';
import type { QuarantinedControlPaths } from '../common/commandPorts';

const RESTORE = 'Restore';
const CHOOSE = 'Restore…';
const DISCARD = 'Discard';

export function showControlRollback(quarantined: QuarantinedControlPaths, logger: Logger): void {
  const { moved, failed } = quarantined.rollback;
  if (failed.length > 0) {
    const names = failed.map((entry) => shownPath(entry.path)).join(', ');
    void vscode.window.showErrorMessage(
      `Gateway agent: a sandboxed command left ${names} and it could not be moved out of the workspace (${failed[0].reason}). ` +
        'Look at it before you open that folder or run Git there.',
    );
  }
  const kept = moved.filter((entry) => entry.kept);
  if (moved.length === 0) return;
  const what =
    moved.length === 1
      ? `${shownPath(moved[0].path)} (${describeControlPath(moved[0].path, moved[0].kind)})`
      : `${moved.length} files that make other software run code (${moved
          .slice(0, 3)
          .map((entry) => shownPath(entry.path))
          .join(', ')}${moved.length > 3 ? ' …' : ''})`;
  const buttons = kept.length === 0 ? [] : kept.length === 1 ? [RESTORE, DISCARD] : [CHOOSE, DISCARD];
  void vscode.window
    .showWarningMessage(`Gateway agent: the sandboxed command created ${what}. It was moved out of the workspace; nothing ran it.`, ...buttons)
    .then((choice) => answer(choice, quarantined, logger));
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
              kept.map((entry) => ({ label: shownPath(entry.path), description: describeControlPath(entry.path, entry.kind), path: entry.path })),
              { canPickMany: true, placeHolder: 'Put which of them back into the workspace?' },
            )) ?? []
          ).map((item) => item.path);
    for (const path of paths) await quarantined.restore(path, signal);
    if (paths.length > 0) void vscode.window.showInformationMessage(`Restored ${paths.map(shownPath).join(', ')}.`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(`control-file rollback: ${choice ?? ''} failed: ${message}`);
    void vscode.window.showErrorMessage(`Gateway agent: ${choice === DISCARD ? 'discarding' : 'restoring'} failed: ${message}`);
  }
}
