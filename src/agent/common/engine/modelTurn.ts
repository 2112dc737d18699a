/**
 * One turn of a session: the request that sends what is new since the last
 * response (or replays the chain when the gateway lost it), streamed, and its
 * answer folded into the state. Apart from the engine's loop, which decides
 * whether a turn goes at all (budgets, compaction, the spend gate).
 */
import { ContextLengthExceededError, PreviousResponseNotFoundError, type CompletionResult, type GatewayClient } from '../../../gateway/common';
import type { Logger } from '../../../base/common';
import { toolDefinitions, type AgentTool } from '../../../tools/common';
import type { OnAgentEvent } from '../../../sessionModel/common';
import { chainItems } from './compaction';
import { fixedTokens, trimToFit } from './contextBudget';
import { recordCalls } from './loopGuard';
import type { RequestSizing } from './requestSizing';
import { addUsage, streamResponse } from './responseStream';
import type { SessionCompactor } from './sessionCompactor';
import type { AgentSessionState } from '../../../sessionModel/common';

export interface ModelTurnsDeps {
  client: GatewayClient;
  instructions: string;
  tools: () => readonly AgentTool[];
  sizing: RequestSizing;
  compactor: SessionCompactor;
  logger: Logger;
  /** How often the same call may repeat before the loop guard stops the session. */
  maxRepeatedCalls: () => number;
}

export class ModelTurns {
  constructor(private readonly deps: ModelTurnsDeps) {}

  /**
   * One request: the unsent items after the last response. When the gateway lost
   * the chain it replays the chain's items, bounded by the threshold; when it says
   * the window was passed it learns the window, trims, and retries once.
   */
  async request(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<CompletionResult> {
    try {
      return await this.stream(state, false, signal, onEvent);
    } catch (error) {
      if (error instanceof ContextLengthExceededError) {
        await this.deps.compactor.learnWindow(state, error);
        const before = this.deps.sizing.nextRequestTokens(state);
        // The window the gateway named, else the estimate was wrong: aim well under what failed.
        await this.deps.compactor.trimChain(
          state,
          onEvent,
          before,
          error.contextWindow !== undefined ? Math.floor(error.contextWindow * 0.8) : Math.floor(before / 2),
        );
        return await this.stream(state, false, signal, onEvent);
      }
      if (!(error instanceof PreviousResponseNotFoundError) || state.previousResponseId === undefined) throw error;
      this.deps.logger.info(
        `session ${state.id}: the gateway lost response ${state.previousResponseId}; replaying the chain's ${chainItems(state).length} items, bounded`,
      );
      return await this.stream(state, true, signal, onEvent);
    }
  }

  /** Folds a completed response into the state; returns the loop guard's reason to stop, if any. */
  accept(state: AgentSessionState, result: CompletionResult): string | undefined {
    state.previousResponseId = result.id || undefined;
    if (result.text) state.transcript.push({ role: 'assistant', content: result.text });
    for (const call of result.toolCalls) {
      state.transcript.push({ type: 'function_call', call_id: call.callId, name: call.name, arguments: call.arguments });
    }
    state.unsent = [];
    state.pendingCalls = [...result.toolCalls];
    state.turns++;
    addUsage(state, result.usage);
    state.contextTokens = result.usage ? result.usage.inputTokens + result.usage.outputTokens : undefined;
    return recordCalls(state, result.toolCalls, this.deps.maxRepeatedCalls());
  }

  private stream(state: AgentSessionState, replay: boolean, signal: AbortSignal, onEvent: OnAgentEvent): Promise<CompletionResult> {
    const { instructions, sizing } = this.deps;
    const tools = toolDefinitions(this.deps.tools());
    const input = replay ? trimToFit(chainItems(state), sizing.threshold(state) - fixedTokens(instructions, tools)) : state.unsent;
    state.contextWindow = sizing.limits(state.model).contextWindow;
    const params = { model: state.model, instructions, tools, input, previousResponseId: replay ? undefined : state.previousResponseId };
    return streamResponse(this.deps.client, state, params, signal, onEvent, true);
  }
}
