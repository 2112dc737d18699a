/**
 * The VS Code side of the agent sessions: composes the vscode-free services
 * (SessionRuns: the runs; SessionCheckpoints: checkpoints and retention;
 * SandboxDecision: where a command runs) and gives them what only VS Code has
 * (the open folders and their URIs, the editors, workspace trust, terminals and
 * notifications) through small ports. Whoever shows a session (a chat turn, or the
 * palette's output) passes an event sink and, optionally, an approval presenter.
 * Where a new session works is `places` (sessionPlaces.ts); what it may run as, `customAgents` (customAgentFiles.ts).
 */
import * as vscode from 'vscode';
import type { AgentEvent } from '../../sessionModel/common';
import { revertSession, type RetentionReport, type CheckpointStore, type RestorePlan, type RestoreResult } from '../../checkpoints/common';
import { RunningSessions, INTERRUPTED_REASON, type InterruptedSession } from '../common/sessions/runningSessions';
import type { AgentSessionState } from '../../sessionModel/common';
import type { GatewayClient, WatchedSessions } from '../../gateway/common';
import { systemClock, type Logger } from '../../base/common';
import type { AgentSettings } from '../../settings/common';
import type { ApprovalBroker, ApprovalPresenter } from './approvalBroker';
import type { FileSessionStore } from './sessionStore';
import type { LocalMachine } from '../common/sessions/localMachine';
import type { GitWorktrees } from '../common/sessions/worktreePorts';
import { SessionCheckpoints } from '../common/sessions/sessionCheckpoints';
import { SessionRuns, type AgentTelemetry, type RunSink } from '../common/sessions/sessionRuns';
import { SandboxDecision } from '../../terminal/common';
import { editorFiles, localFolderPaths, windowFolders } from './windowFolders';
import { SessionPlaces, type SessionPlace } from './sessionPlaces';
import { CustomAgentFiles } from './customAgentFiles';
import { vscodeControlWatcher, showControlRollback } from '../../terminal/vscode';
import { SessionEngines, type ContextLimits } from './sessionEngine';
import { agentExtras } from '../common/sessions/agentExtrasLoader';
import { type SessionAgent } from '../../sessionModel/common';

export type { ChildProcessRequest, ControlGuardHooks, LocalMachine } from '../common/sessions/localMachine';

export { CHECKPOINT_MAX_BYTES } from '../common/sessions/sessionCheckpoints';
export type { ContextLimits } from './sessionEngine';

export interface SessionSink {
  /** `root` is the session's workspace folder: the event's paths are relative to it. */
  onEvent(event: AgentEvent, root: vscode.Uri): void;
  presenter?: ApprovalPresenter;
  /** The chat request's token when a chat request shows the run: VS Code then asks for its tools in that chat. */
  toolInvocationToken?: vscode.ChatParticipantToolToken;
  /** The user watches the run as it goes (a chat turn): its requests go before other sessions' while it runs. */
  watched?: boolean;
}

/** The settings the sessions read, at the moment they need them. */
export interface SessionSettings {
  agent: AgentSettings;
  agentModel: string;
}

export interface AgentSessionsOptions {
  client: GatewayClient;
  store: FileSessionStore;
  approvals: ApprovalBroker;
  /** The model a new session starts with. */
  resolveAgentModel: (signal: AbortSignal) => Promise<string>;
  logger: Logger;
  machine: LocalMachine;
  context?: ContextLimits;
  /** Where the tools the user enabled for the agent are remembered (the workspace's state). */
  workspaceState?: vscode.Memento;
  /** Where the hooks the user approved are remembered, by content (global: a repository's hook approved once is approved in every window). */
  globalState?: vscode.Memento;
  /** The settings now (the settings service's current values). */
  settings: () => SessionSettings;
  /** The ids of the models the key may use (a custom agent's model is used only when it is one). */
  availableModels?: (signal: AbortSignal) => Promise<readonly string[]>;
  /** VS Code's profile folder on this machine (`…/User`): its `prompts` are the user's own prompt files. */
  profileFolder?: string;
  /** Told which sessions the user watches (a run a chat turn shows), for the order requests share the key in. */
  watchedSessions?: WatchedSessions;
  /** The team's collector's counts of tool calls and sessions (off unless the user turned export on). */
  telemetry?: AgentTelemetry;
}

export class AgentSessions implements vscode.Disposable {
  readonly store: FileSessionStore;
  readonly approvals: ApprovalBroker;
  readonly logger: Logger;
  private readonly runs = new RunningSessions();
  private readonly sandbox: SandboxDecision;
  private readonly checkpointService: SessionCheckpoints;
  private readonly engines: SessionEngines;
  private readonly sessionRuns: SessionRuns;
  /** Where a new session works: the folder or a worktree of its own (the setting, or the user's choice). */
  readonly places: SessionPlaces;
  /** The custom agents and prompt files a new session may run as. */
  readonly customAgents: CustomAgentFiles;

  constructor(private readonly options: AgentSessionsOptions) {
    ({ store: this.store, approvals: this.approvals, logger: this.logger } = options);
    this.customAgents = new CustomAgentFiles({ ...options, settings: () => options.settings().agent });
    this.places = new SessionPlaces({ worktrees: options.machine.worktrees, settings: () => options.settings().agent });
    const { machine, logger, store } = options;
    const settings = options.settings;
    const agent = () => settings().agent;
    this.sandbox = new SandboxDecision({
      sandbox: machine.sandbox,
      home: machine.home,
      settings: agent,
      logger,
      warnUser: (message) => void vscode.window.showWarningMessage(message),
      windowFolders: localFolderPaths,
      controlGuard:
        machine.controlGuard &&
        ((root, sessionId, willSandbox) =>
          machine.controlGuard!(root, sessionId, {
            watcher: vscodeControlWatcher,
            willSandbox,
            onRollback: (quarantined) => showControlRollback(quarantined, logger),
          })),
    });
    const protectedFiles = () => agent().protectedFiles;
    const folders = windowFolders;
    this.checkpointService = new SessionCheckpoints({
      store,
      runs: this.runs,
      machine,
      folders,
      protectedFiles,
      logger,
      clock: systemClock,
      editorFiles: (root) => editorFiles(machine, root),
    });
    this.engines = new SessionEngines({ ...options, checkpoints: this.checkpointService, sandbox: this.sandbox, settings: agent });
    this.sessionRuns = new SessionRuns({
      store,
      runs: this.runs,
      folders,
      checkpoints: this.checkpointService,
      sandbox: this.sandbox,
      engineFor: (state, root, referencedTools, toolInvocationToken) => this.engines.engineFor(state, root, referencedTools, toolInvocationToken),
      prepareRun: (referencedTools, signal) => this.engines.prepareRun(referencedTools, signal),
      resolveAgentModel: options.resolveAgentModel,
      agentModel: () => settings().agentModel,
      availableModels: options.availableModels,
      logger,
      endRun: (sessionId) => this.engines.endRun(sessionId),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
      worktrees: machine.worktrees,
      worktreeLinkedFolders: () => agent().worktreeLinkedFolders,
    });
  }

  /** Sessions left running or waiting by a window that closed are paused: nothing runs without the user. */
  recoverInterrupted(): Promise<InterruptedSession[]> {
    return this.sessionRuns.recoverInterrupted();
  }

  /** `referencedTools`: VS Code tools the chat request names (`#tool`), offered for this run besides the enabled ones. */
  start(task: string, sink: SessionSink, signal?: AbortSignal, referencedTools: readonly string[] = [], place?: SessionPlace): Promise<AgentSessionState> {
    return this.places
      .placeOrCancel(place)
      .then((chosen) => this.sessionRuns.start(task, { sink: this.runSink(sink), signal, referencedTools, place: chosen }));
  }

  /** Starts a session as a custom agent or an agent-mode prompt file (its tools, instructions and model). */
  startAs(input: { task: string; agent: SessionAgent; sink: SessionSink; signal?: AbortSignal; place?: SessionPlace }): Promise<AgentSessionState> {
    return this.places
      .placeOrCancel(input.place)
      .then((place) => this.sessionRuns.start(input.task, { sink: this.runSink(input.sink), signal: input.signal, agent: input.agent, place }));
  }

  /** The sessions' own worktrees on this machine, when there are. */
  get worktrees(): GitWorktrees | undefined {
    return this.options.machine.worktrees;
  }

  /** Plan first: a read-only planning session for the task (planMode.ts), whose answer is a numbered plan. */
  plan(task: string, sink: SessionSink, signal?: AbortSignal): Promise<AgentSessionState> {
    return this.sessionRuns.start(task, { sink: this.runSink(sink), signal, agent: agentExtras().planningAgent() });
  }

  /**
   * Plan first's Start: a normal session for the task with the plan's steps as its todo list (seeded and in its first
   * message), in the workspace folder or (Start in a New Worktree) in a worktree of its own, made as for any session.
   */
  startWithPlan(input: { task: string; steps: readonly string[]; sink: SessionSink; signal?: AbortSignal; place?: SessionPlace }): Promise<AgentSessionState> {
    const { task, steps } = input;
    const { taskWithPlan, seededPlan } = agentExtras();
    return this.sessionRuns.start(taskWithPlan(task, steps), {
      sink: this.runSink(input.sink),
      signal: input.signal,
      plan: seededPlan(steps),
      title: task,
      place: input.place ?? 'folder',
    });
  }

  /** Continues a saved session, optionally with a message that steers it. */
  continue(
    id: string,
    message: string | undefined,
    sink: SessionSink,
    signal?: AbortSignal,
    referencedTools: readonly string[] = [],
  ): Promise<AgentSessionState> {
    return this.sessionRuns.continue(id, message, { sink: this.runSink(sink), signal, referencedTools });
  }

  /** Compacts a session that is not running now: a summary replaces the chain the gateway bills; the transcript stays whole. */
  compact(id: string, sink: SessionSink, signal?: AbortSignal): Promise<AgentSessionState> {
    return this.sessionRuns.compact(id, this.runSink(sink), signal);
  }

  stop(id: string): boolean {
    return this.sessionRuns.stop(id);
  }

  isRunning(id: string): boolean {
    return this.sessionRuns.isRunning(id);
  }

  /** Restores every file the session changed to what it was before the session first touched it. */
  revert(id: string): Promise<string[]> {
    // Claimed like a run, so the session cannot start while its files are being put back.
    return this.runs.exclusively(id, 'Stop the session before reverting its changes.', async (controller) => {
      const state = await this.sessionRuns.load(id);
      const root = vscode.Uri.parse(this.sessionRuns.savedRoot(state, 'revert its changes').uri);
      const { machine, settings } = this.options;
      const workspace = { files: machine.files(root.fsPath), protectedFiles: settings().agent.protectedFiles };
      const revert = { state, checkpoints: this.checkpoints(id), workspace, restore: machine.workspaceRestore(root.fsPath) };
      return revertSession({ ...revert, save: (saved) => this.store.replace(saved) }, controller.signal);
    });
  }

  /**
   * Deletes a saved session and its checkpoint folder; the files it changed stay
   * as they are. Refused while the session runs (the user stops it first).
   */
  deleteSession(id: string, signal: AbortSignal): Promise<void> {
    return this.runs.exclusively(id, 'This session is running. Stop it first, then delete it.', async () => {
      // Nothing of a deleted session keeps running (its run's end stopped them already; this is the second lock).
      await this.engines.endRun(id);
      await this.checkpointService.deleteSession(id, signal);
      this.sandbox.forget(id);
      this.logger.info(`agent session ${id} deleted with its checkpoints`);
    });
  }

  /** Removes the session's worktree and branch (issue 40); the session stays, to be read, marked as discarded. Refused while it runs. */
  discardWorktree(id: string, signal: AbortSignal): Promise<void> {
    return this.runs.exclusively(id, 'This session is running. Stop it first, then discard its worktree.', async () => {
      const state = await this.sessionRuns.load(id);
      const worktrees = this.options.machine.worktrees;
      if (!state.worktree || !worktrees) throw new Error('This session has no worktree of its own.');
      if (state.worktree.discardedAt === undefined) await worktrees.discard(state.worktree, signal);
      await this.engines.endRun(id);
      this.sandbox.forget(id);
      state.worktree = { ...state.worktree, discardedAt: Date.now() };
      await this.store.replace(state);
      this.logger.info(`agent session ${id}: worktree ${state.worktree.path} and branch ${state.worktree.branch} discarded`);
    });
  }

  /** A retention pass: orphan folders removed, then the least recently used sessions' checkpoints past the bound; the log names what went. */
  keepCheckpointsInBudget(signal: AbortSignal): Promise<RetentionReport | undefined> {
    return this.checkpointService.keepInBudget(signal);
  }

  /** The session's checkpoints (one store per session, so its writes run one after another). */
  checkpoints(id: string): CheckpointStore {
    return this.checkpointService.of(id);
  }

  /** What restoring a checkpoint would do (the files the user changed since, the commands that ran after it); changes nothing. */
  planRestore(id: string, checkpointId: number, signal: AbortSignal): Promise<RestorePlan> {
    return this.checkpointService.planRestore(id, checkpointId, signal);
  }

  /** Puts the files back as the plan says and rewinds the conversation: Continue goes on from the checkpoint's response. */
  restore(id: string, plan: RestorePlan, keepUserChanges: boolean): Promise<RestoreResult> {
    return this.checkpointService.restore(id, plan, keepUserChanges);
  }

  /** The services' sink for a VS Code one: the root as a Uri (made once per call), the approvals shown while the run lasts. */
  private runSink(sink: SessionSink): RunSink {
    let uri: vscode.Uri | undefined;
    const presenter = sink.presenter;
    return {
      onEvent: (event, root) => sink.onEvent(event, (uri ??= vscode.Uri.parse(root.uri))),
      presentApprovals: presenter && ((sessionId) => this.approvals.present(sessionId, presenter)),
      watch: sink.watched ? (sessionId) => this.options.watchedSessions?.show(sessionId) ?? { dispose: () => undefined } : undefined,
      toolInvocationToken: sink.toolInvocationToken,
    };
  }

  dispose(): void {
    // The window is closing or reloading: the sessions pause as interrupted, not as stopped by the user.
    this.runs.stopAll(INTERRUPTED_REASON);
    this.engines.dispose();
    this.sandbox.dispose();
  }
}
