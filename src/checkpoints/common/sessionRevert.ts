/**
 * "Revert session changes": every file the session changed put back as it was
 * before the session first changed it, and the session told so. A restore to
 * the session's checkpoint baseline, through the restore's staging and journal
 * (checkpoints.ts): a crash in the middle leaves every file as it was before
 * the revert or every file reverted, never a mix. Apart from the VS Code adapter
 * so that it runs (and is tested) on real files without VS Code.
 */
import type { WorkspaceFiles } from '../../base/common';
import type { WorkspaceRestore } from './checkpointPorts';
import type { AgentSessionState } from '../../sessionModel/common';
import type { CheckpointStore } from './checkpoints';
import { checkOriginals } from './originals';

export interface SessionRevert {
  state: AgentSessionState;
  checkpoints: CheckpointStore;
  /** The session's folder as the tools see it, for the path checks. */
  workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] };
  restore: WorkspaceRestore;
  /** Saves the session once its files are back. */
  save: (state: AgentSessionState) => Promise<void>;
}

/** Reverts the session's changes; the paths put back, in the order the session first changed them. */
export async function revertSession(revert: SessionRevert, signal: AbortSignal): Promise<string[]> {
  const { state, checkpoints } = revert;
  await checkOriginals(state.originals, revert.workspace, signal);
  await migrateOriginals(state, checkpoints, signal);
  // An older saved session may list a file twice: its first record is the one from before the session.
  const files = state.originals.filter((original, at, all) => all.findIndex((other) => other.path === original.path) === at);
  await checkpoints.revertToBaseline(files, revert.restore, signal);
  return finishRevert(
    revert,
    files.map((file) => file.path),
    signal,
  );
}

/** The session's side of a revert whose files are back (also after a crash, from recovery): nothing left to revert, the user told which. */
export async function finishRevert(revert: Pick<SessionRevert, 'state' | 'checkpoints' | 'save'>, reverted: string[], signal: AbortSignal): Promise<string[]> {
  const { state } = revert;
  state.originals = [];
  state.statusReason = `Reverted: ${reverted.join(', ') || 'nothing to revert'}.`;
  await revert.save(state);
  await revert.checkpoints.revertDone(signal);
  return reverted;
}

/**
 * A session saved by an older version kept its originals' full text: it goes into the
 * checkpoint baseline and out of the session (the caller saves it). True when there was any.
 */
export async function migrateOriginals(state: AgentSessionState, checkpoints: CheckpointStore, signal: AbortSignal): Promise<boolean> {
  if (!state.originals.some((original) => original.before !== undefined)) return false;
  await checkpoints.adoptOriginals(state.originals, signal);
  state.originals = state.originals.map(({ path, existed }) => ({ path, existed }));
  return true;
}

/** The saved sessions, as migration and recovery need them. */
export interface SavedSessions {
  load(id: string): Promise<AgentSessionState | undefined>;
  /** A whole snapshot: the originals were rewritten, not grown. */
  replace(state: AgentSessionState): Promise<void>;
}

/** On load (at startup): an older saved session's originals go into its baseline and it is saved without their text. */
export async function migrateSavedOriginals(id: string, sessions: SavedSessions, checkpoints: CheckpointStore, signal: AbortSignal): Promise<boolean> {
  const state = await sessions.load(id);
  if (!state || !(await migrateOriginals(state, checkpoints, signal))) return false;
  await sessions.replace(state);
  return true;
}

/** Recovery finished the files of a revert a crash interrupted: the session notes it as the revert would have. */
export async function finishRecoveredRevert(
  id: string,
  reverted: string[],
  context: { sessions: SavedSessions; checkpoints: CheckpointStore },
  signal: AbortSignal,
): Promise<void> {
  const state = await context.sessions.load(id);
  if (state) await finishRevert({ state, checkpoints: context.checkpoints, save: (saved) => context.sessions.replace(saved) }, reverted, signal);
}
