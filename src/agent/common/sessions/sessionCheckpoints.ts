/**
 * The agent sessions' checkpoints: one store per session (so its writes run one
 * after another), the retention pass across sessions, and a restore from its plan
 * to the rewound conversation, including the one a crash interrupted.
 */
import type { Clock, Logger, WorkspaceFiles } from '../../../base/common';
import type { SessionStore } from '../../../sessionModel/common';
import {
  CheckpointRetention,
  retentionNotice,
  type RetentionReport,
  CheckpointStore,
  shortLabel,
  type Checkpoint,
  type Recovery,
  type RestorePlan,
  type RestoreResult,
  finishRecoveredRevert,
  migrateSavedOriginals,
  RestoreJournalRefused,
} from '../../../checkpoints/common';
import type { LocalMachine } from './localMachine';
import type { RunningSessions } from './runningSessions';
import { decidedRoot, rootForSavedSession, type SessionFolders, type SessionRoot } from '../../../sessionModel/common';
import { canContinue, type AgentSessionState } from '../../../sessionModel/common';

/** The most a session's checkpoints keep on disk; past it the oldest are dropped (and the user told). */
export const CHECKPOINT_MAX_BYTES = 64 * 1024 * 1024;

/** The saved sessions, as the checkpoints change them. */
export interface SavedSessions extends SessionStore<AgentSessionState> {
  /** Saves a whole snapshot (a rewound transcript was replaced, not grown). */
  replace(state: AgentSessionState): Promise<void>;
  remove(id: string, signal: AbortSignal): Promise<void>;
}

/** The folder's files as the editors show them, for a restore's plan. */
export interface EditorFiles {
  /** The files with unsaved editors layered on top. */
  files: WorkspaceFiles;
  /** Whether the file is open in an editor with changes not saved yet. */
  isUnsaved(path: string): boolean;
}

export interface SessionCheckpointsOptions {
  store: SavedSessions;
  runs: RunningSessions;
  machine: Pick<LocalMachine, 'files' | 'checkpointFolder' | 'checkpointShelf' | 'checkpointStorageBytes' | 'workspaceRestore'>;
  folders: SessionFolders;
  editorFiles: (root: SessionRoot) => EditorFiles;
  protectedFiles: () => readonly string[];
  logger: Logger;
  clock: Clock;
}

export class SessionCheckpoints {
  private readonly stores = new Map<string, CheckpointStore>();
  private retentionCache: CheckpointRetention | undefined;
  /** One retention pass at a time: runs that end together share the next one. */
  private retentionPass: Promise<RetentionReport | undefined> | undefined;

  constructor(private readonly options: SessionCheckpointsOptions) {}

  /** The session's checkpoints (one store per session, so its writes run one after another). */
  of(id: string): CheckpointStore {
    let store = this.stores.get(id);
    if (!store) {
      store = new CheckpointStore(this.options.machine.checkpointFolder(id), {
        maxBytes: CHECKPOINT_MAX_BYTES,
        now: () => Date.now(),
        nonce: () => Math.random().toString(36).slice(2, 10),
      });
      this.stores.set(id, store);
    }
    return store;
  }

  /** A retention pass: orphan folders removed, then the least recently used sessions' checkpoints past the bound; the log names what went. */
  keepInBudget(signal: AbortSignal): Promise<RetentionReport | undefined> {
    this.retentionPass ??= this.retentionPassNow(signal).finally(() => (this.retentionPass = undefined));
    return this.retentionPass;
  }

  /** A retention pass in the background (after a run); a failure is logged. */
  keepInBudgetSoon(): void {
    this.keepInBudget(new AbortController().signal).catch((error: unknown) =>
      this.options.logger.warn(`keeping agent checkpoints under their bound failed: ${String(error)}`),
    );
  }

  /** Deletes a saved session and its checkpoint folder (the caller holds the session's claim). */
  deleteSession(id: string, signal: AbortSignal): Promise<void> {
    return this.retention.deleteSession(id, (inner) => this.options.store.remove(id, inner), signal);
  }

  /** What restoring a checkpoint would do (the files the user changed since, the commands that ran after it); changes nothing. */
  async planRestore(id: string, checkpointId: number, signal: AbortSignal): Promise<RestorePlan> {
    if (this.options.runs.isRunning(id)) throw new Error('Stop the session before restoring a checkpoint.');
    const { root } = await this.savedWithRoot(id);
    // A restore a crash interrupted is finished first (it may rewind the session).
    await this.recover(id, root.path, signal);
    const { state } = await this.savedWithRoot(id);
    const editors = this.options.editorFiles(root);
    const workspace = { files: editors.files, protectedFiles: this.options.protectedFiles(), isUnsaved: (path: string) => editors.isUnsaved(path) };
    return this.of(id).planRestore(state, checkpointId, workspace, signal);
  }

  /**
   * Puts the files back as the plan says (the present recorded first, so it can be
   * undone) and rewinds the conversation: Continue goes on from the checkpoint's response.
   */
  restore(id: string, plan: RestorePlan, keepUserChanges: boolean): Promise<RestoreResult> {
    return this.options.runs.exclusively(id, 'Stop the session before restoring a checkpoint.', async (controller) => {
      const { state, root } = await this.savedWithRoot(id);
      const result = await this.of(id).restore(state, plan, keepUserChanges, this.options.machine.workspaceRestore(root.path), controller.signal);
      await this.rewindTo(state, plan.target, controller.signal);
      return result;
    });
  }

  /** At startup: a restore a crash interrupted is finished (or rolled back), where the session's folder is open. */
  async recoverRestore(listed: AgentSessionState): Promise<void> {
    if (listed.originals.length === 0) return;
    const decision = rootForSavedSession(listed.rootUri, this.options.folders.open(), 'restore a checkpoint', listed.worktree);
    const root = decision.ok ? rootOrNone(decision, this.options.folders) : undefined;
    if (root) await this.recover(listed.id, root.path, new AbortController().signal);
    // An older version kept the originals' text in the session: it moves to the checkpoint baseline.
    await migrateSavedOriginals(listed.id, this.options.store, this.of(listed.id), new AbortController().signal);
  }

  /** Finishes a restore a crash interrupted (its files, then its conversation). */
  private async recover(id: string, rootPath: string, signal: AbortSignal): Promise<void> {
    const workspace = { files: this.options.machine.files(rootPath), protectedFiles: this.options.protectedFiles() };
    const recovery = await this.of(id)
      .recover(this.options.machine.workspaceRestore(rootPath), signal, workspace)
      .catch((error: unknown): Recovery => {
        // A tampered journal: refused whole and removed; said in the log, and the session goes on.
        if (!(error instanceof RestoreJournalRefused)) throw error;
        this.options.logger.warn(`agent session ${id}: ${error.message}`);
        return { recovered: false };
      });
    const { recovered, rewindTo, reverted } = recovery;
    if (reverted) {
      this.options.logger.info(`agent session ${id}: an interrupted revert was finished`);
      return finishRecoveredRevert(id, reverted, { sessions: this.options.store, checkpoints: this.of(id) }, signal);
    }
    if (!recovered) return;
    this.options.logger.info(`agent session ${id}: an interrupted checkpoint restore was ${rewindTo ? 'finished' : 'rolled back'}`);
    const state = rewindTo && (await this.options.store.load(id));
    if (state) await this.rewindTo(state, rewindTo, signal);
  }

  private async rewindTo(state: AgentSessionState, target: Checkpoint, signal: AbortSignal): Promise<void> {
    Object.assign(state, await this.of(state.id).conversationAt(state, target, signal));
    state.status = canContinue(state) ? 'paused' : 'done';
    state.statusReason =
      target.kind === 'step'
        ? `Restored to ${shortLabel(target)}: Continue goes on from there.`
        : `Restore undone: the session is back where it was ${shortLabel(target)}.`;
    state.updatedAt = Date.now();
    // The transcript was replaced, not grown: a whole snapshot.
    await this.options.store.replace(state);
    await this.of(state.id).rewound(signal);
  }

  private async savedWithRoot(id: string): Promise<{ state: AgentSessionState; root: SessionRoot }> {
    const state = await this.options.store.load(id);
    if (!state) throw new Error(`There is no saved agent session ${id}.`);
    return {
      state,
      root: decidedRoot(rootForSavedSession(state.rootUri, this.options.folders.open(), 'restore a checkpoint', state.worktree), this.options.folders),
    };
  }

  private async retentionPassNow(signal: AbortSignal): Promise<RetentionReport> {
    const maxBytes = this.options.machine.checkpointStorageBytes();
    const sessions = (await this.options.store.list()).map((state) => ({ ...state, running: this.options.runs.isRunning(state.id) }));
    const report = await this.retention.enforce(sessions, maxBytes, signal);
    const notice = retentionNotice(report, maxBytes);
    if (notice) this.options.logger.info(notice);
    return report;
  }

  private get retention(): CheckpointRetention {
    const { runs, store } = this.options;
    this.retentionCache ??= new CheckpointRetention({
      shelf: this.options.machine.checkpointShelf,
      clock: this.options.clock,
      claim: (id) => {
        const controller = runs.claim(id);
        return controller && (() => runs.release(id, controller));
      },
      forget: (id) => this.stores.delete(id),
      sessionExists: async (id) => (await store.load(id)) !== undefined,
    });
    return this.retentionCache;
  }
}

/** The decided root, or none when the decision's worktree does not belong to its folder. */
function rootOrNone(decision: Parameters<typeof decidedRoot>[0], folders: SessionFolders): SessionRoot | undefined {
  try {
    return decidedRoot(decision, folders);
  } catch {
    return undefined;
  }
}
