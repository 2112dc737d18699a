/** The client's own vocabulary: what callers pass in and what streams give back. */
import { ReasoningEffort, ServiceTier } from '../../settings/common';

import type { RequestOrigin } from '../../usage/common';

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema of the arguments object. */
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

/** `auto` and `none` as the interface defines them; `required` forces some call; `{name}` forces that function. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A chat message as the wire carries it. */
export type ChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface ChatParams {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  serviceTier?: ServiceTier;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

/** Input items of the responses endpoint, as the wire carries them. */
export type ResponseInputItem =
  | { type?: 'message'; role: 'user' | 'assistant' | 'system' | 'developer'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

export interface RespondParams {
  model: string;
  input: string | ResponseInputItem[];
  instructions?: string;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  previousResponseId?: string;
  reasoningEffort?: ReasoningEffort;
  serviceTier?: ServiceTier;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  /** Input tokens served from the Gateway's cache (part of `inputTokens`), when it reports them. */
  cachedTokens?: number;
}

/** `stop`, `length`, `tool_calls`, `content_filter`, or what the gateway said. */
export type FinishReason = string;

export interface ToolCall {
  /** `call_id` on the responses endpoint, `id` on chat completions. */
  callId: string;
  name: string;
  /** The complete JSON text of the arguments. */
  arguments: string;
}

/** What a stream yields, in order: `response` first when known, `done` last. */
export type StreamEvent =
  | { type: 'response'; id: string; model?: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  /**
   * Something the model sent that the client never asked for and does not act on (a hosted tool's call such as
   * `web_search_call`, a custom tool call): shown to the user as `text`, never dropped silently.
   */
  | { type: 'note'; itemType: string; text: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; finishReason: FinishReason };

export interface ModelInfo {
  id: string;
  ownedBy: string;
}

export interface CompletionResult {
  /** The completion's or the response's id (the latter continues a session). */
  id: string;
  model: string;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage | undefined;
}

export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /**
   * `pacing` when the client waits on its own to stay under the limits; `too_large` (no wait)
   * when the request is larger than the key's whole TPM and will likely be refused.
   */
  reason: 'rate_limit' | 'server_error' | 'unavailable' | 'connection' | 'pacing' | 'too_large';
  message: string;
}

export interface CallOptions {
  signal: AbortSignal;
  /** Where the request comes from, for the usage log; absent: VS Code's language-model provider (any other extension). */
  origin?: RequestOrigin;
  /** Told before every wait, so the UI can show a countdown or "retrying". */
  onRetry?: (notice: RetryNotice) => void;
  /** Not asked for by the user (key check, model-list refresh): sent only when it spends no slot a user request waits for, else BackgroundSkippedError. */
  background?: boolean;
}
