/**
 * "Revert session changes": every file the session changed put back as it was
 * before the session first changed it, and the session told so. Apart from the
 * VS Code adapter so that it runs (and is tested) on real files without VS Code.
 */
import type { FileChanges, Logger, WorkspaceFiles, WorkspaceRestore } from '../../base/common/ports';
import type { AgentSessionState } from '../../agent/common/sessionState';
import type { CheckpointStore } from './checkpoints';
import { revertOriginals } from './originals';

export interface SessionRevert {
  state: AgentSessionState;
  checkpoints: CheckpointStore;
  /** The session's folder as the tools see it, for the path checks. */
  workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] };
  changes: FileChanges;
  restore: WorkspaceRestore;
  /** Saves the session once its files are back. */
  save: (state: AgentSessionState) => Promise<void>;
  logger: Logger;
}

/** Reverts the session's changes; the paths put back, in the order the session first changed them. */
export async function revertSession(revert: SessionRevert, signal: AbortSignal): Promise<string[]> {
  const { state, checkpoints, logger } = revert;
  const reverted = await revertOriginals(state.originals, revert.changes, signal, revert.workspace);
  await checkpoints
    .reverted(signal)
    .catch((error: unknown) => logger.warn(`agent session ${state.id}: the checkpoints could not note the revert: ${String(error)}`));
  state.originals = [];
  state.statusReason = `Reverted: ${reverted.join(', ') || 'nothing to revert'}.`;
  await revert.save(state);
  return reverted;
}
