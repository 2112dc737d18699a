/**
 * What the user is told and asked about a checkpoint restore, kept free of
 * `vscode` so the wording can be tested: the files that change, the files the
 * user changed since (never overwritten without asking), and commands whose
 * side effects no restore can undo.
 */
import { shortLabel, type DroppedCheckpoint, type RestorePlan, type RestoreResult } from './checkpoints';

export const KEEP_MINE = 'Keep My Changes';
export const OVERWRITE = 'Overwrite Them';
export const RESTORE = 'Restore';
export const UNDO_RESTORE = 'Undo Restore';

/** At most this many names in a sentence; the rest are counted. */
const MAX_NAMES = 8;

export function listOfNames(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_NAMES).join(', ');
  return paths.length > MAX_NAMES ? `${shown} and ${paths.length - MAX_NAMES} more` : shown;
}

/** The modal question: its message, detail and buttons (Cancel is the dialog's own). */
export function restoreQuestion(plan: RestorePlan): { message: string; detail: string; buttons: string[] } {
  const where = shortLabel(plan.target);
  const message = plan.target.kind === 'step' ? `Restore the session to ${where}?` : `Undo the restore (back to the state ${where})?`;
  const parts: string[] = [];
  parts.push(plan.files.length > 0 ? `Files put back: ${listOfNames(plan.files.map((f) => f.path))}.` : 'Every file is already as it was then.');
  parts.push('The conversation goes back there too: Continue goes on from that point. The present is kept as a checkpoint, so this can be undone.');
  if (plan.conflicts.length > 0) {
    const unsaved = plan.conflicts.filter((f) => f.unsaved).map((f) => f.path);
    parts.push(
      `You changed ${listOfNames(plan.conflicts.map((f) => f.path))} since the agent did` +
        `${unsaved.length > 0 ? ` (${listOfNames(unsaved)} unsaved in an editor)` : ''}. ` +
        `"${KEEP_MINE}" leaves them as they are now; "${OVERWRITE}" puts them back too (your version stays in the checkpoint, so Undo brings it back).`,
    );
  }
  if (plan.commandsAfter.length > 0) {
    parts.push(
      `Commands ran after that point (${listOfNames(plan.commandsAfter)}): what they did outside these files (installed packages, generated files, anything else) cannot be undone.`,
    );
  }
  return {
    message,
    detail: parts.join('\n\n'),
    buttons: plan.conflicts.length > 0 ? [KEEP_MINE, OVERWRITE] : [plan.target.kind === 'step' ? RESTORE : UNDO_RESTORE],
  };
}

/**
 * Whether a restore asks first. Undoing a restore was asked for by its own button and can itself be
 * undone: it asks only when the user changed files since, or commands ran (their effects stay).
 */
export function asksBeforeRestore(plan: RestorePlan): boolean {
  return plan.target.kind === 'step' || plan.conflicts.length > 0 || plan.commandsAfter.length > 0;
}

/** The notice after a restore. */
export function restoreDone(plan: RestorePlan, result: RestoreResult): string {
  const where = shortLabel(plan.target);
  const parts = [plan.target.kind === 'step' ? `Restored to ${where}.` : `Restore undone.`];
  parts.push(result.written.length > 0 ? `Put back: ${listOfNames(result.written)}.` : 'No file needed changing.');
  if (result.kept.length > 0) parts.push(`Kept your changes in ${listOfNames(result.kept)}.`);
  if (result.dropped.length > 0) parts.push(droppedNotice(result.dropped));
  return parts.join(' ');
}

/** Said when older checkpoints had to go to keep the session under its bound. */
export function droppedNotice(dropped: readonly Pick<DroppedCheckpoint, 'label'>[]): string {
  return `Older checkpoints were dropped to keep this session's checkpoints within their limits (size and number): ${listOfNames(dropped.map((d) => d.label))}. They can no longer be restored.`;
}
