/**
 * Chat requests that would pass the model's context window lose their oldest
 * turns, whole, before they are sent: a long `@gateway` conversation or a
 * language-model request from another extension gets an answer and a note,
 * never a 400. System messages and the newest turn always stay.
 */
import { ContextLengthExceededError, type CallOptions, type ChatMessage, type ChatParams, type StreamEvent } from '../../gateway/common';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, type ModelWindows } from './modelWindows';
import { estimateTokens } from './languageModelMessages';
import type { ModelEndpoints } from './modelEndpoints';

export interface FittedMessages {
  messages: ChatMessage[];
  /** Messages left out (0: the conversation fit as it was). */
  dropped: number;
}

/**
 * The messages within `budget` tokens: the oldest turns (a user message and
 * everything up to the next one, so tool calls keep their results) are dropped first.
 */
export function fitMessages(messages: readonly ChatMessage[], budget: number): FittedMessages {
  if (estimateTokens(messages) <= budget) return { messages: [...messages], dropped: 0 };
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer');
  const rest = messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
  const turnStarts = rest.flatMap((m, i) => (m.role === 'user' && i > 0 ? [i] : []));
  const fixed = estimateTokens(system);
  for (const start of turnStarts) {
    const kept = rest.slice(start);
    if (fixed + estimateTokens(kept) <= budget) return { messages: [...system, ...kept], dropped: start };
  }
  const last = turnStarts.at(-1) ?? 0;
  return { messages: [...system, ...rest.slice(last)], dropped: last };
}

export function droppedNote(dropped: number): string {
  return `_${dropped} earlier message${dropped === 1 ? '' : 's'} of this conversation left out to fit the model's context window._`;
}

/** Input tokens a chat request may carry: the window less the room for the answer. */
export function chatInputBudget(contextWindow: number, maxOutputTokens: number): number {
  return Math.max(256, contextWindow - Math.min(maxOutputTokens, Math.floor(contextWindow / 2)));
}

/**
 * Streams a chat request fitted to the model's window. When the gateway still
 * answers context_length_exceeded before any output (the window was unknown or
 * wrong), it learns the window the gateway named and sends the shorter
 * conversation once more: the user sees an answer and a note, not the 400.
 */
export async function* streamFitted(
  endpoints: ModelEndpoints,
  params: ChatParams,
  windows: ModelWindows | undefined,
  call: CallOptions,
  onDropped: (dropped: number, contextWindow: number) => void,
): AsyncGenerator<StreamEvent, void, undefined> {
  for (let attempt = 0; ; attempt++) {
    const limits = windows?.limitsOf(params.model) ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS };
    const fitted = fitMessages(params.messages, chatInputBudget(limits.contextWindow, params.maxTokens ?? limits.maxOutputTokens));
    if (fitted.dropped > 0) onDropped(fitted.dropped, limits.contextWindow);
    let started = false;
    try {
      for await (const event of endpoints.stream({ ...params, messages: fitted.messages }, call)) {
        started = true;
        yield event;
      }
      return;
    } catch (error) {
      const learnable = error instanceof ContextLengthExceededError && error.contextWindow !== undefined && error.contextWindow < limits.contextWindow;
      if (!learnable || started || attempt > 0 || !windows) throw error;
      await windows.learn(params.model, error.contextWindow!);
    }
  }
}
