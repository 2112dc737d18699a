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
import type { CheckpointFolder, WorkspaceFiles, WorkspaceRestore } from '../../base/common';
import { normalizeWorkspacePath, resolveWorkspacePath } from '../../tools/common';
import { refusedJournalPaths, RestoreJournalRefused, type RecoveryWorkspace } from './journalPaths';
import { parseSavedSession, type AgentSessionState, type OriginalFile } from '../../agent/common';
import {
  HASH,
  isRecord,
  parseIndex,
  parseJournal,
  serializeIndex,
  type Checkpoint,
  type DroppedCheckpoint,
  type FileVersion,
  type Index,
  type Journal,
  type Manifest,
} from './checkpointIndex';

export type { Checkpoint, DroppedCheckpoint, FileVersion, Manifest } from './checkpointIndex';

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

/** The fields of the session that make up the conversation, besides the transcript. */
const CONVERSATION_FIELDS = [
  'previousResponseId',
  'unsent',
  'pendingCalls',
  'chainBase',
  'chainFrom',
  'contextTokens',
  'contextWindow',
  'compactions',
  'plan',
  'projectInstructions',
  'commandsRun',
  'lastCall',
] as const;

const MAX_DROPPED_KEPT = 20;
const DEFAULT_MAX_CHECKPOINTS = 200;
const DEFAULT_MAX_SEGMENTS = 64;

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

export class CheckpointStore {
  private index: Index | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: CheckpointFolder,
    private readonly options: CheckpointStoreOptions,
  ) {}

  /** The checkpoints kept, oldest first. */
  list(signal: AbortSignal): Promise<Checkpoint[]> {
    return this.serial(async () => [...(await this.load(signal)).checkpoints]);
  }

  /** The checkpoints dropped so far to stay under the bound (the latest few). */
  dropped(signal: AbortSignal): Promise<DroppedCheckpoint[]> {
    return this.serial(async () => [...(await this.load(signal)).dropped]);
  }

  /** A restore's conversation not yet taken by the session (after a crash): the checkpoint to rewind to. */
  pendingRewind(signal: AbortSignal): Promise<Checkpoint | undefined> {
    return this.serial(async () => {
      const index = await this.load(signal);
      return index.checkpoints.find((c) => c.id === index.rewindTo);
    });
  }

  /** The session took the restored conversation: the restore is complete, its journal goes. */
  rewound(signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.load(signal);
      if (index.rewindTo !== undefined) {
        index.rewindTo = undefined;
        await this.write(index, signal);
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
      const index = await this.load(signal);
      const version = before === undefined ? null : (await this.folder.putBlob(before, signal)).hash;
      if (index.baseline.get(path) === version) return;
      index.baseline.set(path, version);
      await this.write(index, signal);
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
      const index = await this.load(signal);
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
      for (const { path, want } of writes) if (want !== null) contents.set(path, await this.blobOrThrow(want, signal));
      for (const path of index.head.files.keys()) index.head.files.set(path, index.baseline.get(path) ?? null);
      for (const [path, version] of index.baseline) index.head.files.set(path, version);
      for (const { path, want } of writes) index.head.files.set(path, want);
      await this.applyAtomically(index, { kind: 'revert', writes, contents }, restore, signal);
    });
  }

  /** The session noted the revert: it is complete, its journal goes. */
  revertDone(signal: AbortSignal): Promise<void> {
    return this.serial(async () => {
      const index = await this.load(signal);
      if (index.revertPending !== undefined) {
        index.revertPending = undefined;
        await this.write(index, signal);
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
      const index = await this.load(signal);
      if (await this.adopt(index, originals, signal)) await this.write(index, signal);
    });
  }

  /** A blob's text (a file at a checkpoint, for the diff views); undefined when it is gone. */
  blob(hash: string, signal: AbortSignal): Promise<string | undefined> {
    return HASH.test(hash) ? this.folder.getBlob(hash, signal) : Promise.resolve(undefined);
  }

  /** Every file the session touched, as it was before the session changed it. */
  baseline(signal: AbortSignal): Promise<Manifest> {
    return this.serial(async () => new Map((await this.load(signal)).baseline));
  }

  /** The files a checkpoint's step changed, before and after it. */
  stepChanges(id: number, signal: AbortSignal): Promise<{ path: string; before: FileVersion; after: FileVersion }[]> {
    return this.serial(async () => {
      const index = await this.load(signal);
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
      const index = await this.load(signal);
      await this.growBaseline(index, state, signal);
      const manifest = new Map(index.head.files);
      for (const path of new Set(changed)) manifest.set(path, await this.versionOnDisk(path, files, signal));
      const paths = [...new Set(changed)].sort();
      const checkpoint = await this.checkpointOf(index, state, 'step', `Step ${state.turns}: ${paths.join(', ')}`, manifest, paths, signal);
      index.head = { files: manifest, segments: checkpoint.conversation.segments, length: checkpoint.conversation.length };
      const dropped = await this.add(index, checkpoint, signal);
      return { checkpoint, dropped };
    });
  }

  /**
   * What restoring `id` would do: each touched file's content then and now, the
   * ones the user changed since (or holds unsaved in an editor), and the commands
   * that ran after it. Changes nothing in the workspace.
   */
  planRestore(
    state: AgentSessionState,
    id: number,
    workspace: { files: WorkspaceFiles; protectedFiles: readonly string[]; isUnsaved?: (path: string) => boolean },
    signal: AbortSignal,
  ): Promise<RestorePlan> {
    return this.serial(async () => {
      const index = await this.load(signal);
      await this.growBaseline(index, state, signal);
      const target = index.checkpoints.find((c) => c.id === id);
      if (!target)
        throw new CheckpointUnavailable('That checkpoint is no longer kept (dropped to stay under the size bound, or removed); nothing was changed.');
      const paths = [...new Set([...index.baseline.keys(), ...index.head.files.keys(), ...target.files.keys()])].sort();
      const present: Manifest = new Map();
      const planned: RestoreFile[] = [];
      for (const path of paths) {
        await checkPath(path, workspace, signal);
        const current = await this.versionOnDisk(path, workspace.files, signal);
        present.set(path, current);
        const want = target.files.get(path) ?? index.baseline.get(path);
        if (want === undefined || want === current) continue;
        const known = index.head.files.get(path) ?? index.baseline.get(path);
        const unsaved = workspace.isUnsaved?.(path) ?? false;
        planned.push({ path, want, current, changedByUser: current !== known || unsaved, unsaved });
      }
      const commandsAfter = state.commandsRun.slice(target.conversation.commandsRun);
      return { target, files: planned, conflicts: planned.filter((f) => f.changedByUser), commandsAfter, present };
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
      const index = await this.load(signal);
      if (!index.checkpoints.some((c) => c.id === plan.target.id)) throw new CheckpointUnavailable('That checkpoint is no longer kept; nothing was changed.');
      const writes = plan.files.filter((f) => !(keepUserChanges && f.changedByUser));
      const kept = plan.files.filter((f) => keepUserChanges && f.changedByUser).map((f) => f.path);
      const label = `Before restoring to ${shortLabel(plan.target)}`;
      const undo = await this.checkpointOf(
        index,
        state,
        'restore',
        label,
        plan.present,
        writes.map((f) => f.path),
        signal,
        plan.target.id,
      );
      const dropped = await this.add(index, undo, signal, plan.target.id);
      const contents = new Map<string, string>();
      for (const file of writes) if (file.want !== null) contents.set(file.path, await this.blobOrThrow(file.want, signal));
      const head = new Map(plan.present);
      for (const file of writes) head.set(file.path, file.want);
      index.head = { files: head, segments: plan.target.conversation.segments, length: plan.target.conversation.length };
      index.rewindTo = plan.target.id;
      await this.applyAtomically(index, { kind: 'restore', writes, contents }, restore, signal);
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
    return this.serial(async () => {
      const journal = parseJournal(await this.folder.read('journal', signal));
      if (!journal) return { recovered: false };
      // Every path checked before the first is touched; one it may not touch refuses the whole journal,
      // which goes (a refused journal replayed at every start would block every restore).
      const refused = await refusedJournalPaths(
        journal.writes.map((write) => write.path),
        workspace,
        signal,
      );
      if (refused.length > 0) {
        await this.folder.remove('journal', signal);
        throw new RestoreJournalRefused(refused);
      }
      if (journal.phase === 'staging') {
        for (const write of journal.writes) if (write.version !== null) await restore.discard(write.path, journal.nonce, signal);
        await this.folder.remove('journal', signal);
        return { recovered: true };
      }
      await commitAll(journal, restore, signal);
      this.index = undefined;
      if (journal.kind === 'revert') return this.recoveredRevert(journal, signal);
      // The index is written once the files are in place; written already, it may hold checkpoints made since.
      const index = await this.load(signal);
      if (index.rewindTo !== journal.target) {
        await this.folder.writeAtomic('index', journal.index, signal);
        this.index = undefined;
      }
      const current = await this.load(signal);
      return { recovered: true, rewindTo: current.checkpoints.find((c) => c.id === current.rewindTo) };
    });
  }

  /** A revert's files are in place: its index too, then the session is to note it (revertDone()). */
  private async recoveredRevert(journal: Journal, signal: AbortSignal): Promise<Recovery> {
    if ((await this.load(signal)).revertPending !== journal.nonce) {
      await this.folder.writeAtomic('index', journal.index, signal);
      this.index = undefined;
    }
    return { recovered: true, reverted: journal.writes.map((write) => write.path) };
  }

  /** The session's conversation as it was at a checkpoint (transcript and chain), checked like a saved session. */
  conversationAt(
    state: AgentSessionState,
    checkpoint: Checkpoint,
    signal: AbortSignal,
  ): Promise<Partial<AgentSessionState> & { transcript: AgentSessionState['transcript'] }> {
    return this.serial(async () => {
      const transcript: unknown[] = [];
      for (const segment of checkpoint.conversation.segments) {
        const items: unknown = JSON.parse(await this.blobOrThrow(segment, signal));
        if (!Array.isArray(items)) throw new CheckpointUnavailable('A checkpoint of this session is damaged; nothing was changed.');
        transcript.push(...(items as unknown[]));
      }
      const rest: unknown = JSON.parse(await this.blobOrThrow(checkpoint.conversation.rest, signal));
      const parsed = parseSavedSession({ ...(isRecord(rest) ? rest : {}), id: state.id, status: 'paused', transcript });
      if (!parsed || parsed.transcript.length !== checkpoint.conversation.length) {
        throw new CheckpointUnavailable('A checkpoint of this session is damaged; nothing was changed.');
      }
      const fields: Partial<AgentSessionState> = {};
      for (const key of CONVERSATION_FIELDS) (fields as Record<string, unknown>)[key] = parsed[key];
      return { ...fields, transcript: parsed.transcript };
    });
  }

  // ---- internals ---------------------------------------------------------------------

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(work);
    this.queue = next;
    return next;
  }

  private async load(signal: AbortSignal): Promise<Index> {
    this.index ??= parseIndex(await this.folder.read('index', signal));
    return this.index;
  }

  private async write(index: Index, signal: AbortSignal): Promise<void> {
    await this.folder.writeAtomic('index', serializeIndex(index), signal);
  }

  /** A legacy session's originals not yet in the baseline join it (adoptOriginals); files recorded since are there already (keepOriginal). */
  private async growBaseline(index: Index, state: AgentSessionState, signal: AbortSignal): Promise<void> {
    await this.adopt(index, state.originals, signal);
  }

  /** True when the baseline changed. */
  private async adopt(index: Index, originals: readonly OriginalFile[], signal: AbortSignal): Promise<boolean> {
    const seen = new Set<string>();
    let changed = false;
    for (const { path, existed, before } of originals) {
      if (seen.has(path) || !isPlainPath(path)) continue;
      seen.add(path);
      if (before === undefined && (existed || index.baseline.has(path))) continue;
      const version = before === undefined ? null : (await this.folder.putBlob(before, signal)).hash;
      if (index.baseline.get(path) === version) continue;
      index.baseline.set(path, version);
      changed = true;
    }
    return changed;
  }

  private async versionOnDisk(path: string, files: WorkspaceFiles, signal: AbortSignal): Promise<FileVersion> {
    const stat = await files.stat(path, signal);
    if (!stat || stat.type !== 'file') return null;
    return (await this.folder.putBlob(await files.readText(path, signal), signal)).hash;
  }

  private async checkpointOf(
    index: Index,
    state: AgentSessionState,
    kind: Checkpoint['kind'],
    label: string,
    files: Manifest,
    changed: string[],
    signal: AbortSignal,
    restoredTo?: number,
  ): Promise<Checkpoint> {
    const { head } = index;
    // A long session would list ever more slices in every checkpoint: past the cap, one slice again.
    const continues = state.transcript.length >= head.length && head.segments.length < (this.options.maxSegments ?? DEFAULT_MAX_SEGMENTS);
    const from = continues ? head.length : 0;
    const segments = continues ? [...head.segments] : [];
    if (state.transcript.length > from) segments.push((await this.folder.putBlob(JSON.stringify(state.transcript.slice(from)), signal)).hash);
    const restFields: Record<string, unknown> = {};
    for (const key of CONVERSATION_FIELDS) restFields[key] = state[key];
    const rest = (await this.folder.putBlob(JSON.stringify(restFields), signal)).hash;
    return {
      id: index.next++,
      kind,
      label,
      at: this.options.now(),
      turn: state.turns,
      files: new Map(files),
      changed,
      conversation: { segments, length: state.transcript.length, rest, commandsRun: state.commandsRun.length },
      ...(restoredTo !== undefined ? { restoredTo } : {}),
    };
  }

  /** Adds a checkpoint, drops the oldest while the session's blobs pass the bound, writes the index, removes unused blobs. */
  private async add(index: Index, checkpoint: Checkpoint, signal: AbortSignal, keep?: number): Promise<DroppedCheckpoint[]> {
    index.checkpoints.push(checkpoint);
    const sizes = await this.folder.blobSizes(signal);
    const dropped: DroppedCheckpoint[] = [];
    for (;;) {
      const total = sumOf(referencedBlobs(index), sizes);
      const candidate = index.checkpoints.findIndex((c) => c !== checkpoint && c.id !== keep);
      const tooMany = index.checkpoints.length > (this.options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS);
      if ((total <= this.options.maxBytes && !tooMany) || candidate < 0) break;
      const [gone] = index.checkpoints.splice(candidate, 1);
      dropped.push({ id: gone.id, label: gone.label, at: gone.at });
    }
    index.dropped = [...index.dropped, ...dropped].slice(-MAX_DROPPED_KEPT);
    await this.write(index, signal);
    const used = referencedBlobs(index);
    for (const hash of sizes.keys()) if (!used.has(hash)) await this.folder.removeBlob(hash, signal);
    return dropped;
  }

  private async blobOrThrow(hash: string, signal: AbortSignal): Promise<string> {
    const text = await this.blob(hash, signal);
    if (text === undefined) throw new CheckpointUnavailable('A file of that checkpoint is missing from the checkpoint store; nothing was changed.');
    return text;
  }

  /**
   * Stages every new content beside its file, records the intent in a journal, renames the staged
   * files into place and writes the index (see the top of this file). A revert's index carries the
   * journal's nonce until revertDone(), so that recovery can tell whether it was written.
   */
  private async applyAtomically(
    index: Index,
    change: { kind: Journal['kind']; writes: readonly { path: string; want: FileVersion }[]; contents: Map<string, string> },
    restore: WorkspaceRestore,
    signal: AbortSignal,
  ): Promise<void> {
    const { kind, writes, contents } = change;
    const nonce = this.options.nonce();
    if (kind === 'revert') index.revertPending = nonce;
    const journal: Journal = {
      phase: 'staging',
      kind,
      target: kind === 'restore' ? index.rewindTo! : 0,
      nonce,
      writes: writes.map((f) => ({ path: f.path, version: f.want })),
      index: serializeIndex(index),
    };
    await this.folder.writeAtomic('journal', JSON.stringify(journal), signal);
    try {
      for (const write of journal.writes) if (write.version !== null) await restore.stage(write.path, journal.nonce, contents.get(write.path)!, signal);
    } catch (error) {
      this.index = undefined;
      // Rolled back now when possible; otherwise the journal stays, and recover() removes what was staged.
      const discarded = await Promise.all(
        journal.writes
          .filter((w) => w.version !== null)
          .map((w) =>
            restore.discard(w.path, journal.nonce, signal).then(
              () => true,
              () => false,
            ),
          ),
      );
      if (discarded.every(Boolean)) await this.folder.remove('journal', signal).catch(() => undefined);
      throw error;
    }
    await this.folder.writeAtomic('journal', JSON.stringify({ ...journal, phase: 'commit' }), signal);
    // From here on the restore is decided: a failure is finished by recover(). The journal
    // stays until the session has taken the conversation too (rewound()).
    await commitAll(journal, restore, signal);
    await this.folder.writeAtomic('index', journal.index, signal);
  }
}

async function commitAll(journal: Journal, restore: WorkspaceRestore, signal: AbortSignal): Promise<void> {
  for (const write of journal.writes) {
    if (write.version === null) await restore.remove(write.path, signal);
    else await restore.commit(write.path, journal.nonce, signal);
  }
}

/** The paths come from a folder on disk: each passes the tools' own check (inside the workspace, not protected) before it is read or written. */
async function checkPath(path: string, workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] }, signal: AbortSignal): Promise<void> {
  const checked = await resolveWorkspacePath(path, workspace, signal);
  if (!checked.ok) throw new CheckpointUnavailable(`Restore refused, nothing was changed: the checkpoints list ${JSON.stringify(path)}. ${checked.reason}`);
  if (checked.path !== path)
    throw new CheckpointUnavailable(`Restore refused, nothing was changed: the checkpoints list ${JSON.stringify(path)}, not a plain workspace path.`);
}

/** A path as the tools would write it (relative, normalized): only such a path joins the baseline. */
function isPlainPath(path: string): boolean {
  const normalized = normalizeWorkspacePath(path);
  return normalized.ok && normalized.path === path;
}

/** "step 3" for "Step 3: src/a.ts", or the label itself. */
export function shortLabel(checkpoint: Checkpoint): string {
  return checkpoint.kind === 'step' ? `step ${checkpoint.turn}` : checkpoint.label.replace(/^Before/, 'before');
}

function referencedBlobs(index: Index): Set<string> {
  const used = new Set<string>();
  const addManifest = (manifest: Manifest) => {
    for (const version of manifest.values()) if (version !== null) used.add(version);
  };
  addManifest(index.baseline);
  addManifest(index.head.files);
  for (const segment of index.head.segments) used.add(segment);
  for (const checkpoint of index.checkpoints) {
    addManifest(checkpoint.files);
    for (const segment of checkpoint.conversation.segments) used.add(segment);
    used.add(checkpoint.conversation.rest);
  }
  return used;
}

function sumOf(hashes: Set<string>, sizes: Map<string, number>): number {
  let total = 0;
  for (const hash of hashes) total += sizes.get(hash) ?? 0;
  return total;
}
