/** Decodes a chat-completions SSE stream (data-only chunks, then `[DONE]`). */
import type { EventSourceMessage } from 'eventsource-parser';
import { errorFromWire, parseWireError, type ErrorContext } from './errorMapping';
import { ProtocolError } from './errors';
import { parseJsonPayload, pushText, type StreamDecoder } from './sseReader';
import type { FinishReason, StreamEvent } from './types';
import { normaliseUsage } from './usageCounts';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

export class ChatStreamDecoder implements StreamDecoder {
  finished = false;
  private responseId: string | undefined;
  private finishReason: FinishReason | undefined;
  private readonly toolCalls: PartialToolCall[] = [];
  private toolCallsFlushed = false;

  constructor(private readonly errorContext: ErrorContext) {}

  decode(message: EventSourceMessage, out: StreamEvent[]): void {
    const data = message.data;
    if (data === '[DONE]') {
      this.flushToolCalls(out);
      out.push({ type: 'done', finishReason: this.finishReason ?? 'stop' });
      this.finished = true;
      return;
    }
    const chunk = parseJsonPayload(data);
    if (chunk.error !== undefined) throw errorFromWire(parseWireError(chunk), this.errorContext);
    if (this.responseId === undefined && typeof chunk.id === 'string') {
      this.responseId = chunk.id;
      out.push({ type: 'response', id: chunk.id, model: typeof chunk.model === 'string' ? chunk.model : undefined });
    }
    const choices = chunk.choices;
    if (Array.isArray(choices) && choices.length > 0) this.decodeChoice(choices[0] as Record<string, unknown>, out);
    if (chunk.usage != null) {
      const usage = normaliseUsage(chunk.usage);
      if (usage) out.push({ type: 'usage', usage });
    }
  }

  private decodeChoice(choice: Record<string, unknown>, out: StreamEvent[]): void {
    const delta = choice.delta as Record<string, unknown> | undefined;
    if (delta) {
      const content = delta.content;
      if (typeof content === 'string') {
        if (content.length > 0) pushText(out, content);
      } else if (content != null) {
        throw new ProtocolError('The Gateway sent a chat delta whose content is not text. Try again.');
      }
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string' && reasoning.length > 0) out.push({ type: 'reasoning', text: reasoning });
      if (Array.isArray(delta.tool_calls)) this.accumulateToolCalls(delta.tool_calls);
    }
    if (typeof choice.finish_reason === 'string') {
      this.finishReason = choice.finish_reason;
      this.flushToolCalls(out);
    }
  }

  /** Tool calls arrive as fragments keyed by `index`; arguments are concatenated until the choice finishes. */
  private accumulateToolCalls(fragments: unknown[]): void {
    for (const raw of fragments) {
      const fragment = raw as { index?: number; id?: string; function?: { name?: string; arguments?: string } };
      const index = typeof fragment.index === 'number' ? fragment.index : this.toolCalls.length;
      const call = (this.toolCalls[index] ??= { id: '', name: '', arguments: '' });
      if (typeof fragment.id === 'string') call.id = fragment.id;
      if (typeof fragment.function?.name === 'string') call.name += fragment.function.name;
      if (typeof fragment.function?.arguments === 'string') call.arguments += fragment.function.arguments;
    }
  }

  private flushToolCalls(out: StreamEvent[]): void {
    if (this.toolCallsFlushed) return;
    this.toolCallsFlushed = true;
    for (const call of this.toolCalls) {
      if (call) out.push({ type: 'tool_call', call: { callId: call.id, name: call.name, arguments: call.arguments } });
    }
  }
}
