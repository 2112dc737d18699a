/**
 * Decodes a chat-completions SSE stream (data-only chunks, then `[DONE]`), in
 * the dialects real providers send: see chatDelta.ts for the content and
 * reasoning, chatToolCalls.ts for the tool calls. The answer is complete at
 * `[DONE]`, or when the body ends after a finish reason (providers that close
 * the connection without `[DONE]`, or before its blank line).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { decodeDeltaContent } from './chatDelta';
import { ChatToolCalls } from './chatToolCalls';
import { errorFromWire, parseWireError, type ErrorContext } from './errorMapping';
import { parseJsonPayload, type StreamDecoder } from './sseReader';
import { StreamNotes } from './streamNotes';
import type { FinishReason, StreamEvent, Usage } from './types';
import { normaliseUsage } from './usageCounts';

export class ChatStreamDecoder implements StreamDecoder {
  finished = false;
  private responseId: string | undefined;
  private finishReason: FinishReason | undefined;
  private readonly toolCalls = new ChatToolCalls();
  private readonly notes = new StreamNotes();
  /** The last usage sent: some servers send a running count on every chunk, so it is reported once, at the end. */
  private usage: Usage | undefined;

  constructor(private readonly errorContext: ErrorContext) {}

  decode(message: EventSourceMessage, out: StreamEvent[]): void {
    const data = message.data;
    if (data === '[DONE]') {
      this.finish(out);
      return;
    }
    // An event without data (a keep-alive some proxies send) says nothing.
    if (data === '') return;
    const chunk = parseJsonPayload(data);
    if (chunk.error != null) throw errorFromWire(parseWireError(chunk), this.errorContext);
    if (this.responseId === undefined && typeof chunk.id === 'string' && chunk.id !== '') {
      this.responseId = chunk.id;
      out.push({ type: 'response', id: chunk.id, model: typeof chunk.model === 'string' ? chunk.model : undefined });
    }
    const choices = chunk.choices;
    if (Array.isArray(choices)) for (const choice of choices) this.decodeChoice(choice, out);
    this.keepUsage(chunk.usage ?? (chunk.x_groq as { usage?: unknown } | undefined)?.usage);
  }

  /** The body ended before `[DONE]`: the answer is whole if a finish reason came. */
  end(out: StreamEvent[]): void {
    if (this.finishReason !== undefined) this.finish(out);
  }

  private decodeChoice(raw: unknown, out: StreamEvent[]): void {
    if (raw === null || typeof raw !== 'object') return;
    const choice = raw as Record<string, unknown>;
    // One answer is asked for (n = 1); a choice numbered otherwise is not it.
    if (choice.index !== undefined && choice.index !== 0) return;
    const delta = choice.delta;
    if (delta !== null && typeof delta === 'object') {
      decodeDeltaContent(delta as Record<string, unknown>, out);
      const toolCalls = (delta as { tool_calls?: unknown }).tool_calls;
      if (Array.isArray(toolCalls)) this.toolCalls.add(toolCalls);
    }
    // Moonshot and a few others put the usage in the choice.
    this.keepUsage(choice.usage);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
  }

  private keepUsage(raw: unknown): void {
    if (raw == null) return;
    const usage = normaliseUsage(raw);
    if (usage) this.usage = usage;
  }

  private finish(out: StreamEvent[]): void {
    this.toolCalls.finish(out, this.notes);
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'done', finishReason: this.finishReason ?? 'stop' });
    this.finished = true;
  }
}
