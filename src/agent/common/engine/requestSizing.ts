/**
 * How large the session's requests may grow and how large the next one is: the
 * threshold (a share of the model's window, and of the key's tokens per minute),
 * the point where the session compacts, and the estimate of the next request.
 * Apart from the engine because turns, compaction and tool outputs all size by it.
 */
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, type ModelLimits } from '../../../models/common';
import { type AgentTool, toolDefinitions } from '../../../tools/common';
import { chainItems } from './compaction';
import { SUMMARY_RESERVE_SHARE, fixedTokens, requestThreshold, tokensOfItems } from './contextBudget';
import type { AgentSessionState } from '../../../sessionModel/common';

export interface RequestSizingDeps {
  instructions: string;
  /** The tools offered now. */
  tools: () => readonly AgentTool[];
  /** The model's context window and output limit (gateway.models, learned, or the default). */
  modelLimits?: (model: string) => ModelLimits;
  /** The key's tokens per minute as the client knows it now; undefined: no limit. */
  tokensPerMinute?: () => number | undefined;
  /** Seconds of that budget one request may need (default 30). */
  maxRequestTpmSeconds?: () => number;
}

export class RequestSizing {
  constructor(private readonly deps: RequestSizingDeps) {}

  limits(model: string): ModelLimits {
    return this.deps.modelLimits?.(model) ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, source: 'default' };
  }

  /** The most one request may carry. */
  threshold(state: AgentSessionState): number {
    return requestThreshold(this.limits(state.model).contextWindow, this.deps.tokensPerMinute?.(), this.deps.maxRequestTpmSeconds?.() ?? 30);
  }

  /** The size at which the session compacts: under the threshold by the room the summary request needs. */
  compactAt(state: AgentSessionState): number {
    const threshold = this.threshold(state);
    return threshold - Math.floor(threshold * SUMMARY_RESERVE_SHARE);
  }

  /** Tokens the next request will carry: the chain the gateway holds plus the new items, or the whole chain when it starts anew. */
  nextRequestTokens(state: AgentSessionState): number {
    if (state.previousResponseId !== undefined && state.contextTokens !== undefined) return state.contextTokens + tokensOfItems(state.unsent);
    return this.fixedWithTools() + tokensOfItems(state.previousResponseId !== undefined ? chainItems(state) : state.unsent);
  }

  /** The tokens every request carries whatever its input: the instructions and the tools' definitions. */
  fixedWithTools(): number {
    return fixedTokens(this.deps.instructions, toolDefinitions(this.deps.tools()));
  }
}
