/**
 * A session's compaction, the engine's answer to a chain grown near its threshold
 * (see compaction.ts, contextBudget.ts): the model summarises the chain, and a new
 * chain starts from the summary and the most recent steps; when no summary can be
 * had, the chain is trimmed instead. Apart from the engine's turn loop, which only
 * decides when.
 */
import { AbortError, ContextLengthExceededError, type GatewayClient, type ResponseInputItem } from '../../../gateway/common';
import type { Clock, Logger } from '../../../base/common';
import { SUMMARY_MAX_OUTPUT_TOKENS, chainItems, compactedOpening, summaryInput } from './compaction';
import { RECENT_ITEMS_SHARE, cutPoints, fixedTokens, recentStart, tokensOfItems, trimToFit } from './contextBudget';
import { errorMessage, type OnAgentEvent } from '../../../sessionModel/common';
import type { RequestSizing } from './requestSizing';
import { addUsage, streamResponse } from './responseStream';
import type { SessionProgress } from '../sessions/sessionProgress';
import type { AgentSessionState, Compaction } from '../../../sessionModel/common';

/** Why compact: the threshold was reached, the user asked, or a reload interrupted one. */
export type CompactionCause = 'threshold' | 'manual' | 'resume';

export interface SessionCompactorDeps {
  client: GatewayClient;
  instructions: string;
  sizing: RequestSizing;
  progress: SessionProgress;
  clock: Clock;
  logger: Logger;
  /** Remembers the window the gateway named in a context_length_exceeded answer. */
  learnContextWindow?: (model: string, contextWindow: number) => Promise<void>;
}

export class SessionCompactor {
  constructor(private readonly deps: SessionCompactorDeps) {}

  /**
   * A compaction: the summary as a continuation of the chain (only that short
   * request is uploaded), then a new chain of the summary and the most recent
   * steps. Saved as under way first, so a reload in the middle resumes it.
   */
  async compact(state: AgentSessionState, cause: CompactionCause, signal: AbortSignal, onEvent: OnAgentEvent): Promise<void> {
    const { sizing, progress } = this.deps;
    const before = state.compacting?.before ?? sizing.nextRequestTokens(state);
    state.compacting = { before };
    await progress.save(state);
    onEvent({ type: 'compacting' });
    const summary = await this.summaryOrNothing(state, signal, onEvent);
    if (summary === undefined) {
      await this.trimChain(state, onEvent, before);
      return;
    }
    const opening = compactedOpening(state, summary);
    const budget = sizing.compactAt(state) - sizing.fixedWithTools();
    const start = Math.min(recentStart(state.transcript, Math.floor(sizing.threshold(state) * RECENT_ITEMS_SHARE)), lastStepStart(state));
    const recent = state.transcript.slice(start);
    const items = trimToFit([opening, ...recent], budget);
    // Kept verbatim, the recent steps are recorded as a transcript position rather than copied into the saved chain.
    const verbatim = items.length === recent.length + 1 && recent.every((item, i) => items[i + 1] === item);
    this.startChain(state, items, verbatim ? start : state.transcript.length, verbatim ? [opening] : items);
    this.finish(state, { before, how: 'summary', summary, cause }, onEvent);
    await progress.save(state);
  }

  /** The deterministic fallback: a new chain of the chain's items with the oldest tool outputs as one-line notes. */
  async trimChain(state: AgentSessionState, onEvent: OnAgentEvent, before = this.deps.sizing.nextRequestTokens(state), atMost = Infinity): Promise<void> {
    const budget = Math.min(this.deps.sizing.compactAt(state), atMost) - this.deps.sizing.fixedWithTools();
    const items = trimToFit(chainItems(state), budget);
    this.startChain(state, items, state.transcript.length, items);
    this.finish(state, { before, how: 'trim', cause: 'threshold' }, onEvent);
    await this.deps.progress.save(state);
  }

  async learnWindow(state: AgentSessionState, error: ContextLengthExceededError): Promise<void> {
    if (error.contextWindow === undefined) return;
    try {
      await this.deps.learnContextWindow?.(state.model, error.contextWindow);
    } catch (learnError) {
      this.deps.logger.warn(`remembering the context window of ${state.model} failed: ${errorMessage(learnError)}`);
    }
  }

  /** The summary, or undefined when it failed for any reason but a stop (the trim then stands in). */
  private async summaryOrNothing(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<string | undefined> {
    try {
      return await this.summarize(state, signal, onEvent);
    } catch (error) {
      if (signal.aborted || error instanceof AbortError) throw error;
      if (error instanceof ContextLengthExceededError) await this.learnWindow(state, error);
      this.deps.logger.warn(`session ${state.id}: the summary failed (${errorMessage(error)}); trimming instead`);
      return undefined;
    }
  }

  /** The summary request, or undefined when it would itself pass the threshold. */
  private async summarize(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<string | undefined> {
    const { sizing, instructions } = this.deps;
    const chained = state.previousResponseId !== undefined && state.contextTokens !== undefined;
    const input = chained
      ? summaryInput(state.unsent)
      : [...trimToFit(chainItems(state), sizing.compactAt(state) - fixedTokens(instructions, [])), ...summaryInput([])];
    const size = chained ? state.contextTokens! + tokensOfItems(input) : fixedTokens(instructions, []) + tokensOfItems(input);
    if (size > sizing.threshold(state)) return undefined;
    const params = {
      model: state.model,
      instructions,
      input,
      previousResponseId: chained ? state.previousResponseId : undefined,
      maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
    };
    const result = await streamResponse(this.deps.client, state, params, signal, onEvent, false);
    addUsage(state, result.usage);
    return result.text.trim() ? result.text : undefined;
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

  private finish(
    state: AgentSessionState,
    done: { before: number; how: Compaction['how']; summary?: string; cause: CompactionCause },
    onEvent: OnAgentEvent,
  ): void {
    const after = this.deps.sizing.nextRequestTokens(state);
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
}

/** Where the last step (the last response's calls and their outputs, or the last message) starts: it stays verbatim. */
function lastStepStart(state: AgentSessionState): number {
  const points = cutPoints(state.transcript);
  return points.length >= 2 ? points[points.length - 2] : 0;
}
