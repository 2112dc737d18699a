/** What the checkpoint store hands out and takes: restore plans and results, recovery, options, its one error. */
import type { Checkpoint, DroppedCheckpoint, FileVersion, Manifest } from './checkpointIndex';

/** One file of a planned restore. */
export interface RestoreFile {
  path: string;
  /** What the restore puts there. */
  want: FileVersion;
  /** What is there now. */
  current: FileVersion;
  /** Someone else changed it since the session (or the last restore) left it: the user is asked. */
  changedByUser: boolean;
  /** Open in an editor with unsaved changes. */
  unsaved: boolean;
}

export interface RestorePlan {
  target: Checkpoint;
  /** The files that would change, in path order. */
  files: RestoreFile[];
  /** The files the user changed since: never overwritten without asking. */
  conflicts: RestoreFile[];
  /** Commands that ran after the target: their side effects stay. */
  commandsAfter: string[];
  /** Every touched file as it is now: the restore's own checkpoint. */
  present: Manifest;
}

export interface RestoreResult {
  /** The checkpoint that holds the state before the restore (restore to it to undo). */
  undo: Checkpoint;
  written: string[];
  kept: string[];
  dropped: DroppedCheckpoint[];
}

/** What recover() did: nothing, rolled back, or finished a restore (`rewindTo`) or a revert (`reverted`). */
export interface Recovery {
  recovered: boolean;
  rewindTo?: Checkpoint;
  reverted?: string[];
}

export interface CaptureResult {
  checkpoint: Checkpoint;
  dropped: DroppedCheckpoint[];
}

/** A saved checkpoint cannot be used (dropped, damaged, or a blob gone): nothing was changed. */
export class CheckpointUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointUnavailable';
  }
}

export interface CheckpointStoreOptions {
  /** The most bytes of blobs a session keeps. */
  maxBytes: number;
  /** The most checkpoints a session keeps (the index lists each one's files and transcript slices). */
  maxCheckpoints?: number;
  /** The most transcript slices a checkpoint lists; past it the transcript is stored again as one slice. */
  maxSegments?: number;
  now: () => number;
  /** A fresh name for a restore's staged files (letters and digits). */
  nonce: () => string;
}

/** "step 3" for "Step 3: src/a.ts", or the label itself. */
export function shortLabel(checkpoint: Checkpoint): string {
  const step = /^Step (\d+)/.exec(checkpoint.label);
  return checkpoint.kind === 'step' ? `step ${step ? step[1] : checkpoint.turn}` : checkpoint.label.replace(/^Before/, 'before');
}

/**
 * The label of the checkpoint a restore keeps of the present (its undo). Undoing a restore is
 * named for the step it undoes ("Before undoing the restore to step 3"), and undoing that
 * again for the step once more, so labels never nest ("before restoring to before restoring…").
 */
export function undoCheckpointLabel(target: Checkpoint): string {
  if (target.kind === 'step') return `Before restoring to ${shortLabel(target)}`;
  const restored = /^Before (?:restoring|undoing the restore) to (.*)$/.exec(target.label)?.[1];
  if (restored === undefined) return `Before undoing a restore`;
  return target.label.startsWith('Before restoring') ? `Before undoing the restore to ${restored}` : `Before restoring to ${restored}`;
}

/** Steps are numbered in the order their checkpoints were made (the dropped ones count), not by turn: "Step 1", "Step 2"… */
export function nextStepNumber(index: { checkpoints: readonly { kind: string }[]; dropped: readonly { label: string }[] }): number {
  return index.checkpoints.filter((c) => c.kind === 'step').length + index.dropped.filter((d) => /^Step \d+/.test(d.label)).length + 1;
}
