/**
 * Checkpoints of an agent session: after every step that changed files, the
 * state of every file the session has touched and of the conversation, so the
 * user can review a step, go back to it, and undo that too.
 *
 * Kept outside the workspace (a CheckpointFolder in the extension's storage),
 * never in a git repository or in the user's project. Contents are stored once
 * each under their sha256, so a file a step did not change costs nothing, and
 * the conversation is kept as slices of the transcript shared by every later
 * checkpoint. A session's blobs are bounded: past the bound the oldest
 * checkpoints are dropped, and the caller is told which, to say so.
 *
 * A restore first records the present as a checkpoint of its own (so it can be
 * undone, and a user's edit overwritten on purpose is still there), then stages
 * every new content beside its file, records its intent in a journal, renames
 * the staged files into place and writes the index. A crash before the journal
 * says "commit" leaves the old state (the staged files are discarded on
 * recovery); after it, recovery finishes the renames: the new state. Never a mix.
 */
import type { WorkspaceFiles } from '../../base/common';
import type { CheckpointFolder, WorkspaceRestore } from './checkpointPorts';
import type { AgentSessionState, OriginalFile } from '../../sessionModel/common';
import type { RecoveryWorkspace } from './journalPaths';
import type { Checkpoint, DroppedCheckpoint, FileVersion, Manifest } from './checkpointIndex';
import {
  CheckpointUnavailable,
  nextStepNumber,
  undoCheckpointLabel,
  type CaptureResult,
  type CheckpointStoreOptions,
  type Recovery,
  type RestorePlan,
  type RestoreResult,
} from './checkpointTypes';
import { IndexFile } from './indexFile';
import { adoptIntoBaseline } from './baseline';
import { addCheckpoint, checkpointOf, versionOnDisk, type StoreParts } from './checkpointCapture';
import { readConversation } from './conversation';
import { planRestoreOf, type PlanWorkspace } from './restorePlan';
import { applyAtomically, recoverJournal } from './atomicApply';

export type { Checkpoint, DroppedCheckpoint, FileVersion, Manifest } from './checkpointIndex';
export {
  CheckpointUnavailable,
  shortLabel,
  type CaptureResult,
  type CheckpointStoreOptions,
  type Recovery,
  type RestoreFile,
  type RestorePlan,
  type RestoreResult,
} from './checkpointTypes';

/** The store of one session's checkpoints: each call runs after the previous one finished (one index, read once). */
export class CheckpointStore {
  private readonly file: IndexFile;
  private readonly parts: StoreParts;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: CheckpointFolder,
    private readonly options: CheckpointStoreOptions,
  ) {
    this.file = new IndexFile(folder);
    this.parts = { file: this.file, options };
  }

  /** The checkpoints kept, oldest first. */
  list(signal: AbortSignal): Promise<Checkpoint[]> {
    return this.serial(async () => [...(await this.file.load(signal)).checkpoints]);
  }

  /** The checkpoints dropped so far to stay under the bound (the latest few). */
  dropped(signal: AbortSignal): Promise<DroppedCheckpoint[]> {
    return this.serial(async () => [...(await this.file.load(signal)).dropped]);
  }

  /** A restore's conversation not yet taken by the session (after a crash): the checkpoint to rewind to. */
  pendingRewind(signal: AbortSignal): Promise<Checkpoint | undefined> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      return index.checkpoints.find((c) => c.id === index.rewindTo);
    });
  }

  /** The session took the restored conversation: the restore is complete, its journal goes. */
  rewound(signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      if (index.rewindTo !== undefined) {
        index.rewindTo = undefined;
        await this.file.write(index, signal);
      }
      await this.folder.remove('journal', signal);
    });
  }

  /**
   * A file the session is about to list as changed (the first change since it started or was
   * last reverted): its content before that change becomes its baseline, what Revert puts back.
   * `before` undefined: there was no file. Called as soon as the write happened, before the
   * session is saved: the session itself keeps only the path.
   */
  keepOriginal(path: string, before: string | undefined, signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      const version = before === undefined ? null : (await this.folder.putBlob(before, signal)).hash;
      if (index.baseline.get(path) === version) return;
      index.baseline.set(path, version);
      await this.file.write(index, signal);
    });
  }

  /**
   * "Revert session changes": `files` back to their baseline, staged and journalled as a restore
   * is (all or nothing across a crash), without a checkpoint of its own or a conversation to
   * rewind. A file created by the session needs no baseline (it goes). What it puts back is then
   * what the session left them as, so a later restore does not take them for the user's changes.
   * The caller then notes it in the session and calls revertDone().
   */
  revertToBaseline(files: readonly { path: string; existed: boolean }[], restore: WorkspaceRestore, signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      const writes: { path: string; want: FileVersion }[] = [];
      for (const { path, existed } of files) {
        const want = index.baseline.get(path) ?? (existed ? undefined : null);
        if (want === undefined)
          throw new CheckpointUnavailable(
            `Revert refused, nothing was changed: the checkpoints no longer hold ${JSON.stringify(path)} as it was before the session.`,
          );
        writes.push({ path, want });
      }
      const contents = new Map<string, string>();
      for (const { path, want } of writes) if (want !== null) contents.set(path, await this.file.blobOrThrow(want, signal));
      for (const path of index.head.files.keys()) index.head.files.set(path, index.baseline.get(path) ?? null);
      for (const [path, version] of index.baseline) index.head.files.set(path, version);
      for (const { path, want } of writes) index.head.files.set(path, want);
      await applyAtomically(this.file, { index, change: { kind: 'revert', writes, contents }, nonce: this.options.nonce() }, restore, signal);
    });
  }

  /** The session noted the revert: it is complete, its journal goes. */
  revertDone(signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      if (index.revertPending !== undefined) {
        index.revertPending = undefined;
        await this.file.write(index, signal);
      }
      await this.folder.remove('journal', signal);
    });
  }

  /**
   * The text an older saved session kept of its originals goes into the baseline (the first
   * one listed for a path wins, as Revert put that one back). Plain workspace paths only:
   * anything else would refuse every later restore.
   */
  adoptOriginals(originals: readonly OriginalFile[], signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      if (await adoptIntoBaseline(this.folder, index, originals, signal)) await this.file.write(index, signal);
    });
  }

  /** A blob's text (a file at a checkpoint, for the diff views); undefined when it is gone. */
  blob(hash: string, signal: AbortSignal): Promise<string | undefined> {
    return this.file.blob(hash, signal);
  }

  /** Every file the session touched, as it was before the session changed it. */
  baseline(signal: AbortSignal): Promise<Manifest> {
    return this.serial(async () => new Map((await this.file.load(signal)).baseline));
  }

  /** The files a checkpoint's step changed, before and after it. */
  stepChanges(id: number, signal: AbortSignal): Promise<{ path: string; before: FileVersion; after: FileVersion }[]> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      const at = index.checkpoints.findIndex((c) => c.id === id);
      if (at < 0) throw new CheckpointUnavailable(`That checkpoint is no longer kept.`);
      const checkpoint = index.checkpoints[at];
      const previous = at > 0 ? index.checkpoints[at - 1] : undefined;
      return checkpoint.changed.map((path) => ({
        path,
        before: previous?.files.get(path) ?? index.baseline.get(path) ?? null,
        after: checkpoint.files.get(path) ?? null,
      }));
    });
  }

  /**
   * Records a step: the files it changed as they are now (the others as the
   * session last left them) and the conversation. `changed` are real workspace paths.
   */
  capture(state: AgentSessionState, changed: readonly string[], files: WorkspaceFiles, signal: AbortSignal): Promise<CaptureResult> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      // A legacy session's originals not yet in the baseline join it; files recorded since are there already (keepOriginal).
      await adoptIntoBaseline(this.folder, index, state.originals, signal);
      const manifest = new Map(index.head.files);
      for (const path of new Set(changed)) manifest.set(path, await versionOnDisk(this.folder, path, files, signal));
      const paths = [...new Set(changed)].sort();
      const label = `Step ${nextStepNumber(index)}: ${paths.join(', ')}`;
      const checkpoint = await checkpointOf({ index, state, kind: 'step', label, files: manifest, changed: paths }, this.parts, signal);
      index.head = { files: manifest, segments: checkpoint.conversation.segments, length: checkpoint.conversation.length };
      const dropped = await addCheckpoint(this.parts, { index, checkpoint }, signal);
      return { checkpoint, dropped };
    });
  }

  /**
   * What restoring `id` would do: each touched file's content then and now, the
   * ones the user changed since (or holds unsaved in an editor), and the commands
   * that ran after it. Changes nothing in the workspace.
   */
  planRestore(state: AgentSessionState, id: number, workspace: PlanWorkspace, signal: AbortSignal): Promise<RestorePlan> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      await adoptIntoBaseline(this.folder, index, state.originals, signal);
      return planRestoreOf(this.folder, { index, state, id }, workspace, signal);
    });
  }

  /**
   * Carries out a plan: the present becomes a checkpoint (the undo), then the
   * files are put back all or nothing, except the user's changed files when
   * `keepUserChanges`. The caller then rewinds the conversation (conversationAt)
   * and calls rewound().
   */
  restore(state: AgentSessionState, plan: RestorePlan, keepUserChanges: boolean, restore: WorkspaceRestore, signal: AbortSignal): Promise<RestoreResult> {
    return this.serial(async () => {
      const index = await this.file.load(signal);
      if (!index.checkpoints.some((c) => c.id === plan.target.id)) throw new CheckpointUnavailable('That checkpoint is no longer kept; nothing was changed.');
      const writes = plan.files.filter((f) => !(keepUserChanges && f.changedByUser));
      const kept = plan.files.filter((f) => keepUserChanges && f.changedByUser).map((f) => f.path);
      const label = undoCheckpointLabel(plan.target);
      const changed = writes.map((f) => f.path);
      const undo = await checkpointOf({ index, state, kind: 'restore', label, files: plan.present, changed, restoredTo: plan.target.id }, this.parts, signal);
      const dropped = await addCheckpoint(this.parts, { index, checkpoint: undo, keep: plan.target.id }, signal);
      const contents = new Map<string, string>();
      for (const file of writes) if (file.want !== null) contents.set(file.path, await this.file.blobOrThrow(file.want, signal));
      const head = new Map(plan.present);
      for (const file of writes) head.set(file.path, file.want);
      index.head = { files: head, segments: plan.target.conversation.segments, length: plan.target.conversation.length };
      index.rewindTo = plan.target.id;
      await applyAtomically(this.file, { index, change: { kind: 'restore', writes, contents }, nonce: this.options.nonce() }, restore, signal);
      return { undo, written: writes.map((f) => f.path), kept, dropped };
    });
  }

  /**
   * Finishes or rolls back a restore a crash interrupted: staged but not committed,
   * the staged files are removed (the old state stays); committed, the renames
   * are finished (the new state) and the checkpoint whose conversation the session
   * must take is returned (then rewound()), or for a revert the files it put back (then
   * the session notes it, and revertDone()). Only a journal is read when there is
   * nothing to recover, so this is cheap at startup. A journal listing a path
   * recovery may not touch (journalPaths.ts) is refused whole: RestoreJournalRefused.
   */
  recover(restore: WorkspaceRestore, signal: AbortSignal, workspace: RecoveryWorkspace): Promise<Recovery> {
    return this.serial(() => recoverJournal(this.file, restore, workspace, signal));
  }

  /** The session's conversation as it was at a checkpoint (transcript and chain), checked like a saved session. */
  conversationAt(
    state: AgentSessionState,
    checkpoint: Checkpoint,
    signal: AbortSignal,
  ): Promise<Partial<AgentSessionState> & { transcript: AgentSessionState['transcript'] }> {
    return this.serial(() => readConversation(this.file, state, checkpoint, signal));
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(work);
    this.queue = next;
    return next;
  }
}
