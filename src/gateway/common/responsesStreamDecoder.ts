/**
 * Decodes a responses SSE stream (`event: <type>` + JSON payload, ending with
 * `response.completed`, `response.incomplete` or `response.failed`).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { TextSoFar } from './textSoFar';
import { errorFromWire, parseWireError, type ErrorContext } from './errorMapping';
import { ProtocolError } from './errors';
import { pushMerged } from './chatDelta';
import { ResponsesItems } from './responsesItems';
import { parseJsonPayload, pushText, type StreamDecoder } from './sseReader';
import { StreamNotes, tooMany } from './streamNotes';
import type { StreamEvent, ToolCall } from './types';
import { normaliseUsage } from './usageCounts';
import { responsesFinishReason } from './wireFormat';

interface PendingCall {
  callId: string;
  name: string;
  /** In pieces while the deltas come (see textSoFar.ts). */
  arguments: TextSoFar;
  emitted: boolean;
}

export class ResponsesStreamDecoder implements StreamDecoder {
  finished = false;
  /** Keyed by the item's id, falling back to its output index. */
  private readonly calls = new Map<string, PendingCall>();
  private callCount = 0;
  private readonly items = new ResponsesItems();
  private readonly notes = new StreamNotes();
  private lastDeltaItem: unknown = NO_ITEM;
  private argumentChars = 0;

  constructor(private readonly errorContext: ErrorContext) {}

  decode(message: EventSourceMessage, out: StreamEvent[]): void {
    // An event without data (a keep-alive some proxies send) says nothing.
    if (message.data === '') return;
    const payload = parseJsonPayload(message.data);
    const type = typeof payload.type === 'string' ? payload.type : message.event;
    switch (type) {
      case 'response.output_text.delta':
        this.text(payload.delta, out);
        this.sawDelta(payload);
        return;
      case 'response.refusal.delta':
        if (typeof payload.delta === 'string' && payload.delta.length > 0) pushText(out, payload.delta);
        this.sawDelta(payload);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (typeof payload.delta === 'string' && payload.delta.length > 0) pushMerged(out, 'reasoning', payload.delta);
        this.sawDelta(payload);
        return;
      case 'response.reasoning_summary_part.added':
        // The summary's parts are paragraphs: the second and later start a new one.
        if (typeof payload.summary_index === 'number' && payload.summary_index > 0) pushMerged(out, 'reasoning', '\n\n');
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
        if (call && typeof payload.delta === 'string') this.appendArguments(call, payload.delta);
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = this.calls.get(itemKey(payload));
        if (call && typeof payload.arguments === 'string') call.arguments = TextSoFar.of(payload.arguments);
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
    this.addCall(itemKey(payload), {
      callId: String(item.call_id ?? item.id ?? ''),
      name: String(item.name ?? ''),
      arguments: TextSoFar.of(typeof item.arguments === 'string' ? item.arguments : ''),
      emitted: false,
    });
  }

  private addCall(key: string, call: PendingCall): void {
    if (!this.calls.has(key) && this.calls.size >= MAX_CALLS) throw tooMany('tool calls', MAX_CALLS);
    this.calls.set(key, call);
    this.callCount++;
  }

  private appendArguments(call: PendingCall, delta: string): void {
    this.argumentChars += delta.length;
    if (this.argumentChars > MAX_ARGUMENT_CHARS) throw tooMany('characters of tool-call arguments', MAX_ARGUMENT_CHARS);
    call.arguments.append(delta);
  }

  /** Per item, not per delta: consecutive deltas of one item are told to the item list once. */
  private sawDelta(payload: Record<string, unknown>): void {
    const itemId = payload.item_id;
    if (itemId === this.lastDeltaItem) return;
    this.lastDeltaItem = itemId;
    this.items.sawDelta(itemId, payload.output_index);
  }

  private itemDone(payload: Record<string, unknown>, out: StreamEvent[]): void {
    const item = payload.item as Record<string, unknown> | undefined;
    if (item === null || typeof item !== 'object') return;
    if (item.type === 'function_call') {
      this.callDone(item, itemKey(payload), out);
      return;
    }
    const key = this.items.keyOf(payload.item_id ?? item.id, payload.output_index);
    this.items.placed(key, payload.output_index);
    this.items.finished(item, key, out, this.notes);
  }

  private callDone(item: Record<string, unknown>, key: string, out: StreamEvent[]): void {
    const call = this.calls.get(key) ?? { callId: '', name: '', arguments: new TextSoFar(), emitted: false };
    // The finished item is authoritative; the deltas were only a preview.
    if (typeof item.call_id === 'string') call.callId = item.call_id;
    if (typeof item.name === 'string') call.name = item.name;
    if (typeof item.arguments === 'string') call.arguments = TextSoFar.of(item.arguments);
    if (!this.calls.has(key)) this.addCall(key, call);
    this.emitCall(call, out);
  }

  private complete(payload: Record<string, unknown>, out: StreamEvent[]): void {
    const response = (payload.response ?? {}) as Record<string, unknown>;
    if (Array.isArray(response.output)) this.completedOutput(response.output, out);
    for (const call of this.calls.values()) this.emitCall(call, out);
    const usage = normaliseUsage(response.usage);
    if (usage) out.push({ type: 'usage', usage });
    const incomplete = payload.type === 'response.incomplete' || response.status === 'incomplete';
    out.push({ type: 'done', finishReason: responsesFinishReason(incomplete, response.incomplete_details, this.callCount > 0) });
    this.finished = true;
  }

  /**
   * The finished response's output: what no event brought yet (servers that fake streaming send only this
   * event; others leave out an item's events) is taken from it; what came already is not repeated.
   */
  private completedOutput(output: unknown[], out: StreamEvent[]): void {
    for (const [index, raw] of output.entries()) {
      if (raw === null || typeof raw !== 'object') continue;
      const item = raw as Record<string, unknown>;
      const key = this.items.keyOf(item.id, index);
      if (item.type !== 'function_call') this.items.finished(item, key, out, this.notes);
      else if (!this.alreadyEmitted(key, item.call_id)) this.callDone(item, key, out);
    }
  }

  /** A call emitted already, known by its item's key or (an item without an id) by its call id. */
  private alreadyEmitted(key: string, callId: unknown): boolean {
    const known = this.calls.get(key);
    if (known !== undefined) return known.emitted;
    for (const call of this.calls.values()) if (call.emitted && call.callId === callId) return true;
    return false;
  }

  private emitCall(call: PendingCall, out: StreamEvent[]): void {
    if (call.emitted) return;
    call.emitted = true;
    const done: ToolCall = { callId: call.callId, name: call.name, arguments: call.arguments.toString() };
    out.push({ type: 'tool_call', call: done });
  }

  /** `error` carries `{error: {...}}` (or the four fields flat); `response.failed` carries `response.error`. */
  private failure(payload: Record<string, unknown>): Error {
    const response = payload.response as { error?: unknown } | undefined;
    const wire = payload.type === 'response.failed' ? parseWireError({ error: response?.error ?? {} }) : parseWireError(payload);
    return errorFromWire(wire, { ...this.errorContext, status: undefined });
  }
}

/** More calls than any model makes in one answer. */
const MAX_CALLS = 128;
/** Characters of streamed arguments over all calls: the size of the answer text the reader allows. */
const MAX_ARGUMENT_CHARS = 8 * 1024 * 1024;

/** No delta seen yet (distinct from a delta without an item id). */
const NO_ITEM = Symbol('no item');

function itemKey(payload: Record<string, unknown>): string {
  const item = payload.item as { id?: unknown } | undefined;
  const id = payload.item_id ?? item?.id;
  return typeof id === 'string' ? id : `#${String(payload.output_index ?? 0)}`;
}
