/**
 * The session engine. A session is a chain of responses linked by
 * `previous_response_id`: each request sends only the new items (the user's
 * message, or the outputs of the last response's function calls). A turn
 * streams the answer, runs the calls it asks for (each after the approval
 * policy allows it), and repeats until the model answers without a call, the
 * user stops it, or a budget runs out. The state is saved after every step.
 */
import {
  AbortError,
  PreviousResponseNotFoundError,
  type CompletionResult,
  type GatewayClient,
  type RetryNotice,
  type ToolCall,
  type Usage,
} from '../api';
import type { ApprovalRequest, Approver, Clock, Logger, SessionStore } from '../ports';
import { findTool, toolDefinitions, unknownToolOutput } from '../tools/registry';
import type { AgentTool, PreparedCall, ToolContext, ToolOutcome } from '../tools/tool';
import { needsApproval, type ApprovalPolicy } from './approvalPolicy';
import { exceededBudget, runStartOf, runUsage, type AgentBudgets } from './budgets';
import { recordCalls } from './loopGuard';
import { recordOriginal } from './originals';
import type { AgentSessionState, SessionStatus } from './sessionState';

export type AgentEvent =
  | { type: 'status'; status: SessionStatus; reason?: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'retry'; notice: RetryNotice }
  | { type: 'approval_needed'; request: ApprovalRequest }
  | { type: 'tool_started'; call: ToolCall; summary: string }
  | { type: 'tool_finished'; call: ToolCall; summary: string; outcome: ToolOutcome; approved: boolean }
  | { type: 'turn'; turn: number; usage: Usage | undefined };

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
  clock: Clock;
  logger: Logger;
}

export class AgentEngine {
  constructor(private readonly deps: AgentEngineDeps) {}

  /**
   * Runs the session until it is done, stopped, paused by an error, or cancelled through `signal`.
   * The budgets apply to this run alone, so continuing a stopped session gives it a full budget again.
   */
  async run(state: AgentSessionState, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<AgentSessionState> {
    const timer = new RunTimer(this.deps.clock);
    const start = runStartOf(state);
    const activeBefore = state.activeMs;
    const tick = () => (state.activeMs = activeBefore + timer.activeMs());
    // The time budget also ends a turn or a command in progress, not only the next request.
    const overTime = new AbortController();
    const userSignal = signal;
    const stopWatching = new AbortController();
    const watching = watchTimeBudget(this.deps.clock, timer, () => this.deps.budgets().maxWallTimeMs, overTime, stopWatching.signal);
    signal = AbortSignal.any([userSignal, overTime.signal]);
    await this.setStatus(state, 'running', undefined, onEvent);
    try {
      for (;;) {
        if (state.pendingCalls.length > 0) await this.runPendingCalls(state, timer, signal, onEvent);
        tick();
        if (state.unsent.length === 0) {
          await this.setStatus(state, 'done', undefined, onEvent);
          break;
        }
        const overBudget = exceededBudget(runUsage(state, start, timer.activeMs()), this.deps.budgets());
        if (overBudget) {
          await this.setStatus(state, 'stopped', overBudget, onEvent);
          break;
        }
        const result = await this.requestTurn(state, signal, onEvent);
        const loopReason = this.acceptTurn(state, result);
        tick();
        await this.save(state);
        onEvent({ type: 'turn', turn: state.turns, usage: result.usage });
        if (loopReason) {
          this.answerPendingWith(state, `Not run: ${loopReason}`);
          await this.setStatus(state, 'stopped', loopReason, onEvent);
          break;
        }
        if (state.pendingCalls.length === 0) {
          await this.setStatus(state, 'done', undefined, onEvent);
          break;
        }
      }
    } catch (error) {
      tick();
      if (overTime.signal.aborted && !userSignal.aborted) {
        await this.setStatus(state, 'stopped', exceededBudget(runUsage(state, start, timer.activeMs()), this.deps.budgets()) ?? describe(overTime.signal.reason), onEvent);
      } else {
        const reason = userSignal.aborted || error instanceof AbortError ? 'Stopped by the user.' : describe(error);
        await this.setStatus(state, 'paused', reason, onEvent);
      }
    } finally {
      stopWatching.abort();
      await watching;
    }
    return state;
  }

  /** One request: the unsent items after the last response, or the whole transcript when the gateway lost the chain. */
  private async requestTurn(state: AgentSessionState, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<CompletionResult> {
    try {
      return await this.stream(state, false, signal, onEvent);
    } catch (error) {
      if (!(error instanceof PreviousResponseNotFoundError) || state.previousResponseId === undefined) throw error;
      this.deps.logger.info(`session ${state.id}: the gateway lost response ${state.previousResponseId}; replaying ${state.transcript.length} items`);
      return await this.stream(state, true, signal, onEvent);
    }
  }

  private async stream(state: AgentSessionState, replay: boolean, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<CompletionResult> {
    const events = this.deps.client.respondStream(
      {
        model: state.model,
        instructions: this.deps.instructions,
        tools: toolDefinitions(this.deps.tools()),
        input: replay ? state.transcript : state.unsent,
        previousResponseId: replay ? undefined : state.previousResponseId,
      },
      { signal, onRetry: (notice) => onEvent({ type: 'retry', notice }) },
    );
    const result: CompletionResult = { id: '', model: state.model, text: '', reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined };
    for await (const event of events) {
      if (event.type === 'response') result.id = event.id;
      else if (event.type === 'text') {
        result.text += event.text;
        onEvent({ type: 'text', text: event.text });
      } else if (event.type === 'reasoning') {
        result.reasoning += event.text;
        onEvent({ type: 'reasoning', text: event.text });
      } else if (event.type === 'tool_call') result.toolCalls.push(event.call);
      else if (event.type === 'usage') result.usage = event.usage;
      else if (event.type === 'done') result.finishReason = event.finishReason;
    }
    return result;
  }

  /** Folds a completed response into the state; returns the loop guard's reason to stop, if any. */
  private acceptTurn(state: AgentSessionState, result: CompletionResult): string | undefined {
    state.previousResponseId = result.id || undefined;
    if (result.text) state.transcript.push({ role: 'assistant', content: result.text });
    for (const call of result.toolCalls) {
      state.transcript.push({ type: 'function_call', call_id: call.callId, name: call.name, arguments: call.arguments });
    }
    state.unsent = [];
    state.pendingCalls = [...result.toolCalls];
    state.turns++;
    if (result.usage) {
      state.usage.inputTokens += result.usage.inputTokens;
      state.usage.outputTokens += result.usage.outputTokens;
      state.usage.reasoningTokens += result.usage.reasoningTokens;
      state.usage.totalTokens += result.usage.totalTokens;
    }
    return recordCalls(state, result.toolCalls, this.deps.budgets().maxRepeatedCalls);
  }

  /** Runs each pending call in order, saving after each, so a reload resumes at the next one. */
  private async runPendingCalls(state: AgentSessionState, timer: RunTimer, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<void> {
    while (state.pendingCalls.length > 0) {
      if (signal.aborted) throw new AbortError();
      const call = state.pendingCalls[0];
      const tools = this.deps.tools();
      const tool = findTool(tools, call.name);
      const prepared = tool ? await tool.prepare(call.arguments, this.deps.toolContext, signal) : undefined;
      const summary = prepared?.summary ?? `${call.name} (unknown tool)`;
      onEvent({ type: 'tool_started', call, summary });
      let approved = true;
      let outcome: ToolOutcome;
      if (!tool || !prepared) {
        outcome = { ok: false, output: unknownToolOutput(tools, call.name) };
      } else if (prepared.refusal !== undefined) {
        // Refused while preparing: nothing would happen, so there is nothing to approve.
        outcome = await prepared.execute(signal);
      } else {
        const writePaths = await this.writePaths(prepared, signal);
        approved = !needsApproval(this.deps.policy(), tool.kind, prepared.command?.line, writePaths) || (await timer.waiting(() => this.ask(state, call, tool, prepared, signal, onEvent)));
        outcome = approved ? await this.execute(state, tool, prepared, signal) : { ok: false, output: `The user denied this ${tool.kind === 'command' ? 'command' : 'change'}. Do not retry it; ask or try another way.` };
      }
      this.answer(state, call, outcome.output);
      await this.save(state);
      onEvent({ type: 'tool_finished', call, summary, outcome, approved });
    }
  }

  /** The path a write names and the one it really leads to: either may be a file that always asks. */
  private async writePaths(prepared: PreparedCall, signal: AbortSignal): Promise<string[]> {
    const path = prepared.preview?.path;
    if (path === undefined) return [];
    const real = await this.deps.toolContext.files.realPathInside(path, signal).catch(() => undefined);
    return real === undefined || real === path ? [path] : [path, real];
  }

  private async ask(state: AgentSessionState, call: ToolCall, tool: AgentTool, prepared: PreparedCall, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<boolean> {
    const request: ApprovalRequest = { sessionId: state.id, callId: call.callId, toolName: tool.name, summary: prepared.summary, preview: prepared.preview, command: prepared.command };
    await this.setStatus(state, 'awaiting_approval', prepared.summary, onEvent);
    onEvent({ type: 'approval_needed', request });
    const approved = await this.deps.approver.approve(request, signal);
    if (signal.aborted) throw new AbortError();
    await this.setStatus(state, 'running', undefined, onEvent);
    return approved;
  }

  private async execute(state: AgentSessionState, tool: AgentTool, prepared: PreparedCall, signal: AbortSignal): Promise<ToolOutcome> {
    if (prepared.command) state.commandsRun.push(prepared.command.line);
    let outcome: ToolOutcome;
    try {
      outcome = await prepared.execute(signal);
    } catch (error) {
      if (signal.aborted) throw new AbortError();
      return { ok: false, output: `${tool.name} failed: ${describe(error)}` };
    }
    // Only a write that happened is recorded for "Revert session changes": a refused
    // one (the file changed meanwhile) must not make a revert overwrite the user's work.
    if (outcome.ok && outcome.changedPath !== undefined && prepared.preview) {
      if (await recordOriginal(state, outcome.changedPath, prepared.preview.before, this.deps.toolContext.files, signal)) await this.save(state);
    }
    return outcome;
  }

  private answer(state: AgentSessionState, call: ToolCall, output: string): void {
    const item = { type: 'function_call_output' as const, call_id: call.callId, output };
    state.transcript.push(item);
    state.unsent.push(item);
    state.pendingCalls = state.pendingCalls.filter((pending) => pending !== call);
  }

  private answerPendingWith(state: AgentSessionState, output: string): void {
    for (const call of [...state.pendingCalls]) this.answer(state, call, output);
  }

  private async setStatus(state: AgentSessionState, status: SessionStatus, reason: string | undefined, onEvent: (event: AgentEvent) => void): Promise<void> {
    state.status = status;
    state.statusReason = reason;
    await this.save(state);
    onEvent({ type: 'status', status, reason });
  }

  private async save(state: AgentSessionState): Promise<void> {
    state.updatedAt = this.deps.clock.now();
    await this.deps.store.save(state);
  }
}

/** A run's working time: the clock since it started, less the time spent waiting for the user's approvals. */
class RunTimer {
  private readonly started: number;
  private waitedMs = 0;

  constructor(private readonly clock: Clock) {
    this.started = clock.now();
  }

  private waitingSince: number | undefined;

  activeMs(): number {
    const until = this.waitingSince ?? this.clock.now();
    return until - this.started - this.waitedMs;
  }

  /** The user is being asked: the run's time stands still. */
  get isWaiting(): boolean {
    return this.waitingSince !== undefined;
  }

  /** Runs `wait` (the user answering an approval) without charging its time to the run. */
  async waiting<T>(wait: () => Promise<T>): Promise<T> {
    const from = this.clock.now();
    this.waitingSince = from;
    try {
      return await wait();
    } finally {
      this.waitingSince = undefined;
      this.waitedMs += this.clock.now() - from;
    }
  }
}

/** How often the watch looks again while the user is being asked (the run's time stands still then). */
const WAITING_RECHECK_MS = 1_000;

/**
 * Aborts `overTime` once the run's active time reaches its budget, so a turn
 * or a command in progress ends then, not after it. Ends when `stop` aborts,
 * or when the clock does not keep time (a test clock whose sleeps return at once).
 */
async function watchTimeBudget(clock: Clock, timer: RunTimer, budgetMs: () => number, overTime: AbortController, stop: AbortSignal): Promise<void> {
  for (;;) {
    const remaining = budgetMs() - timer.activeMs();
    if (remaining <= 0 && !timer.isWaiting) {
      overTime.abort(new AbortError('The run reached its time budget.'));
      return;
    }
    const asked = timer.isWaiting ? Math.max(remaining, WAITING_RECHECK_MS) : remaining;
    const before = clock.now();
    try {
      await clock.sleep(asked, stop);
    } catch {
      return;
    }
    // A clock whose sleeps return long before their time (as some tests' do) would make this a busy loop.
    if (stop.aborted || clock.now() - before < asked / 2) return;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
