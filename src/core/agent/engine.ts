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
 */
import {
  AbortError,
  ContextLengthExceededError,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT_TOKENS,
  PreviousResponseNotFoundError,
  type CompletionResult,
  type GatewayClient,
  type ModelLimits,
  type RespondParams,
  type ResponseInputItem,
  type RetryNotice,
  type ToolCall,
  type Usage,
} from '../api';
import type { ApprovalRequest, Approver, Clock, Logger, SessionStore } from '../ports';
import { findTool, toolDefinitions, unknownToolOutput } from '../tools/registry';
import type { AgentTool, PreparedCall, ToolContext, ToolOutcome } from '../tools/tool';
import type { PlanStep } from '../tools/updatePlan';
import { needsApproval, type ApprovalPolicy } from './approvalPolicy';
import { exceededBudget, runStartOf, runUsage, type AgentBudgets } from './budgets';
import { recordCalls } from './loopGuard';
import { realPathOf, recordOriginal } from './originals';
import { SUMMARY_MAX_OUTPUT_TOKENS, chainItems, compactedOpening, summaryInput } from './compaction';
import {
  RECENT_ITEMS_SHARE,
  SUMMARY_RESERVE_SHARE,
  TOOL_OUTPUT_SHARE,
  boundedToolOutput,
  cutPoints,
  fixedTokens,
  recentStart,
  requestThreshold,
  tokensOfItems,
  trimToFit,
} from './contextBudget';
import { InstructionTracker } from './projectInstructions';
import type { AgentSessionState, Compaction, SessionStatus } from './sessionState';

export type AgentEvent =
  | { type: 'status'; status: SessionStatus; reason?: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'retry'; notice: RetryNotice }
  | { type: 'approval_needed'; request: ApprovalRequest }
  | { type: 'tool_started'; call: ToolCall; summary: string }
  | { type: 'tool_finished'; call: ToolCall; summary: string; outcome: ToolOutcome; approved: boolean }
  | { type: 'plan'; plan: PlanStep[] }
  | { type: 'turn'; turn: number; usage: Usage | undefined }
  | { type: 'compacting' }
  | { type: 'compacted'; compaction: Compaction }
  /** A step changed files and was recorded as a checkpoint; `dropped`: older checkpoints given up to stay under the bound. */
  | { type: 'checkpoint'; sessionId: string; checkpoint: StepCheckpoint; dropped: string[] };

/** What the chat shows of a checkpoint: its id (for "Restore to here") and label. */
export interface StepCheckpoint {
  id: number;
  label: string;
}

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
  /** Whether the workspace's AGENTS.md files are sent (`gateway.agent.projectInstructions`). */
  projectInstructions?: boolean;
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
  checkpoint?: (state: AgentSessionState, changed: string[], signal: AbortSignal) => Promise<{ checkpoint: StepCheckpoint; dropped: string[] }>;
}

/** Why compact: the threshold was reached, the user asked, or a reload interrupted one. */
type CompactionCause = 'threshold' | 'manual' | 'resume';

export class AgentEngine {
  private readonly projectInstructions: InstructionTracker | undefined;

  constructor(private readonly deps: AgentEngineDeps) {
    this.projectInstructions = deps.projectInstructions ? new InstructionTracker(deps.toolContext.files, deps.toolContext.protectedFiles) : undefined;
  }

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
    watchTimeBudget(this.deps.clock, timer, () => this.deps.budgets().maxWallTimeMs, overTime, stopWatching.signal);
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
        const refused = overBudget ?? (await this.deps.spendGate?.(state, signal));
        if (refused) {
          await this.setStatus(state, 'stopped', refused, onEvent);
          break;
        }
        if (state.compacting || this.nextRequestTokens(state) > this.compactAt(state)) {
          await this.compactNow(state, state.compacting ? 'resume' : 'threshold', signal, onEvent);
        }
        await this.addProjectInstructions(state, signal);
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
        await this.setStatus(
          state,
          'stopped',
          exceededBudget(runUsage(state, start, timer.activeMs()), this.deps.budgets()) ?? describe(overTime.signal.reason),
          onEvent,
        );
      } else {
        const reason = userSignal.aborted || error instanceof AbortError ? stopReason(userSignal) : describe(error);
        await this.setStatus(state, 'paused', reason, onEvent);
      }
    } finally {
      stopWatching.abort();
    }
    return state;
  }

  /** The project instructions that now apply and were not sent yet, as an item of the next request (kept in the chain, so sent once). */
  private async addProjectInstructions(state: AgentSessionState, signal: AbortSignal): Promise<void> {
    const text = await this.projectInstructions?.next(state, signal);
    if (text === undefined) return;
    const item = { role: 'developer' as const, content: text };
    state.transcript.push(item);
    state.unsent.push(item);
  }

  /**
   * One request: the unsent items after the last response. When the gateway lost
   * the chain it replays the chain's items, bounded by the threshold; when it says
   * the window was passed it learns the window, trims, and retries once.
   */
  private async requestTurn(state: AgentSessionState, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<CompletionResult> {
    try {
      return await this.streamTurn(state, false, signal, onEvent);
    } catch (error) {
      if (error instanceof ContextLengthExceededError) {
        await this.learnWindow(state, error);
        const before = this.nextRequestTokens(state);
        // The window the gateway named, else the estimate was wrong: aim well under what failed.
        await this.trimChain(state, onEvent, before, error.contextWindow !== undefined ? Math.floor(error.contextWindow * 0.8) : Math.floor(before / 2));
        return await this.streamTurn(state, false, signal, onEvent);
      }
      if (!(error instanceof PreviousResponseNotFoundError) || state.previousResponseId === undefined) throw error;
      this.deps.logger.info(
        `session ${state.id}: the gateway lost response ${state.previousResponseId}; replaying the chain's ${chainItems(state).length} items, bounded`,
      );
      return await this.streamTurn(state, true, signal, onEvent);
    }
  }

  private streamTurn(state: AgentSessionState, replay: boolean, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<CompletionResult> {
    const tools = toolDefinitions(this.deps.tools());
    const input = replay ? trimToFit(chainItems(state), this.threshold(state) - fixedTokens(this.deps.instructions, tools)) : state.unsent;
    state.contextWindow = this.limits(state.model).contextWindow;
    return this.stream(
      state,
      { model: state.model, instructions: this.deps.instructions, tools, input, previousResponseId: replay ? undefined : state.previousResponseId },
      signal,
      onEvent,
      true,
    );
  }

  private async stream(
    state: AgentSessionState,
    params: RespondParams,
    signal: AbortSignal,
    onEvent: (event: AgentEvent) => void,
    shown: boolean,
  ): Promise<CompletionResult> {
    const events = this.deps.client.respondStream(params, {
      signal,
      onRetry: (notice) => onEvent({ type: 'retry', notice }),
      origin: { surface: 'agent', sessionId: state.id },
    });
    const result: CompletionResult = { id: '', model: params.model, text: '', reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined };
    for await (const event of events) {
      if (event.type === 'response') result.id = event.id;
      else if (event.type === 'text') {
        result.text += event.text;
        if (shown) onEvent({ type: 'text', text: event.text });
      } else if (event.type === 'reasoning') {
        result.reasoning += event.text;
        if (shown) onEvent({ type: 'reasoning', text: event.text });
      } else if (event.type === 'tool_call') result.toolCalls.push(event.call);
      else if (event.type === 'usage') result.usage = event.usage;
      else if (event.type === 'done') result.finishReason = event.finishReason;
    }
    return result;
  }

  /** Compacts now (the user's Compact command): a summary, or the trim when no summary can be had. */
  async compact(state: AgentSessionState, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<AgentSessionState> {
    if (state.pendingCalls.length > 0) throw new Error('This session is waiting on a tool call; continue it first, then compact.');
    if (chainItems(state).length === 0) return state;
    const status = state.status;
    const reason = state.statusReason;
    await this.setStatus(state, 'running', undefined, onEvent);
    try {
      await this.compactNow(state, 'manual', signal, onEvent);
    } finally {
      await this.setStatus(state, status === 'running' ? 'paused' : status, reason, onEvent);
    }
    return state;
  }

  private limits(model: string): ModelLimits {
    return this.deps.modelLimits?.(model) ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, source: 'default' };
  }

  /** The most one request may carry. */
  private threshold(state: AgentSessionState): number {
    return requestThreshold(this.limits(state.model).contextWindow, this.deps.tokensPerMinute?.(), this.deps.maxRequestTpmSeconds?.() ?? 30);
  }

  /** The size at which the session compacts: under the threshold by the room the summary request needs. */
  private compactAt(state: AgentSessionState): number {
    const threshold = this.threshold(state);
    return threshold - Math.floor(threshold * SUMMARY_RESERVE_SHARE);
  }

  /** Tokens the next request will carry: the chain the gateway holds plus the new items, or the whole chain when it starts anew. */
  private nextRequestTokens(state: AgentSessionState): number {
    if (state.previousResponseId !== undefined && state.contextTokens !== undefined) return state.contextTokens + tokensOfItems(state.unsent);
    return (
      fixedTokens(this.deps.instructions, toolDefinitions(this.deps.tools())) +
      tokensOfItems(state.previousResponseId !== undefined ? chainItems(state) : state.unsent)
    );
  }

  /**
   * A compaction: the summary as a continuation of the chain (only that short
   * request is uploaded), then a new chain of the summary and the most recent
   * steps. Saved as under way first, so a reload in the middle resumes it.
   */
  private async compactNow(state: AgentSessionState, cause: CompactionCause, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<void> {
    const before = state.compacting?.before ?? this.nextRequestTokens(state);
    state.compacting = { before };
    await this.save(state);
    onEvent({ type: 'compacting' });
    let summary: string | undefined;
    try {
      summary = await this.summarize(state, signal, onEvent);
    } catch (error) {
      if (signal.aborted || error instanceof AbortError) throw error;
      if (error instanceof ContextLengthExceededError) await this.learnWindow(state, error);
      this.deps.logger.warn(`session ${state.id}: the summary failed (${describe(error)}); trimming instead`);
    }
    if (summary === undefined) {
      await this.trimChain(state, onEvent, before);
      return;
    }
    const opening = compactedOpening(state, summary);
    const tools = toolDefinitions(this.deps.tools());
    const budget = this.compactAt(state) - fixedTokens(this.deps.instructions, tools);
    const start = Math.min(recentStart(state.transcript, Math.floor(this.threshold(state) * RECENT_ITEMS_SHARE)), lastStepStart(state));
    const recent = state.transcript.slice(start);
    const items = trimToFit([opening, ...recent], budget);
    // Kept verbatim, the recent steps are recorded as a transcript position rather than copied into the saved chain.
    const verbatim = items.length === recent.length + 1 && recent.every((item, i) => items[i + 1] === item);
    this.startChain(state, items, verbatim ? start : state.transcript.length, verbatim ? [opening] : items);
    this.finishCompaction(state, { before, how: 'summary', summary, cause }, onEvent);
    await this.save(state);
  }

  /** The summary request, or undefined when it would itself pass the threshold. */
  private async summarize(state: AgentSessionState, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<string | undefined> {
    const chained = state.previousResponseId !== undefined && state.contextTokens !== undefined;
    const input = chained
      ? summaryInput(state.unsent)
      : [...trimToFit(chainItems(state), this.compactAt(state) - fixedTokens(this.deps.instructions, [])), ...summaryInput([])];
    const size = chained ? state.contextTokens! + tokensOfItems(input) : fixedTokens(this.deps.instructions, []) + tokensOfItems(input);
    if (size > this.threshold(state)) return undefined;
    const result = await this.stream(
      state,
      {
        model: state.model,
        instructions: this.deps.instructions,
        input,
        previousResponseId: chained ? state.previousResponseId : undefined,
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      },
      signal,
      onEvent,
      false,
    );
    this.addUsage(state, result.usage);
    return result.text.trim() ? result.text : undefined;
  }

  /** The deterministic fallback: a new chain of the chain's items with the oldest tool outputs as one-line notes. */
  private async trimChain(
    state: AgentSessionState,
    onEvent: (event: AgentEvent) => void,
    before = this.nextRequestTokens(state),
    atMost = Infinity,
  ): Promise<void> {
    const budget = Math.min(this.compactAt(state), atMost) - fixedTokens(this.deps.instructions, toolDefinitions(this.deps.tools()));
    const items = trimToFit(chainItems(state), budget);
    this.startChain(state, items, state.transcript.length, items);
    this.finishCompaction(state, { before, how: 'trim', cause: 'threshold' }, onEvent);
    await this.save(state);
  }

  /** Starts a new chain without previous_response_id: `items` are its input, `base` then the transcript from `from` its record. */
  private startChain(state: AgentSessionState, items: ResponseInputItem[], from: number, base: ResponseInputItem[]): void {
    state.chainBase = base;
    state.chainFrom = from;
    state.unsent = items;
    state.previousResponseId = undefined;
    state.contextTokens = undefined;
    // The project instructions went as a developer item of the old chain: a new chain that
    // no longer holds one (a summary replaced it) needs them sent again.
    if (!items.some((item) => 'role' in item && item.role === 'developer')) state.projectInstructions = undefined;
  }

  private finishCompaction(
    state: AgentSessionState,
    done: { before: number; how: Compaction['how']; summary?: string; cause: CompactionCause },
    onEvent: (event: AgentEvent) => void,
  ): void {
    const after = this.nextRequestTokens(state);
    const compaction: Compaction = {
      atItem: state.transcript.length,
      at: this.deps.clock.now(),
      before: done.before,
      after,
      how: done.how,
      ...(done.summary ? { summary: done.summary } : {}),
    };
    state.compactions = [...(state.compactions ?? []), compaction];
    state.compacting = undefined;
    this.deps.logger.info(`session ${state.id}: compacted (${done.cause}, ${done.how}) ${done.before} → ${after} tokens`);
    onEvent({ type: 'compacted', compaction });
  }

  private async learnWindow(state: AgentSessionState, error: ContextLengthExceededError): Promise<void> {
    if (error.contextWindow === undefined) return;
    try {
      await this.deps.learnContextWindow?.(state.model, error.contextWindow);
    } catch (learnError) {
      this.deps.logger.warn(`remembering the context window of ${state.model} failed: ${describe(learnError)}`);
    }
  }

  private addUsage(state: AgentSessionState, usage: Usage | undefined): void {
    if (!usage) return;
    state.usage.inputTokens += usage.inputTokens;
    state.usage.outputTokens += usage.outputTokens;
    state.usage.reasoningTokens += usage.reasoningTokens;
    state.usage.totalTokens += usage.totalTokens;
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
    this.addUsage(state, result.usage);
    state.contextTokens = result.usage ? result.usage.inputTokens + result.usage.outputTokens : undefined;
    return recordCalls(state, result.toolCalls, this.deps.budgets().maxRepeatedCalls);
  }

  /** Runs each pending call in order, saving after each, so a reload resumes at the next one. */
  private async runPendingCalls(state: AgentSessionState, timer: RunTimer, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<void> {
    const changed: string[] = [];
    try {
      await this.runCalls(state, timer, changed, signal, onEvent);
    } finally {
      // Also when the step ended early (stopped, an error): what it changed is a checkpoint all the same.
      if (changed.length > 0) await this.recordCheckpoint(state, changed, onEvent);
    }
  }

  private async recordCheckpoint(state: AgentSessionState, changed: string[], onEvent: (event: AgentEvent) => void): Promise<void> {
    if (!this.deps.checkpoint) return;
    try {
      // Its own signal: a step the user stopped is still recorded (local disk work, bounded by the files the step touched).
      const { checkpoint, dropped } = await this.deps.checkpoint(state, changed, new AbortController().signal);
      onEvent({ type: 'checkpoint', sessionId: state.id, checkpoint, dropped });
    } catch (error) {
      this.deps.logger.warn(`session ${state.id}: the checkpoint of step ${state.turns} could not be recorded: ${describe(error)}`);
    }
  }

  private async runCalls(
    state: AgentSessionState,
    timer: RunTimer,
    changed: string[],
    signal: AbortSignal,
    onEvent: (event: AgentEvent) => void,
  ): Promise<void> {
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
        const policy = this.deps.policy();
        const writePaths = await this.writePaths(prepared, signal);
        const asks = tool.needsApproval ? tool.needsApproval(policy.mode) : needsApproval(policy, tool.kind, prepared.command?.line, writePaths);
        approved = !asks || (await timer.waiting(() => this.ask(state, call, tool, prepared, signal, onEvent)));
        outcome = approved
          ? await this.execute(state, tool, prepared, signal)
          : { ok: false, output: `The user denied this ${deniedWhat[tool.kind]}. Do not retry it; ask or try another way.` };
        if (outcome.ok && outcome.changedPath !== undefined) changed.push(await realPathOf(outcome.changedPath, this.deps.toolContext.files, signal));
      }
      this.answer(state, call, outcome.output);
      if (outcome.plan) state.plan = outcome.plan;
      await this.save(state);
      onEvent({ type: 'tool_finished', call, summary, outcome, approved });
      if (outcome.plan) onEvent({ type: 'plan', plan: outcome.plan });
    }
  }

  /** The path a write names and the one it really leads to: either may be a file that always asks. */
  private async writePaths(prepared: PreparedCall, signal: AbortSignal): Promise<string[]> {
    const path = prepared.preview?.path;
    if (path === undefined) return [];
    const real = await this.deps.toolContext.files.realPathInside(path, signal).catch(() => undefined);
    return real === undefined || real === path ? [path] : [path, real];
  }

  private async ask(
    state: AgentSessionState,
    call: ToolCall,
    tool: AgentTool,
    prepared: PreparedCall,
    signal: AbortSignal,
    onEvent: (event: AgentEvent) => void,
  ): Promise<boolean> {
    const request: ApprovalRequest = {
      sessionId: state.id,
      callId: call.callId,
      toolName: tool.name,
      summary: prepared.summary,
      preview: prepared.preview,
      command: prepared.command,
    };
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
    const maxChars = Math.floor(this.limits(state.model).contextWindow * TOOL_OUTPUT_SHARE * 4);
    const item = { type: 'function_call_output' as const, call_id: call.callId, output: boundedToolOutput(output, maxChars) };
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
function watchTimeBudget(clock: Clock, timer: RunTimer, budgetMs: () => number, overTime: AbortController, stop: AbortSignal): void {
  // A timer beside the run (not a sleep of its own), re-armed until the budget is spent or the run ends.
  const check = () => {
    if (stop.aborted) return;
    const remaining = budgetMs() - timer.activeMs();
    if (remaining <= 0 && !timer.isWaiting) {
      overTime.abort(new AbortError('The run reached its time budget.'));
      return;
    }
    clock.after(timer.isWaiting ? Math.max(remaining, WAITING_RECHECK_MS) : Math.max(remaining, 1), check, stop);
  };
  check();
}

/** Where the last step (the last response's calls and their outputs, or the last message) starts: it stays verbatim. */
function lastStepStart(state: AgentSessionState): number {
  const points = cutPoints(state.transcript);
  return points.length >= 2 ? points[points.length - 2] : 0;
}
const deniedWhat: Record<AgentTool['kind'], string> = { read: 'call', write: 'change', command: 'command', external: 'tool call' };

/** The reason a run was stopped with (a window that closed says so), else the user's Stop. */
function stopReason(signal: AbortSignal): string {
  return signal.aborted && typeof signal.reason === 'string' ? signal.reason : 'Stopped by the user.';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
