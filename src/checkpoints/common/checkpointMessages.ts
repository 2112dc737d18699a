/**
 * What the user is told and asked about a checkpoint restore, kept free of
 * `vscode` so the wording can be tested: the files that change, the files the
 * user changed since (never overwritten without asking), and commands whose
 * side effects no restore can undo.
 */
import { shortLabel, type RestorePlan, type RestoreResult } from './checkpointTypes';
import { type Checkpoint, type DroppedCheckpoint } from './checkpointIndex';

export const KEEP_MINE = 'Keep My Changes';
export const OVERWRITE = 'Overwrite Them';
export const RESTORE = 'Restore';
export const UNDO_RESTORE = 'Undo Restore';
/** The restore command's third argument when a chat button runs it: the chat then gets a turn saying where the session stands. */
export const RESTORE_FROM_CHAT = 'chat';

/** The chat request that shows a session's state (`@gateway /session <id>`): posted after a restore started from the chat. */
export function sessionStateQuery(sessionId: string): string {
  return `@gateway /session ${sessionId}`;
}

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

/** The notice after a restore: where the session stands (as the chat and the Sessions view say it), then the files. */
export function restoreDone(restored: RestoredState, status: string, result: RestoreResult): string {
  const parts = [restoredHeadline(restored, status)];
  parts.push(result.written.length > 0 ? `Put back: ${listOfNames(result.written)}.` : 'No file needed changing.');
  if (result.kept.length > 0) parts.push(`Kept your changes in ${listOfNames(result.kept)}.`);
  if (result.dropped.length > 0) parts.push(droppedNotice(result.dropped));
  parts.push(restoredNextStep(restored, status));
  return parts.join(' ');
}

/** A restore as the checkpoints record it: where it went, the checkpoint that undoes it, the steps it undid. */
export interface RestoredState {
  target: Checkpoint;
  undo: Checkpoint;
  /** The steps after the target that the restore took back (their file changes and their part of the conversation). */
  undone: Checkpoint[];
}

/** The session's last restore, when nothing happened after it (the newest checkpoint is that restore's undo point). */
export function latestRestore(checkpoints: readonly Checkpoint[]): RestoredState | undefined {
  const undo = checkpoints.at(-1);
  if (undo?.kind !== 'restore' || undo.restoredTo === undefined) return undefined;
  const target = checkpoints.find((c) => c.id === undo.restoredTo);
  if (!target) return undefined;
  const undone = target.kind === 'step' ? checkpoints.filter((c) => c.kind === 'step' && c.id > target.id && c.id < undo.id) : [];
  return { target, undo, undone };
}

/** What an old Undo Restore link (a chat turn's, a toast's) says when its restore is no longer the last thing that happened. */
export const UNDO_NO_LONGER_APPLIES = 'That restore was already undone or followed by another one: nothing was changed.';

/**
 * Whether a restore to `checkpointId` is an Undo Restore that no longer applies (issue 39, item 4): a restore's own
 * checkpoint (the state before it) may be gone back to until another restore happened — the undo itself (its own
 * checkpoint comes after) or a later restore; an old link would then undo twice and duplicate a checkpoint. Steps
 * after the restore do not end it (Undo Restore after Continue brings back what the restore undid).
 */
export function undoNoLongerApplies(checkpoints: readonly Checkpoint[], checkpointId: number): string | undefined {
  const target = checkpoints.find((c) => c.id === checkpointId);
  if (target?.kind !== 'restore') return undefined;
  return checkpoints.some((c) => c.kind === 'restore' && c.id > checkpointId) ? UNDO_NO_LONGER_APPLIES : undefined;
}

/** "Restored to step 2: session paused, steps 3 and 4 undone." — what replaces the chat's older "Session done". */
export function restoredHeadline({ target, undone }: RestoredState, status: string): string {
  if (target.kind !== 'step') return `Restore undone: the session is back where it was ${shortLabel(target)} (${status}).`;
  const steps = undone.map((c) => shortLabel(c));
  const taken = steps.length === 0 ? '' : `, ${steps.length === 1 ? steps[0] : `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}`} undone`;
  return `Restored to ${shortLabel(target)}: session ${status}${taken}.`;
}

/** What the user can do now: Continue (from the target) and Undo Restore. */
export function restoredNextStep({ target, undone }: RestoredState, status: string): string {
  const going = status === 'paused' || status === 'stopped' ? `Continue goes on from ${target.kind === 'step' ? shortLabel(target) : 'there'}; ` : '';
  if (target.kind !== 'step') return going.replace(/; $/, '.');
  return `${going}${undone.length > 0 ? 'Undo Restore brings the undone steps back.' : 'Undo Restore brings the files back.'}`;
}

/** Said when older checkpoints had to go to keep the session under its bound. */
export function droppedNotice(dropped: readonly Pick<DroppedCheckpoint, 'label'>[]): string {
  return `Older checkpoints were dropped to keep this session's checkpoints within their limits (size and number): ${listOfNames(dropped.map((d) => d.label))}. They can no longer be restored.`;
}
