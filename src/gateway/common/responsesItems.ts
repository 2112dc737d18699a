/**
 * The output items of a responses stream, as servers really send them: several
 * items (an encrypted reasoning item, then the message), several content parts,
 * the text streamed as deltas or only in the finished item (servers that fake
 * streaming send `response.completed` alone), and items the client never asked
 * for (hosted tools such as `web_search_call`, custom tool calls), which become
 * notes. Text and reasoning are taken from a finished item only when no delta
 * brought them, so nothing is shown twice.
 */
import { pushMerged } from './chatDelta';
import { tooMany, type StreamNotes } from './streamNotes';
import type { StreamEvent } from './types';

/** More output items than any response holds. */
const MAX_ITEMS = 1024;

/** The items the client reads; any other type is one it never asked for. */
const KNOWN_ITEMS = new Set(['message', 'function_call', 'reasoning']);

interface ItemState {
  /** Text or reasoning came as deltas for it (or was taken from it once finished). */
  shown: boolean;
  /** A note was given for it (an item the client never asked for). */
  noted: boolean;
}

export class ResponsesItems {
  private readonly items = new Map<string, ItemState>();
  /** Deltas without an item id cannot be told apart by item: then no finished item's text is taken, lest it repeat. */
  private anonymousDeltas = false;

  /**
   * The key of the item streamed at each output index. Some servers give an item one id in its events and
   * another in `response.completed`'s output (ids rotate): the index tells that it is the same item.
   */
  private readonly keysByIndex = new Map<number, string>();

  /** A text, refusal or reasoning delta for the item `itemId` (if the server named it) at `outputIndex`. */
  sawDelta(itemId: unknown, outputIndex: unknown): void {
    if (typeof itemId !== 'string') {
      this.anonymousDeltas = true;
      return;
    }
    const key = this.keyOf(itemId, outputIndex);
    this.state(key).shown = true;
    this.placed(key, outputIndex);
  }

  /** The item known as `key` was streamed at `outputIndex`. */
  placed(key: string, outputIndex: unknown): void {
    if (typeof outputIndex !== 'number' || this.keysByIndex.has(outputIndex)) return;
    if (this.keysByIndex.size >= MAX_ITEMS) throw tooMany('output items', MAX_ITEMS);
    this.keysByIndex.set(outputIndex, key);
  }

  /** The key of the item named `id` at `outputIndex`: by its id when that is known, else by its place, else its id. */
  keyOf(id: unknown, outputIndex: unknown): string {
    if (typeof id === 'string' && this.items.has(id)) return id;
    const placedKey = typeof outputIndex === 'number' ? this.keysByIndex.get(outputIndex) : undefined;
    return placedKey ?? (typeof id === 'string' ? id : `#${String(outputIndex ?? 0)}`);
  }

  /** A finished item (`response.output_item.done`, or one of `response.completed`'s output): its text if no delta brought it, or a note. */
  finished(item: Record<string, unknown>, key: string, out: StreamEvent[], notes: StreamNotes): void {
    const type = typeof item.type === 'string' ? item.type : 'unknown';
    const state = this.state(key);
    if (!KNOWN_ITEMS.has(type)) {
      if (!state.noted) notes.unrequested(out, type, typeof item.name === 'string' ? item.name : undefined);
      state.noted = true;
      return;
    }
    if (state.shown || this.anonymousDeltas) return;
    state.shown = true;
    if (type === 'message') messageText(item.content, out);
    else if (type === 'reasoning') reasoningText(item, out);
  }

  private state(key: string): ItemState {
    let state = this.items.get(key);
    if (state === undefined) {
      if (this.items.size >= MAX_ITEMS) throw tooMany('output items', MAX_ITEMS);
      state = { shown: false, noted: false };
      this.items.set(key, state);
    }
    return state;
  }
}

/** A message's `output_text` and `refusal` parts, in order. */
function messageText(content: unknown, out: StreamEvent[]): void {
  if (!Array.isArray(content)) return;
  for (const part of content as Record<string, unknown>[]) {
    if (part === null || typeof part !== 'object') continue;
    const text = part.type === 'refusal' ? part.refusal : part.type === 'output_text' || part.type === 'text' ? part.text : undefined;
    if (typeof text === 'string' && text !== '') pushMerged(out, 'text', text);
  }
}

/** A reasoning item's summary parts (or, from servers that send it, its raw reasoning text); encrypted content is never shown. */
function reasoningText(item: Record<string, unknown>, out: StreamEvent[]): void {
  const parts = Array.isArray(item.summary) && item.summary.length > 0 ? item.summary : item.content;
  if (!Array.isArray(parts)) return;
  const texts: string[] = [];
  for (const part of parts as Record<string, unknown>[])
    if (part !== null && typeof part === 'object' && typeof part.text === 'string' && part.text !== '') texts.push(part.text);
  if (texts.length > 0) pushMerged(out, 'reasoning', texts.join('\n\n'));
}
