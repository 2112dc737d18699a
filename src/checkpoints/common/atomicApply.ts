/**
 * Putting files back all or nothing across a crash: every new content is staged beside its file,
 * the intent recorded in a journal, the staged files renamed into place and the index written.
 * A crash before the journal says "commit" leaves the old state (recovery discards the staged
 * files); after it, recovery finishes the renames: the new state. Never a mix.
 */
import type { WorkspaceRestore } from './checkpointPorts';
import { refusedJournalPaths, RestoreJournalRefused, type RecoveryWorkspace } from './journalPaths';
import { parseJournal, serializeIndex, type FileVersion, type Index, type Journal } from './checkpointIndex';
import type { Recovery } from './checkpointTypes';
import type { IndexFile } from './indexFile';

/** A restore's or a revert's files: what each path gets, and the text of every one that is not a removal. */
export interface AtomicChange {
  kind: Journal['kind'];
  writes: readonly { path: string; want: FileVersion }[];
  contents: Map<string, string>;
}

/**
 * Applies `change` and writes `index` (see the top of this file). A revert's index carries the
 * journal's nonce until revertDone(), so that recovery can tell whether it was written.
 */
export async function applyAtomically(
  file: IndexFile,
  applied: { index: Index; change: AtomicChange; nonce: string },
  restore: WorkspaceRestore,
  signal: AbortSignal,
): Promise<void> {
  const { index, change, nonce } = applied;
  const { kind, writes, contents } = change;
  if (kind === 'revert') index.revertPending = nonce;
  const journal: Journal = {
    phase: 'staging',
    kind,
    target: kind === 'restore' ? index.rewindTo! : 0,
    nonce,
    writes: writes.map((f) => ({ path: f.path, version: f.want })),
    index: serializeIndex(index),
  };
  await file.folder.writeAtomic('journal', JSON.stringify(journal), signal);
  try {
    for (const write of journal.writes) if (write.version !== null) await restore.stage(write.path, journal.nonce, contents.get(write.path)!, signal);
  } catch (error) {
    file.forget();
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
    if (discarded.every(Boolean)) await file.folder.remove('journal', signal).catch(() => undefined);
    throw error;
  }
  await file.folder.writeAtomic('journal', JSON.stringify({ ...journal, phase: 'commit' }), signal);
  // From here on the restore is decided: a failure is finished by recover(). The journal
  // stays until the session has taken the conversation too (rewound()).
  await commitAll(journal, restore, signal);
  await file.writeSerialized(journal.index, signal);
}

/** Finishes or rolls back what a journal left (CheckpointStore.recover says how). */
export async function recoverJournal(file: IndexFile, restore: WorkspaceRestore, workspace: RecoveryWorkspace, signal: AbortSignal): Promise<Recovery> {
  const journal = parseJournal(await file.folder.read('journal', signal));
  if (!journal) return { recovered: false };
  // Every path checked before the first is touched; one it may not touch refuses the whole journal,
  // which goes (a refused journal replayed at every start would block every restore).
  const refused = await refusedJournalPaths(
    journal.writes.map((write) => write.path),
    workspace,
    signal,
  );
  if (refused.length > 0) {
    await file.folder.remove('journal', signal);
    throw new RestoreJournalRefused(refused);
  }
  if (journal.phase === 'staging') {
    for (const write of journal.writes) if (write.version !== null) await restore.discard(write.path, journal.nonce, signal);
    await file.folder.remove('journal', signal);
    return { recovered: true };
  }
  await commitAll(journal, restore, signal);
  file.forget();
  if (journal.kind === 'revert') return recoveredRevert(file, journal, signal);
  // The index is written once the files are in place; written already, it may hold checkpoints made since.
  const index = await file.load(signal);
  if (index.rewindTo !== journal.target) {
    await file.writeSerialized(journal.index, signal);
    file.forget();
  }
  const current = await file.load(signal);
  return { recovered: true, rewindTo: current.checkpoints.find((c) => c.id === current.rewindTo) };
}

/** A revert's files are in place: its index too, then the session is to note it (revertDone()). */
async function recoveredRevert(file: IndexFile, journal: Journal, signal: AbortSignal): Promise<Recovery> {
  if ((await file.load(signal)).revertPending !== journal.nonce) {
    await file.writeSerialized(journal.index, signal);
    file.forget();
  }
  return { recovered: true, reverted: journal.writes.map((write) => write.path) };
}

async function commitAll(journal: Journal, restore: WorkspaceRestore, signal: AbortSignal): Promise<void> {
  for (const write of journal.writes) {
    if (write.version === null) await restore.remove(write.path, signal);
    else await restore.commit(write.path, journal.nonce, signal);
  }
}
