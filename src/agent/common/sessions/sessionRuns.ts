/**
 * Starts, continues, compacts and stops agent sessions, one run per session
 * (the claims of RunningSessions), and pauses at startup the sessions a closed
 * window left running. The engine of a run comes from the host (the tools, the
 * approvals and the terminals are VS Code's).
 */
import type { Logger } from '../../../base/common';
import { modelForContinuedSession } from '../../../gateway/common';
import type { SandboxDecision } from '../../../terminal/common';
import type { AgentEngine } from '../engine/engine';
import type { AgentEvent } from '../../../sessionModel/common';
import { INTERRUPTED_REASON, type InterruptedSession, type RunningSessions } from './runningSessions';
import type { SavedSessions, SessionCheckpoints } from './sessionCheckpoints';
import { decidedRoot, rootForNewSession, rootForSavedSession, type SessionFolders, type SessionRoot } from '../../../sessionModel/common';
import { addUserMessage, canContinue, newSession, type AgentSessionState } from '../../../sessionModel/common';
import { agentStartNotes, modelNamed } from '../engine/sessionAgent';
import { type SessionAgent } from '../../../sessionModel/common';
import type { PlanStep } from '../../../tools/common';
import type { SessionPhase, ToolDecision } from '../../../telemetry/common';

/** Told what the team's collector counts (telemetry/): tool calls by tool and decision, sessions started, finished or paused; names only. */
export interface AgentTelemetry {
  toolCall(tool: string, decision: ToolDecision): void;
  session(phase: SessionPhase): void;
}

/** What became of a finished tool call: refused (by the user or the policy), run in the sandbox, or run. */
export function toolDecision(event: Extract<AgentEvent, { type: 'tool_finished' }>): ToolDecision {
  if (!event.approved) return 'denied';
  return event.outcome.sandbox ? 'sandboxed' : 'approved';
}
import type { GitWorktrees, WorktreeMade } from './worktreePorts';

/** Whoever shows a run: its events, and (optionally) the approvals it waits for while it runs. */
export interface RunSink {
  /** `root` is the session's workspace folder: the event's paths are relative to it. */
  onEvent(event: AgentEvent, root: SessionRoot): void;
  /** Shows the session's approvals until the returned handle is disposed. */
  presentApprovals?(sessionId: string): { dispose(): void };
  /** The user watches this run (a chat turn shows it) until the returned handle is disposed: its requests go before other sessions'. */
  watch?(sessionId: string): { dispose(): void };
  /** The host's token of the chat request that shows the run (opaque here): the host's tools confirm in that chat. */
  toolInvocationToken?: unknown;
}

/** What one call runs: its sink, the caller's signal, and the VS Code tools the chat request names (`#tool`). */
export interface RunRequest {
  sink: RunSink;
  signal?: AbortSignal;
  referencedTools?: readonly string[];
  /** Start as this custom agent (or agent-mode prompt file): its instructions, tools and model. */
  agent?: SessionAgent;
  /** A new session's todo list from the start (Plan first's Start): seeded as update_plan keeps it, and shown. */
  plan?: PlanStep[];
  /** A new session's title when it is not the task's start (the task then carries the plan). */
  title?: string;
  /** Where a new session works (issue 40): the workspace folder (the default) or a worktree of its own. */
  place?: 'folder' | 'worktree';
}

export interface SessionRunsOptions {
  store: SavedSessions;
  runs: RunningSessions;
  folders: SessionFolders;
  checkpoints: SessionCheckpoints;
  sandbox: SandboxDecision;
  /** The engine of one run (chosen per run: its tools must not change between the run's requests). */
  engineFor: (state: AgentSessionState, root: SessionRoot, referencedTools: readonly string[], toolInvocationToken?: unknown) => AgentEngine;
  /** Before a run (bounded, never rejects): the host readies the tools the run wants; a text is shown to the user as a note. */
  prepareRun?: (referencedTools: readonly string[], signal: AbortSignal) => Promise<string | undefined>;
  /** The model a new session starts with. */
  resolveAgentModel: (signal: AbortSignal) => Promise<string>;
  /** The ids of the models the key may use (a custom agent's model is used only when it is one). */
  availableModels?: (signal: AbortSignal) => Promise<readonly string[]>;
  /** The configured agent model (`gateway.agentModel`), read at each Continue. */
  agentModel: () => string;
  logger: Logger;
  /** The run ended: what it left running (background commands) is stopped; bounded, never rejects. */
  endRun?: (sessionId: string) => Promise<void>;
  telemetry?: AgentTelemetry;
  /** The sessions' own worktrees (issue 40); without them a session asked to start in one is refused. */
  worktrees?: GitWorktrees;
  /** `gateway.agent.worktreeLinkedFolders` now. */
  worktreeLinkedFolders?: () => readonly string[];
}

export class SessionRuns {
  constructor(private readonly options: SessionRunsOptions) {}

  /**
   * Sessions left running or waiting by a window that closed are paused: nothing runs without the user. Returns every
   * session paused as interrupted — by this call, or by the closing window itself when it had time to save — for the
   * notice that says so (issue 39, item 6; the caller tells each once, by its `updatedAt`).
   */
  async recoverInterrupted(): Promise<InterruptedSession[]> {
    const { store, checkpoints, logger } = this.options;
    const paused: InterruptedSession[] = [];
    for (const listed of await store.list()) {
      await checkpoints
        .recoverRestore(listed)
        .catch((error: unknown) => logger.warn(`agent session ${listed.id}: recovering a checkpoint restore failed: ${String(error)}`));
      const wasWaiting = listed.status === 'awaiting_approval' || listed.pendingCalls.length > 0;
      if (listed.status === 'paused' && listed.statusReason === INTERRUPTED_REASON)
        paused.push({ id: listed.id, title: listed.title, wasWaiting, updatedAt: listed.updatedAt });
      if (listed.status !== 'running' && listed.status !== 'awaiting_approval') continue;
      // Each session on its own: one that cannot be saved must not leave the others running forever.
      try {
        const updatedAt = await this.pauseInterrupted(listed.id);
        if (updatedAt !== undefined) paused.push({ id: listed.id, title: listed.title, wasWaiting, updatedAt });
      } catch (error) {
        logger.warn(`agent session ${listed.id} could not be paused after an interruption: ${String(error)}`);
      }
    }
    return paused;
  }

  /** The paused session's `updatedAt` once saved; undefined when it was no longer running. */
  private async pauseInterrupted(id: string): Promise<number | undefined> {
    // Loaded afresh: list() results are shared with the store's cache and must not be changed.
    const state = await this.options.store.load(id);
    if (!state || (state.status !== 'running' && state.status !== 'awaiting_approval')) return undefined;
    state.status = 'paused';
    state.statusReason = INTERRUPTED_REASON;
    await this.options.store.save(state);
    return state.updatedAt;
  }

  async start(task: string, request: RunRequest): Promise<AgentSessionState> {
    const { folders, store, logger } = this.options;
    const folder = decidedRoot(rootForNewSession(folders.open()), folders);
    const signal = request.signal ?? new AbortController().signal;
    const { agent } = request;
    const model = await this.modelFor(agent, signal);
    const id = newSessionId();
    const made = request.place === 'worktree' ? await this.worktreeFor(folder, id, signal) : undefined;
    const root = made ? decidedRoot({ ok: true, uri: folder.uri, worktree: made.worktree }, folders) : folder;
    const title = (request.title ?? task).trim().slice(0, 200);
    const state = newSession({ id, title, model: model.used, now: Date.now(), rootUri: folder.uri, agent, worktree: made?.worktree });
    if (request.plan?.length) state.plan = request.plan.map((step) => ({ ...step }));
    addUserMessage(state, task);
    return this.options.runs
      .exclusively(state.id, 'This session is already running.', async (controller) => {
        await store.save(state);
        this.options.telemetry?.session('started');
        logger.info(`agent session ${state.id} started in ${root.path} with ${model.used}${agent ? ` as ${agent.kind} ${agent.name}` : ''}`);
        for (const text of [...(made ? worktreeNotes(made) : []), ...(agent ? agentStartNotes(agent, model) : [])]) {
          logger.info(`agent session ${state.id}: ${text}`);
          request.sink.onEvent({ type: 'note', text }, root);
        }
        if (state.plan) request.sink.onEvent({ type: 'plan', plan: state.plan.map((step) => ({ ...step })) }, root);
        return this.run(state, root, controller, request);
      })
      .finally(() => this.options.checkpoints.keepInBudgetSoon());
  }

  /** A new worktree for session `id`, from the repository at the workspace folder. */
  private async worktreeFor(folder: SessionRoot, id: string, signal: AbortSignal): Promise<WorktreeMade> {
    const { worktrees, worktreeLinkedFolders, logger } = this.options;
    if (!worktrees) throw new Error('Sessions in their own worktree are not available here.');
    const made = await worktrees.create({ repoRoot: folder.path, sessionId: id, linkedFolders: worktreeLinkedFolders?.() ?? [], signal });
    logger.info(`agent session ${id}: worktree ${made.worktree.path} on ${made.worktree.branch} from ${made.worktree.baseCommit}`);
    return made;
  }

  /** The agent's model when the key may use it, else the configured one (`found` says which). */
  private async modelFor(agent: SessionAgent | undefined, signal: AbortSignal): Promise<{ used: string; found: boolean }> {
    const wanted = agent?.model;
    const available = wanted !== undefined ? await this.options.availableModels?.(signal).catch(() => []) : undefined;
    const named = wanted !== undefined ? modelNamed(wanted, available ?? []) : undefined;
    return named !== undefined ? { used: named, found: true } : { used: await this.options.resolveAgentModel(signal), found: false };
  }

  /** Continues a saved session, optionally with a message that steers it. */
  continue(id: string, message: string | undefined, request: RunRequest): Promise<AgentSessionState> {
    return this.options.runs
      .exclusively(id, 'This session is already running. Stop it first, or wait for it.', async (controller) => {
        const state = await this.load(id);
        const root = this.savedRoot(state, 'continue it');
        if (message?.trim()) addUserMessage(state, message.trim());
        if (!canContinue(state)) throw new Error('This session is finished. Send a message to give it more to do.');
        // A custom agent's model stays its model; otherwise the model chosen since is how a withdrawn one is replaced.
        const model = state.agent?.model !== undefined ? state.model : modelForContinuedSession(state.model, this.options.agentModel());
        if (model !== state.model) {
          this.options.logger.info(`agent session ${state.id} continues with ${model} (was ${state.model})`);
          state.model = model;
        }
        return this.run(state, root, controller, request);
      })
      .finally(() => this.options.checkpoints.keepInBudgetSoon());
  }

  /** Compacts a session that is not running now: a summary replaces the chain the gateway bills; the transcript stays whole. */
  compact(id: string, sink: RunSink, signal?: AbortSignal): Promise<AgentSessionState> {
    const busy = 'This session is running; it compacts by itself when it needs to. Stop it first to compact now.';
    return this.options.runs.exclusively(id, busy, async (controller) => {
      const state = await this.load(id);
      const root = this.savedRoot(state, 'compact it');
      const onOuterAbort = () => controller.abort();
      signal?.addEventListener('abort', onOuterAbort, { once: true });
      const watching = sink.watch?.(state.id);
      try {
        return await this.options.engineFor(state, root, []).compact(state, controller.signal, (event) => sink.onEvent(event, root));
      } finally {
        watching?.dispose();
        signal?.removeEventListener('abort', onOuterAbort);
      }
    });
  }

  stop(id: string): boolean {
    return this.options.runs.stop(id);
  }

  isRunning(id: string): boolean {
    return this.options.runs.isRunning(id);
  }

  /** The saved session, or an error that says there is none. */
  async load(id: string): Promise<AgentSessionState> {
    const state = await this.options.store.load(id);
    if (!state) throw new Error(`There is no saved agent session ${id}.`);
    return state;
  }

  /** The folder a saved session works in; an error that names `action` when it is not open. */
  savedRoot(state: AgentSessionState, action: string): SessionRoot {
    return decidedRoot(rootForSavedSession(state.rootUri, this.options.folders.open(), action, state.worktree), this.options.folders);
  }

  private async run(state: AgentSessionState, root: SessionRoot, controller: AbortController, request: RunRequest): Promise<AgentSessionState> {
    const { sink, signal: outer } = request;
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const presentation = sink.presentApprovals?.(state.id);
    const watching = sink.watch?.(state.id);
    try {
      await this.options.sandbox.probe({ root: root.path });
      const referenced = request.referencedTools ?? [];
      const note = await this.options.prepareRun?.(referenced, controller.signal);
      if (note !== undefined) sink.onEvent({ type: 'note', text: note }, root);
      const engine = this.options.engineFor(state, root, referenced, sink.toolInvocationToken);
      const { telemetry } = this.options;
      const ended = await engine.run(state, controller.signal, (event) => {
        if (event.type === 'tool_finished') telemetry?.toolCall(event.call.name, toolDecision(event));
        sink.onEvent(event, root);
      });
      // A run ends done, paused or stopped (an approval is waited for inside the run).
      if (ended.status === 'done') telemetry?.session('finished');
      else if (ended.status === 'paused' || ended.status === 'stopped') telemetry?.session('paused');
      return ended;
    } finally {
      presentation?.dispose();
      watching?.dispose();
      outer?.removeEventListener('abort', onOuterAbort);
      // Before the sandbox's /tmp goes: a background command still running there is stopped first.
      await this.options.endRun?.(state.id);
      this.options.sandbox.endSession(state.id);
    }
  }
}

/** What the user is told of a new worktree: where it is, and that uncommitted changes are not in it. */
export function worktreeNotes({ worktree, uncommitted, linked }: WorktreeMade): string[] {
  const notes = [`Working in a new worktree on branch ${worktree.branch} from commit ${worktree.baseCommit.slice(0, 12)}: ${worktree.path}`];
  if (linked.length > 0) notes.push(`Linked from the workspace: ${linked.join(', ')}.`);
  if (uncommitted.length > 0) {
    const named = uncommitted.slice(0, 5).join(', ') + (uncommitted.length > 5 ? ` and ${uncommitted.length - 5} more` : '');
    notes.push(`The workspace's uncommitted changes are not in this worktree (it starts from the last commit): ${named}.`);
  }
  return notes;
}

function newSessionId(): string {
  return `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
