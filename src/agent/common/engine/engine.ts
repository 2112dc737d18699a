/**
 * The session engine. A session is a chain of responses linked by
 * `previous_response_id`: each request sends only the new items (the user's
 * message, or the outputs of the last response's function calls). A turn
 * streams the answer, runs the calls it asks for (each after the approval
 * policy allows it), and repeats until the model answers without a call, the
 * user stops it, or a budget runs out. The state is saved after every step.
 *
 * A chain only grows, and the gateway bills every request for all of it. Before
 * a request would pass the threshold (80 % of the model's window, and no more
 * than a share of the key's tokens per minute) the session compacts: the model
 * summarises the chain, and a new chain starts from the summary and the most
 * recent steps (see compaction.ts, contextBudget.ts).
 *
 * The engine is the loop; its parts are collaborators built from its deps: one
 * turn (modelTurn.ts), the tool-call round (toolRound.ts) with the checkpoint
 * after it (stepCheckpoint.ts), compaction (sessionCompactor.ts), the request
 * sizes (requestSizing.ts), saving (sessionProgress.ts), the run's time (runTimer.ts) and the workspace's hooks
 * at the session's start, at a prompt and at its end (sessionHookSteps.ts).
 */
import { AbortError, type GatewayClient } from '../../../gateway/common';
import { type ModelLimits } from '../../../models/common';
import type { Clock, Logger } from '../../../base/common';
import type { Approver, SessionStore } from '../../../sessionModel/common';
import { prepareProtections } from '../../../base/common';
import { runSubagentTool, type AgentTool, type ToolContext } from '../../../tools/common';
import { errorMessage, type OnAgentEvent } from '../../../sessionModel/common';
import type { ApprovalPolicy } from '../approvals/approvalPolicy';
import { exceededBudget, runStartOf, runUsage, type RunStart } from './budgets';
import { type AgentBudgets } from '../../../settings/common';
import { chainItems } from './compaction';
import { ModelTurns } from './modelTurn';
import { InstructionTracker } from '../../../customization/common';
import { RequestSizing } from './requestSizing';
import { RunTimer, watchTimeBudget } from './runTimer';
import { SessionCompactor } from './sessionCompactor';
import { SessionProgress } from '../sessions/sessionProgress';
import { SubagentRunner } from './subagents';
import type { AgentSessionState } from '../../../sessionModel/common';
import { StepCheckpointRecorder, type CaptureCheckpoint, type KeepOriginal } from '../../../checkpoints/common';
import { ToolRound } from './toolRound';
import { addDeveloperItem, SessionHookSteps } from './sessionHookSteps';
import type { RunHooks } from '../../../customization/common';
import type { HomeSkills } from '../../../customization/common';

export interface AgentEngineDeps {
  client: GatewayClient;
  store: SessionStore<AgentSessionState>;
  approver: Approver;
  /** The tools offered now (read-only ones in an untrusted workspace). */
  tools: () => readonly AgentTool[];
  toolContext: ToolContext;
  policy: () => ApprovalPolicy;
  budgets: () => AgentBudgets;
  instructions: string;
  /** Whether the workspace's AGENTS.md files are sent and its skills listed (`gateway.agent.projectInstructions`). */
  projectInstructions?: boolean;
  /** Under that master switch, each kind on its own (`gateway.agent.projectInstructionKinds`); absent kinds are on. */
  projectKinds?: { agentsMd?: boolean; skills?: boolean };
  /** The user's home skills, listed with the workspace's (read with read_skill, which `tools` offers once some are found). */
  homeSkills?: HomeSkills;
  clock: Clock;
  logger: Logger;
  /** The model's context window and output limit (gateway.models, learned, or the default). */
  modelLimits?: (model: string) => ModelLimits;
  /** Remembers the window the gateway named in a context_length_exceeded answer. */
  learnContextWindow?: (model: string, contextWindow: number) => Promise<void>;
  /** The key's tokens per minute as the client knows it now; undefined: no limit. */
  tokensPerMinute?: () => number | undefined;
  /** Seconds of that budget one request may need (default 30). */
  maxRequestTpmSeconds?: () => number;
  /**
   * Asked before each request (compaction's included): undefined lets it go; a text stops the
   * session with that reason (past the daily budget the user is asked first).
   */
  spendGate?: (state: AgentSessionState, signal: AbortSignal) => Promise<string | undefined>;
  /**
   * Records a checkpoint after a step that changed files (`changed`: real workspace paths).
   * Its failure is logged, never the session's: the work itself is done.
   */
  checkpoint?: CaptureCheckpoint;
  /** Keeps a changed file's content from before the session for Revert (the checkpoint baseline): the saved session lists only its path. */
  keepOriginal?: KeepOriginal;
  /** Offer run_subagent (`gateway.agent.subagents`): read-only sub-sessions whose answers alone come back (subagents.ts). */
  subagents?: boolean;
  /** The workspace's hooks for this run (trusted workspaces only, each approved by the user): session start and end, before and after each call. */
  hooks?: RunHooks;
}

export class AgentEngine {
  private readonly projectInstructions: InstructionTracker | undefined;
  private readonly progress: SessionProgress;
  private readonly sizing: RequestSizing;
  private readonly compactor: SessionCompactor;
  private readonly turns: ModelTurns;
  private readonly toolRound: ToolRound;
  private readonly subagents: SubagentRunner | undefined;
  private readonly hookSteps: SessionHookSteps;

  constructor(private readonly deps: AgentEngineDeps) {
    this.subagents = deps.subagents ? new SubagentRunner({ ...deps, startEngine: (childDeps) => new AgentEngine(childDeps) }) : undefined;
    // The collaborators below get the tools with run_subagent; the runner itself (and so every sub-session) does not.
    if (this.subagents) deps = withSubagents(deps, this.subagents);
    const agentsMd = deps.projectInstructions === true && deps.projectKinds?.agentsMd !== false;
    const skills = deps.projectInstructions === true && deps.projectKinds?.skills !== false;
    this.projectInstructions =
      agentsMd || skills
        ? new InstructionTracker({
            files: deps.toolContext.files,
            protectedFiles: deps.toolContext.protectedFiles,
            agentsMd,
            skills,
            logger: deps.logger,
            homeSkills: deps.homeSkills,
          })
        : undefined;
    this.progress = new SessionProgress(deps.store, deps.clock);
    this.sizing = new RequestSizing(deps);
    this.compactor = new SessionCompactor({ ...deps, sizing: this.sizing, progress: this.progress });
    this.turns = new ModelTurns({ ...deps, sizing: this.sizing, compactor: this.compactor, maxRepeatedCalls: () => deps.budgets().maxRepeatedCalls });
    const checkpoints = new StepCheckpointRecorder(deps.checkpoint, deps.logger);
    this.toolRound = new ToolRound({ ...deps, sizing: this.sizing, progress: this.progress, checkpoints });
    this.hookSteps = new SessionHookSteps(deps);
  }

  /**
   * Runs the session until it is done, stopped, paused by an error, or cancelled through `signal`.
   * The budgets apply to this run alone, so continuing a stopped session gives it a full budget again.
   */
  async run(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<AgentSessionState> {
    // The protected-file globs compiled in the loop's idle turns while the run saves and asks the model (once per
    // value of the setting), not in one stretch at the first path check.
    void prepareProtections(this.deps.toolContext.protectedFiles, signal);
    const timer = new RunTimer(this.deps.clock);
    const start = runStartOf(state);
    const activeBefore = state.activeMs;
    const tick = () => (state.activeMs = activeBefore + timer.activeMs());
    // The time budget also ends a turn or a command in progress, not only the next request.
    const overTime = new AbortController();
    const stopWatching = new AbortController();
    watchTimeBudget(this.deps.clock, timer, () => this.deps.budgets().maxWallTimeMs, overTime, stopWatching.signal);
    this.subagents?.startRun({ state, start, timer, onEvent });
    await this.progress.setStatus(state, 'running', undefined, onEvent);
    try {
      const promptRefused = await this.hookSteps.start(state, signal);
      if (promptRefused !== undefined) await this.progress.setStatus(state, 'paused', promptRefused, onEvent);
      else await this.runSteps(state, { start, timer, tick }, AbortSignal.any([signal, overTime.signal]), onEvent);
    } catch (error) {
      tick();
      if (overTime.signal.aborted && !signal.aborted) {
        const reason = exceededBudget(runUsage(state, start, timer.activeMs()), this.deps.budgets()) ?? errorMessage(overTime.signal.reason);
        await this.progress.setStatus(state, 'stopped', reason, onEvent);
      } else {
        const reason = signal.aborted || error instanceof AbortError ? stopReason(signal) : errorMessage(error);
        await this.progress.setStatus(state, 'paused', reason, onEvent);
      }
    } finally {
      stopWatching.abort();
      await this.hookSteps.end(state);
    }
    return state;
  }

  /** Compacts now (the user's Compact command): a summary, or the trim when no summary can be had. */
  async compact(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<AgentSessionState> {
    if (state.pendingCalls.length > 0) throw new Error('This session is waiting on a tool call; continue it first, then compact.');
    if (chainItems(state).length === 0) return state;
    const status = state.status;
    const reason = state.statusReason;
    await this.progress.setStatus(state, 'running', undefined, onEvent);
    try {
      await this.compactor.compact(state, 'manual', signal, onEvent);
    } finally {
      await this.progress.setStatus(state, status === 'running' ? 'paused' : status, reason, onEvent);
    }
    return state;
  }

  /** Tool calls, then a turn, step after step, until the session is done or stopped (`signal`: the user's Stop or the time budget). */
  private async runSteps(state: AgentSessionState, run: RunBearings, signal: AbortSignal, onEvent: OnAgentEvent): Promise<void> {
    const { start, timer, tick } = run;
    for (;;) {
      if (state.pendingCalls.length > 0) await this.toolRound.run(state, timer, signal, onEvent);
      tick();
      if (state.unsent.length === 0) return this.progress.setStatus(state, 'done', undefined, onEvent);
      const overBudget = exceededBudget(runUsage(state, start, timer.activeMs()), this.deps.budgets());
      const refused = overBudget ?? (await this.deps.spendGate?.(state, signal));
      if (refused) return this.progress.setStatus(state, 'stopped', refused, onEvent);
      if (state.compacting || this.sizing.nextRequestTokens(state) > this.sizing.compactAt(state)) {
        await this.compactor.compact(state, state.compacting ? 'resume' : 'threshold', signal, onEvent);
      }
      await this.addProjectInstructions(state, signal);
      const result = await this.turns.request(state, signal, onEvent);
      const loopReason = this.turns.accept(state, result);
      tick();
      await this.progress.save(state);
      onEvent({ type: 'turn', turn: state.turns, usage: result.usage });
      if (loopReason) {
        this.toolRound.answerPendingWith(state, `Not run: ${loopReason}`);
        return this.progress.setStatus(state, 'stopped', loopReason, onEvent);
      }
      if (state.pendingCalls.length === 0 && !(await this.hookSteps.stopContinues(state, result.text, signal))) {
        return this.progress.setStatus(state, 'done', undefined, onEvent);
      }
    }
  }

  /** The project instructions that now apply and were not sent yet, as an item of the next request (kept in the chain, so sent once). */
  private async addProjectInstructions(state: AgentSessionState, signal: AbortSignal): Promise<void> {
    const text = await this.projectInstructions?.next(state, signal);
    if (text !== undefined) addDeveloperItem(state, text);
  }
}

/** The deps with run_subagent offered after the other tools, and the sub-session runner in the tools' context. */
function withSubagents(deps: AgentEngineDeps, subagents: SubagentRunner): AgentEngineDeps {
  // A host tool of the same name (an MCP server's) gives way: two tools of one name would be refused or mistaken.
  const tools = () => [...deps.tools().filter((tool) => tool.name !== runSubagentTool.name), runSubagentTool];
  return { ...deps, tools, toolContext: { ...deps.toolContext, subagents } };
}

/** A run's bearings: where its budgets count from, its working time, and the update of the session's active time. */
interface RunBearings {
  start: RunStart;
  timer: RunTimer;
  tick: () => void;
}

/** The reason a run was stopped with (a window that closed says so), else the user's Stop. */
function stopReason(signal: AbortSignal): string {
  return signal.aborted && typeof signal.reason === 'string' ? signal.reason : 'Stopped by the user.';
}
