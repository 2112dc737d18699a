/**
 * Decodes a responses SSE stream (`event: <type>` + JSON payload, ending with
 * `response.completed`, `response.incomplete` or `response.failed`).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { errorFromWire, parseWireError, type ErrorContext } from './errorMapping';
import { ProtocolError } from './errors';
import { parseJsonPayload, pushText, type StreamDecoder } from './sseReader';
import type { StreamEvent, ToolCall } from './types';
import { normaliseUsage } from './usageCounts';
import { responsesFinishReason } from './wireFormat';

interface PendingCall {
  callId: string;
  name: string;
  arguments: string;
  emitted: boolean;
}

export class ResponsesStreamDecoder implements StreamDecoder {
  finished = false;
  /** Keyed by the item's id, falling back to its output index. */
  private readonly calls = new Map<string, PendingCall>();
  private callCount = 0;

  constructor(private readonly errorContext: ErrorContext) {}

  decode(message: EventSourceMessage, out: StreamEvent[]): void {
    const payload = parseJsonPayload(message.data);
    const type = typeof payload.type === 'string' ? payload.type : message.event;
    switch (type) {
      case 'response.output_text.delta':
        this.text(payload.delta, out);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (typeof payload.delta === 'string' && payload.delta.length > 0) out.push({ type: 'reasoning', text: payload.delta });
        return;
      case 'response.created': {
        const response = payload.response as Record<string, unknown> | undefined;
        if (typeof response?.id === 'string') {
          out.push({ type: 'response', id: response.id, model: typeof response.model === 'string' ? response.model : undefined });
        }
        return;
      }
      case 'response.output_item.added':
        this.itemAdded(payload);
        return;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(itemKey(payload));
        if (call && typeof payload.delta === 'string') call.arguments += payload.delta;
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = this.calls.get(itemKey(payload));
        if (call && typeof payload.arguments === 'string') call.arguments = payload.arguments;
        return;
      }
      case 'response.output_item.done':
        this.itemDone(payload, out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.complete(payload, out);
        return;
      case 'error':
      case 'response.failed':
        throw this.failure(payload);
      default:
        // Unknown and uninteresting events (content_part.*, output_text.done, in_progress…) are ignored.
        return;
    }
  }

  private text(delta: unknown, out: StreamEvent[]): void {
    if (typeof delta !== 'string') throw new ProtocolError('The Gateway sent a text delta that is not text. Try again.');
    if (delta.length === 0) return;
    pushText(out, delta);
  }

  private itemAdded(payload: Record<string, unknown>): void {
    const item = payload.item as Record<string, unknown> | undefined;
    if (item?.type !== 'function_call') return;
    this.calls.set(itemKey(payload), {
      callId: String(item.call_id ?? item.id ?? ''),
      name: String(item.name ?? ''),
      arguments: typeof item.arguments === 'string' ? item.arguments : '',
      emitted: false,
    });
    this.callCount++;
  }

  private itemDone(payload: Record<string, unknown>, out: StreamEvent[]): void {
    const item = payload.item as Record<string, unknown> | undefined;
    if (item?.type !== 'function_call') return;
    const key = itemKey(payload);
    const call = this.calls.get(key) ?? { callId: '', name: '', arguments: '', emitted: false };
    // The finished item is authoritative; the deltas were only a preview.
    if (typeof item.call_id === 'string') call.callId = item.call_id;
    if (typeof item.name === 'string') call.name = item.name;
    if (typeof item.arguments === 'string') call.arguments = item.arguments;
    if (!this.calls.has(key)) {
      this.calls.set(key, call);
      this.callCount++;
    }
    this.emitCall(call, out);
  }

  private complete(payload: Record<string, unknown>, out: StreamEvent[]): void {
    for (const call of this.calls.values()) this.emitCall(call, out);
    const response = (payload.response ?? {}) as Record<string, unknown>;
    const usage = normaliseUsage(response.usage);
    if (usage) out.push({ type: 'usage', usage });
    const incomplete = payload.type === 'response.incomplete' || response.status === 'incomplete';
    out.push({ type: 'done', finishReason: responsesFinishReason(incomplete, response.incomplete_details, this.callCount > 0) });
    this.finished = true;
  }

  private emitCall(call: PendingCall, out: StreamEvent[]): void {
    if (call.emitted) return;
    call.emitted = true;
    const done: ToolCall = { callId: call.callId, name: call.name, arguments: call.arguments };
    out.push({ type: 'tool_call', call: done });
  }

  /** `error` carries `{error: {...}}` (or the four fields flat); `response.failed` carries `response.error`. */
  private failure(payload: Record<string, unknown>): Error {
    const response = payload.response as { error?: unknown } | undefined;
    const wire = payload.type === 'response.failed' ? parseWireError({ error: response?.error ?? {} }) : parseWireError(payload);
    return errorFromWire(wire, { ...this.errorContext, status: undefined });
  }
}

function itemKey(payload: Record<string, unknown>): string {
  const item = payload.item as { id?: unknown } | undefined;
  const id = payload.item_id ?? item?.id;
  return typeof id === 'string' ? id : `#${String(payload.output_index ?? 0)}`;
}
