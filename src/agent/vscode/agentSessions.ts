/**
 * Starts, continues, stops and reverts agent sessions, and keeps them saved.
 * Whoever shows a session (a chat turn, or the palette's output) passes an
 * event sink and, optionally, an approval presenter.
 */
import * as vscode from 'vscode';
import { AgentEngine, type AgentEvent } from '../common/engine';
import { AGENT_INSTRUCTIONS } from '../common/instructions';
import { finishRecoveredRevert, migrateSavedOriginals, revertSession } from '../../checkpoints/common/sessionRevert';
import { INTERRUPTED_REASON, RunningSessions } from '../common/runningSessions';
import { addUserMessage, canContinue, newSession, type AgentSessionState } from '../common/sessionState';
import { CheckpointRetention, retentionNotice, type CheckpointShelf, type RetentionReport } from '../../checkpoints/common/checkpointRetention';
import { CheckpointStore, shortLabel, type Checkpoint, type Recovery, type RestorePlan, type RestoreResult } from '../../checkpoints/common/checkpoints';
import { RestoreJournalRefused } from '../../checkpoints/common/journalPaths';
import type { GatewayClient, ModelWindows } from '../../gateway/common';
import type {
  CheckpointFolder,
  CommandResult,
  ControlFileGuard,
  ControlPathWatcher,
  FileChanges,
  Logger,
  QuarantinedControlPaths,
  WorkspaceFiles,
  WorkspaceRestore,
  WorkspaceSearch,
} from '../../base/common/ports';
import { systemClock } from '../../base/common/ports';
import { toolsFor } from '../../tools/common/registry';
import { modelForContinuedSession } from '../../models/common/modelErrorActions';
import { readSettings } from '../../settings/vscode/settings';
import type { ApprovalBroker, ApprovalPresenter } from './approvalBroker';
import { rootForNewSession, rootForSavedSession, type OpenFolder, type RootDecision } from '../common/sessionRoot';
import type { FileSessionStore } from './sessionStore';
import { TerminalCommandRunner, type CommandSandbox } from '../../terminal/vscode/terminalCommandRunner';
import { hostToolsFor } from '../../tools/vscode/languageModelTools';
import { VsCodeFileChanges } from '../../tools/vscode/vscodeFileChanges';
import { VsCodeWorkspaceFiles } from '../../tools/vscode/vscodeWorkspaceFiles';
import { VsCodeLanguageServices } from '../../tools/vscode/vscodeLanguageServices';
import { vscodeControlWatcher } from '../../terminal/vscode/vscodeControlWatcher';
import { showControlRollback } from '../../terminal/vscode/controlRollbackNotice';

export interface SessionSink {
  /** `root` is the session's workspace folder: the event's paths are relative to it. */
  onEvent(event: AgentEvent, root: vscode.Uri): void;
  presenter?: ApprovalPresenter;
}

/**
 * What a session needs from the machine its files are on. This is a workspace
 * extension, so they are local: the composition root passes the Node implementations.
 */
export interface LocalMachine {
  /** The folder's files on disk (unsaved editors are layered on top here). */
  files(rootPath: string): WorkspaceFiles;
  /** VS Code's own ripgrep over the folder, for list_files and search_text; undefined where none was found (the tools walk the files). */
  search(rootPath: string): WorkspaceSearch | undefined;
  /** Runs a command as a child process in `cwd` (relative to the root); streams its output to `onOutput`; in `sandbox` when given. */
  runChildProcess(
    rootPath: string,
    command: string,
    cwd: string,
    timeoutMs: number,
    signal: AbortSignal,
    onOutput: (text: string) => void,
    sandbox?: CommandSandbox,
  ): Promise<CommandResult>;
  /**
   * The folder's writes and removals on disk, each through a handle checked after it
   * was opened (inside the root, not protected, not a hard link, where the check said).
   */
  fileChanges(rootPath: string): FileChanges;
  /** A session's checkpoint folder, in the extension's storage (never in the workspace). */
  checkpointFolder(sessionId: string): CheckpointFolder;
  /** The folder of every session's checkpoint folder, for deleting and retention across sessions. */
  checkpointShelf: CheckpointShelf;
  /** The total bound of every session's checkpoints in this workspace, in bytes (the user's setting). */
  checkpointStorageBytes(): number;
  /** A checkpoint restore's two-phase writes into the folder at `rootPath`. */
  workspaceRestore(rootPath: string): WorkspaceRestore;
  /** Terminal output without colours and shell-integration sequences. */
  plainTerminalText(output: string): string;
  /**
   * Issue 21: the guard that moves out the control files (a new .git, .vscode …) a
   * sandboxed command of session `sessionId` leaves in `rootPath` (src/terminal/node/controlGuard.ts).
   */
  controlGuard?(rootPath: string, sessionId: string, hooks: ControlGuardHooks): ControlFileGuard;
  /** The `auto` mode's sandbox on this machine. */
  sandbox: {
    /** Whether it works here, and why not (probed once). */
    available(): Promise<{ ok: true } | { ok: false; reason: string }>;
    /** One agent session's sandbox: its commands share a private /tmp, which `dispose` removes. */
    forSession(sessionId: string): SandboxSession;
  };
}

/** What the control-file guard needs from VS Code: its file watcher, whether a command goes into the sandbox, and the user. */
export interface ControlGuardHooks {
  watcher: ControlPathWatcher;
  willSandbox: () => boolean;
  onRollback: (quarantined: QuarantinedControlPaths) => void;
}

/** What starts a session's commands in the sandbox. */
export interface SandboxSession {
  /** The launch of `command` for the workspace `root`, starting in the absolute `cwd`. */
  launch(
    request: { root: string; cwd: string; command: string; protectedFiles: readonly string[]; network: boolean },
    signal: AbortSignal,
  ): Promise<CommandSandbox>;
  dispose(): Promise<void>;
}

/** What sessions need to know of context windows and the key's token budget. */
export interface ContextLimits {
  windows: ModelWindows;
  /** The key's tokens per minute as the client knows it now. */
  tokensPerMinute: () => number | undefined;
  /** Asked before each agent request: undefined lets it go, a text stops the session with it (the daily budget). */
  spendGate?: (signal: AbortSignal) => Promise<string | undefined>;
}

/** The most a session's checkpoints keep on disk; past it the oldest are dropped (and the user told). */
export const CHECKPOINT_MAX_BYTES = 64 * 1024 * 1024;

export class AgentSessions implements vscode.Disposable {
  private readonly checkpointStores = new Map<string, CheckpointStore>();
  private readonly runs = new RunningSessions();
  private readonly terminals = new Map<string, TerminalCommandRunner>();
  /** Per running session, its sandbox (and private /tmp), made at its first sandboxed command and removed when the run ends. */
  private readonly sandboxSessions = new Map<string, SandboxSession>();
  /** Whether commands run unasked in `auto` are sandboxed; known once the probe has answered. */
  private sandboxed = false;
  private warnedNoSandbox = false;
  /** Per session, the approval mode of the last decision whether to ask. */
  private readonly decidedModes = new Map<string, string>();
  private retentionCache: CheckpointRetention | undefined;
  /** One retention pass at a time: runs that end together share the next one. */
  private retentionPass: Promise<RetentionReport | undefined> | undefined;

  constructor(
    private readonly client: GatewayClient,
    readonly store: FileSessionStore,
    readonly approvals: ApprovalBroker,
    private readonly resolveAgentModel: (signal: AbortSignal) => Promise<string>,
    readonly logger: Logger,
    private readonly machine: LocalMachine,
    private readonly context?: ContextLimits,
    /** Where the tools the user enabled for the agent are remembered (the workspace's state). */
    private readonly workspaceState?: vscode.Memento,
  ) {}

  /** Sessions left running or waiting by a window that closed are paused: nothing runs without the user. */
  async recoverInterrupted(): Promise<void> {
    for (const listed of await this.store.list()) {
      await this.recoverRestore(listed).catch((error: unknown) =>
        this.logger.warn(`agent session ${listed.id}: recovering a checkpoint restore failed: ${String(error)}`),
      );
      if (listed.status !== 'running' && listed.status !== 'awaiting_approval') continue;
      // Each session on its own: one that cannot be saved must not leave the others running forever.
      try {
        await this.pauseInterrupted(listed.id);
      } catch (error) {
        this.logger.warn(`agent session ${listed.id} could not be paused after an interruption: ${String(error)}`);
      }
    }
  }

  /** A restore a crash interrupted is finished (or rolled back) at startup. */
  private async recoverRestore(listed: AgentSessionState): Promise<void> {
    if (listed.originals.length === 0) return;
    const root = rootForSavedSession(listed.rootUri, openFolders(), 'restore a checkpoint');
    if (root.ok) await this.recoverCheckpoints(listed.id, vscode.Uri.parse(root.uri), new AbortController().signal);
    // An older version kept the originals' text in the session: it moves to the checkpoint baseline.
    await migrateSavedOriginals(listed.id, this.store, this.checkpoints(listed.id), new AbortController().signal);
  }

  private async pauseInterrupted(id: string): Promise<void> {
    // Loaded afresh: list() results are shared with the store's cache and must not be changed.
    const state = await this.store.load(id);
    if (!state || (state.status !== 'running' && state.status !== 'awaiting_approval')) return;
    state.status = 'paused';
    state.statusReason = INTERRUPTED_REASON;
    await this.store.save(state);
  }

  /** `referencedTools`: VS Code tools the chat request names (`#tool`), offered for this run besides the enabled ones. */
  async start(task: string, sink: SessionSink, signal?: AbortSignal, referencedTools: readonly string[] = []): Promise<AgentSessionState> {
    const root = rootUri(rootForNewSession(openFolders()));
    const model = await this.resolveAgentModel(signal ?? new AbortController().signal);
    const state = newSession({ id: newSessionId(), title: task.trim().slice(0, 200), model, now: Date.now(), rootUri: root.toString() });
    addUserMessage(state, task);
    return this.exclusively(state.id, 'This session is already running.', async (controller) => {
      await this.store.save(state);
      this.logger.info(`agent session ${state.id} started in ${root.fsPath} with ${model}`);
      return this.run(state, root, sink, controller, signal, referencedTools);
    }).finally(() => this.keepCheckpointsInBudgetSoon());
  }

  /** Continues a saved session, optionally with a message that steers it. */
  continue(
    id: string,
    message: string | undefined,
    sink: SessionSink,
    signal?: AbortSignal,
    referencedTools: readonly string[] = [],
  ): Promise<AgentSessionState> {
    return this.exclusively(id, 'This session is already running. Stop it first, or wait for it.', async (controller) => {
      const state = await this.store.load(id);
      if (!state) throw new Error(`There is no saved agent session ${id}.`);
      const root = rootUri(rootForSavedSession(state.rootUri, openFolders(), 'continue it'));
      if (message?.trim()) addUserMessage(state, message.trim());
      if (!canContinue(state)) throw new Error('This session is finished. Send a message to give it more to do.');
      const model = modelForContinuedSession(state.model, readSettings().agentModel);
      if (model !== state.model) {
        this.logger.info(`agent session ${state.id} continues with ${model} (was ${state.model})`);
        state.model = model;
      }
      return this.run(state, root, sink, controller, signal, referencedTools);
    }).finally(() => this.keepCheckpointsInBudgetSoon());
  }

  /** Compacts a session that is not running now: a summary replaces the chain the gateway bills; the transcript stays whole. */
  compact(id: string, sink: SessionSink, signal?: AbortSignal): Promise<AgentSessionState> {
    return this.exclusively(id, 'This session is running; it compacts by itself when it needs to. Stop it first to compact now.', async (controller) => {
      const state = await this.store.load(id);
      if (!state) throw new Error(`There is no saved agent session ${id}.`);
      const root = rootUri(rootForSavedSession(state.rootUri, openFolders(), 'compact it'));
      const onOuterAbort = () => controller.abort();
      signal?.addEventListener('abort', onOuterAbort, { once: true });
      try {
        return await this.engineFor(state, root, []).compact(state, controller.signal, (event) => sink.onEvent(event, root));
      } finally {
        signal?.removeEventListener('abort', onOuterAbort);
      }
    });
  }

  stop(id: string): boolean {
    return this.runs.stop(id);
  }

  isRunning(id: string): boolean {
    return this.runs.isRunning(id);
  }

  /** Restores every file the session changed to what it was before the session first touched it. */
  revert(id: string): Promise<string[]> {
    // Claimed like a run, so the session cannot start while its files are being put back.
    return this.exclusively(id, 'Stop the session before reverting its changes.', async (controller) => {
      const state = await this.store.load(id);
      if (!state) throw new Error(`There is no saved agent session ${id}.`);
      const root = rootUri(rootForSavedSession(state.rootUri, openFolders(), 'revert its changes'));
      const workspace = { files: this.machine.files(root.fsPath), protectedFiles: readSettings().agent.protectedFiles };
      const revert = { state, checkpoints: this.checkpoints(id), workspace, restore: this.machine.workspaceRestore(root.fsPath) };
      return revertSession({ ...revert, save: (saved) => this.store.replace(saved) }, controller.signal);
    });
  }

  /**
   * Runs `work` holding the session's claim. The claim is taken synchronously,
   * before any await, so a second call for the same session fails with `busy`
   * instead of racing the first; it is released only if it is still this call's.
   */
  private async exclusively<T>(id: string, busy: string, work: (controller: AbortController) => Promise<T>): Promise<T> {
    const controller = this.runs.claim(id);
    if (!controller) throw new Error(busy);
    try {
      return await work(controller);
    } finally {
      this.runs.release(id, controller);
    }
  }

  private async run(
    state: AgentSessionState,
    root: vscode.Uri,
    sink: SessionSink,
    controller: AbortController,
    outer?: AbortSignal,
    referencedTools: readonly string[] = [],
  ): Promise<AgentSessionState> {
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const presentation = sink.presenter ? this.approvals.present(state.id, sink.presenter) : undefined;
    try {
      await this.checkSandbox();
      return await this.engineFor(state, root, referencedTools).run(state, controller.signal, (event) => sink.onEvent(event, root));
    } finally {
      presentation?.dispose();
      outer?.removeEventListener('abort', onOuterAbort);
      this.endSandboxSession(state.id);
    }
  }

  private endSandboxSession(id: string): void {
    const session = this.sandboxSessions.get(id);
    this.sandboxSessions.delete(id);
    session?.dispose().catch((error: unknown) => this.logger.warn(`agent session ${id}: removing its sandbox's /tmp failed: ${String(error)}`));
  }

  private engineFor(state: AgentSessionState, root: vscode.Uri, referencedTools: readonly string[]): AgentEngine {
    const settings = readSettings().agent;
    const disk = this.machine.files(root.fsPath);
    const builtIns = toolsFor(vscode.workspace.isTrusted);
    // Chosen once per run: the definitions must not change between the requests of a run.
    const hostTools = this.workspaceState
      ? hostToolsFor(this.workspaceState, referencedTools, builtIns, () => readSettings().agent.allowedTools, systemClock, this.logger)
      : [];
    return new AgentEngine({
      client: this.client,
      store: this.store,
      approver: this.approvals.forSession(root),
      tools: () => (vscode.workspace.isTrusted ? [...builtIns, ...hostTools] : toolsFor(false)),
      toolContext: {
        files: new VsCodeWorkspaceFiles(disk, root),
        changes: this.fileChanges(root),
        commands: this.terminalFor(state, root.fsPath),
        protectedFiles: settings.protectedFiles,
        logger: this.logger,
        search: this.machine.search(root.fsPath),
        controlGuard: this.controlGuardFor(state.id, root.fsPath),
        languages: new VsCodeLanguageServices(root),
      },
      policy: () => {
        const agent = readSettings().agent;
        // Remembered for the command about to run: a switch out of auto between this decision and the
        // run must not let a command that was not asked about run outside the sandbox.
        this.decidedModes.set(state.id, agent.approval);
        return { mode: agent.approval, deniedCommands: agent.deniedCommands, protectedFiles: agent.protectedFiles, commandsSandboxed: this.sandboxed };
      },
      budgets: () => readSettings().agent.budgets,
      instructions: AGENT_INSTRUCTIONS,
      projectInstructions: settings.projectInstructions,
      clock: systemClock,
      logger: this.logger,
      ...(this.context
        ? {
            modelLimits: (model: string) => this.context!.windows.limitsOf(model),
            learnContextWindow: (model: string, window: number) => this.context!.windows.learn(model, window),
            tokensPerMinute: this.context.tokensPerMinute,
            spendGate: this.context.spendGate && ((_state: AgentSessionState, signal: AbortSignal) => this.context!.spendGate!(signal)),
          }
        : {}),
      maxRequestTpmSeconds: () => readSettings().agent.maxRequestTpmSeconds,
      checkpoint: async (current, changed, signal) => {
        const { checkpoint, dropped } = await this.checkpoints(current.id).capture(current, changed, new VsCodeWorkspaceFiles(disk, root), signal);
        for (const gone of dropped)
          this.logger.info(`agent session ${current.id}: checkpoint "${gone.label}" dropped to stay under ${CHECKPOINT_MAX_BYTES} bytes`);
        return { checkpoint: { id: checkpoint.id, label: checkpoint.label }, dropped: dropped.map((gone) => gone.label) };
      },
      keepOriginal: (path, before, signal) => this.checkpoints(state.id).keepOriginal(path, before, signal),
    });
  }

  /**
   * Deletes a saved session and its checkpoint folder; the files it changed stay
   * as they are. Refused while the session runs (the user stops it first).
   */
  deleteSession(id: string, signal: AbortSignal): Promise<void> {
    return this.exclusively(id, 'This session is running. Stop it first, then delete it.', async () => {
      await this.retention.deleteSession(id, (inner) => this.store.remove(id, inner), signal);
      this.decidedModes.delete(id);
      this.logger.info(`agent session ${id} deleted with its checkpoints`);
    });
  }

  /** A retention pass: orphan folders removed, then the least recently used sessions' checkpoints past the bound; the log names what went. */
  keepCheckpointsInBudget(signal: AbortSignal): Promise<RetentionReport | undefined> {
    this.retentionPass ??= this.retentionPassNow(signal).finally(() => (this.retentionPass = undefined));
    return this.retentionPass;
  }

  private keepCheckpointsInBudgetSoon(): void {
    this.keepCheckpointsInBudget(new AbortController().signal).catch((error: unknown) =>
      this.logger.warn(`keeping agent checkpoints under their bound failed: ${String(error)}`),
    );
  }

  private async retentionPassNow(signal: AbortSignal): Promise<RetentionReport> {
    const maxBytes = this.machine.checkpointStorageBytes();
    const sessions = (await this.store.list()).map((state) => ({ ...state, running: this.isRunning(state.id) }));
    const report = await this.retention.enforce(sessions, maxBytes, signal);
    const notice = retentionNotice(report, maxBytes);
    if (notice) this.logger.info(notice);
    return report;
  }

  private get retention(): CheckpointRetention {
    this.retentionCache ??= new CheckpointRetention({
      shelf: this.machine.checkpointShelf,
      clock: systemClock,
      claim: (id) => {
        const controller = this.runs.claim(id);
        return controller && (() => this.runs.release(id, controller));
      },
      forget: (id) => this.checkpointStores.delete(id),
      sessionExists: async (id) => (await this.store.load(id)) !== undefined,
    });
    return this.retentionCache;
  }

  /** The session's checkpoints (one store per session, so its writes run one after another). */
  checkpoints(id: string): CheckpointStore {
    let store = this.checkpointStores.get(id);
    if (!store) {
      store = new CheckpointStore(this.machine.checkpointFolder(id), {
        maxBytes: CHECKPOINT_MAX_BYTES,
        now: () => Date.now(),
        nonce: () => Math.random().toString(36).slice(2, 10),
      });
      this.checkpointStores.set(id, store);
    }
    return store;
  }

  /** What restoring a checkpoint would do (the files the user changed since, the commands that ran after it); changes nothing. */
  async planRestore(id: string, checkpointId: number, signal: AbortSignal): Promise<RestorePlan> {
    if (this.isRunning(id)) throw new Error('Stop the session before restoring a checkpoint.');
    const { root } = await this.savedWithRoot(id, 'restore a checkpoint');
    // A restore a crash interrupted is finished first (it may rewind the session).
    await this.recoverCheckpoints(id, root, signal);
    const { state } = await this.savedWithRoot(id, 'restore a checkpoint');
    const workspace = {
      files: new VsCodeWorkspaceFiles(this.machine.files(root.fsPath), root),
      protectedFiles: readSettings().agent.protectedFiles,
      isUnsaved: (path: string) => isUnsaved(root, path),
    };
    return this.checkpoints(id).planRestore(state, checkpointId, workspace, signal);
  }

  /**
   * Puts the files back as the plan says (the present recorded first, so it can be
   * undone) and rewinds the conversation: Continue goes on from the checkpoint's response.
   */
  restore(id: string, plan: RestorePlan, keepUserChanges: boolean): Promise<RestoreResult> {
    return this.exclusively(id, 'Stop the session before restoring a checkpoint.', async (controller) => {
      const { state, root } = await this.savedWithRoot(id, 'restore a checkpoint');
      const result = await this.checkpoints(id).restore(state, plan, keepUserChanges, this.machine.workspaceRestore(root.fsPath), controller.signal);
      await this.rewindTo(state, plan.target, controller.signal);
      return result;
    });
  }

  /** Finishes a restore a crash interrupted (its files, then its conversation). */
  private async recoverCheckpoints(id: string, root: vscode.Uri, signal: AbortSignal): Promise<void> {
    const workspace = { files: this.machine.files(root.fsPath), protectedFiles: readSettings().agent.protectedFiles };
    const recovery = await this.checkpoints(id)
      .recover(this.machine.workspaceRestore(root.fsPath), signal, workspace)
      .catch((error: unknown): Recovery => {
        // A tampered journal: refused whole and removed; said in the log, and the session goes on.
        if (!(error instanceof RestoreJournalRefused)) throw error;
        this.logger.warn(`agent session ${id}: ${error.message}`);
        return { recovered: false };
      });
    const { recovered, rewindTo, reverted } = recovery;
    if (reverted) {
      this.logger.info(`agent session ${id}: an interrupted revert was finished`);
      return finishRecoveredRevert(id, reverted, { sessions: this.store, checkpoints: this.checkpoints(id) }, signal);
    }
    if (!recovered) return;
    this.logger.info(`agent session ${id}: an interrupted checkpoint restore was ${rewindTo ? 'finished' : 'rolled back'}`);
    const state = rewindTo && (await this.store.load(id));
    if (state) await this.rewindTo(state, rewindTo, signal);
  }

  private async rewindTo(state: AgentSessionState, target: Checkpoint, signal: AbortSignal): Promise<void> {
    Object.assign(state, await this.checkpoints(state.id).conversationAt(state, target, signal));
    state.status = canContinue(state) ? 'paused' : 'done';
    state.statusReason =
      target.kind === 'step'
        ? `Restored to ${shortLabel(target)}: Continue goes on from there.`
        : `Restore undone: the session is back where it was ${shortLabel(target)}.`;
    state.updatedAt = Date.now();
    // The transcript was replaced, not grown: a whole snapshot.
    await this.store.replace(state);
    await this.checkpoints(state.id).rewound(signal);
  }

  private async savedWithRoot(id: string, what: string): Promise<{ state: AgentSessionState; root: vscode.Uri }> {
    const state = await this.store.load(id);
    if (!state) throw new Error(`There is no saved agent session ${id}.`);
    return { state, root: rootUri(rootForSavedSession(state.rootUri, openFolders(), what)) };
  }

  private fileChanges(root: vscode.Uri): VsCodeFileChanges {
    return new VsCodeFileChanges(root, this.machine.fileChanges(root.fsPath));
  }

  /**
   * Probes the sandbox (once) and, when `auto` cannot use it, says so once per
   * window: the user chose `auto` expecting commands to run unasked, and they will ask.
   */
  private async checkSandbox(): Promise<void> {
    const availability = await this.machine.sandbox.available();
    this.sandboxed = availability.ok;
    if (availability.ok || this.warnedNoSandbox || readSettings().agent.approval !== 'auto') return;
    this.warnedNoSandbox = true;
    const message = `Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (${availability.reason}).`;
    this.logger.warn(message);
    void vscode.window.showWarningMessage(message);
  }

  /** Whether a command of this session goes into the sandbox: in `auto` (now, or when it was decided not to ask), where commands run unasked. */
  private commandsSandboxed(sessionId: string): boolean {
    return this.sandboxed && (readSettings().agent.approval === 'auto' || this.decidedModes.get(sessionId) === 'auto');
  }

  /** The sandbox for a command about to run, when it goes into one (commandsSandboxed). */
  private async sandboxFor(sessionId: string, root: string, command: string, cwd: string, signal: AbortSignal): Promise<CommandSandbox | undefined> {
    if (!this.commandsSandboxed(sessionId)) return undefined;
    const settings = readSettings().agent;
    let session = this.sandboxSessions.get(sessionId);
    if (!session) {
      session = this.machine.sandbox.forSession(sessionId);
      this.sandboxSessions.set(sessionId, session);
    }
    return session.launch({ root, cwd, command, protectedFiles: settings.protectedFiles, network: settings.sandboxNetwork }, signal);
  }

  /**
   * Issue 21: control files a sandboxed command leaves are moved out and the user told. Guarded are exactly
   * the commands sandboxFor sends into the sandbox: what the user approved outside it is theirs.
   */
  private controlGuardFor(sessionId: string, root: string): ControlFileGuard | undefined {
    return this.machine.controlGuard?.(root, sessionId, {
      watcher: vscodeControlWatcher,
      willSandbox: () => this.commandsSandboxed(sessionId),
      onRollback: (quarantined) => showControlRollback(quarantined, this.logger),
    });
  }

  private terminalFor(state: AgentSessionState, root: string): TerminalCommandRunner {
    let runner = this.terminals.get(state.id);
    if (!runner) {
      runner = new TerminalCommandRunner(
        `Gateway Agent: ${state.title.slice(0, 40)}`,
        root,
        (command, cwd, timeoutMs, signal, onOutput, sandbox) =>
          this.machine.runChildProcess(root, command, relativeTo(root, cwd), timeoutMs, signal, onOutput, sandbox),
        (command, cwd, signal) => this.sandboxFor(state.id, root, command, cwd, signal),
        systemClock,
        (output) => this.machine.plainTerminalText(output),
      );
      this.terminals.set(state.id, runner);
    }
    return runner;
  }

  dispose(): void {
    // The window is closing or reloading: the sessions pause as interrupted, not as stopped by the user.
    this.runs.stopAll(INTERRUPTED_REASON);
    for (const terminal of this.terminals.values()) terminal.dispose();
    for (const id of [...this.sandboxSessions.keys()]) this.endSandboxSession(id);
  }
}

/** The open workspace folders, as the vscode-free root decisions take them. */
export function openFolders(): OpenFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
}

/** Whether the file is open in an editor with changes not saved yet. */
function isUnsaved(root: vscode.Uri, path: string): boolean {
  const uri = vscode.Uri.joinPath(root, path).toString();
  return vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.toString() === uri);
}

/** The decided folder, or the decision's message as an error (a session without its folder must not run). */
function rootUri(decision: RootDecision): vscode.Uri {
  if (!decision.ok) throw new Error(decision.message);
  return vscode.Uri.parse(decision.uri);
}

function newSessionId(): string {
  return `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

function relativeTo(root: string, absolute: string): string {
  return absolute === root ? '.' : absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : '.';
}
