/**
 * Tool calls of a chat stream, put together from their fragments as providers
 * really number them: `index` from 0 (OpenAI), from any number or with gaps
 * (some servers count across the whole turn), or not at all (Gemini's
 * compatibility layer: a fragment with a new `id` starts a call, one without
 * continues the last); the `id` in the first fragment, a later one, or never
 * (one is made up, so the result can still be sent back). Calls are finished,
 * in the order they began, once the stream has finished: a fragment may follow
 * the finish reason.
 */
import { TextSoFar } from './textSoFar';
import { tooMany } from './streamNotes';
import type { StreamNotes } from './streamNotes';
import type { StreamEvent } from './types';

/** More calls than any model makes in one answer. */
const MAX_CALLS = 128;
/** Characters of arguments over all calls: the size of the answer text the reader allows. */
const MAX_ARGUMENT_CHARS = 8 * 1024 * 1024;
/** A name put together from pieces: real ones are at most 64 characters (OpenAI's rule), a few MCP ones longer. */
const MAX_NAME_CHARS = 1024;

interface PartialCall {
  id: string;
  name: string;
  /** In pieces until the call is finished (see textSoFar.ts). */
  arguments: TextSoFar;
  /** `function`, or the type of a call the client never offered (`custom`…), which becomes a note. */
  kind: string;
}

interface Fragment {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
  custom?: { name?: unknown } | null;
}

export class ChatToolCalls {
  private readonly calls: PartialCall[] = [];
  private readonly byIndex = new Map<number, PartialCall>();
  private readonly byId = new Map<string, PartialCall>();
  private latest: PartialCall | undefined;
  private argumentChars = 0;

  get count(): number {
    return this.calls.length;
  }

  add(fragments: unknown[]): void {
    for (const raw of fragments) {
      if (raw === null || typeof raw !== 'object') continue;
      const fragment = raw as Fragment;
      const call = this.callFor(fragment);
      if (typeof fragment.type === 'string' && fragment.type !== 'function') call.kind = fragment.type;
      const name = fragment.function?.name ?? fragment.custom?.name;
      // A name is sent once, in pieces, or (some servers) whole in every fragment.
      if (typeof name === 'string' && name !== call.name) {
        if (call.name.length + name.length > MAX_NAME_CHARS) throw tooMany('characters in a tool name', MAX_NAME_CHARS);
        call.name += name;
      }
      this.appendArguments(call, fragment.function?.arguments);
    }
  }

  /** Emits every call in the order it began (and a note for each the client never offered); once. */
  finish(out: StreamEvent[], notes: StreamNotes): void {
    for (const [n, call] of this.calls.entries()) {
      if (call.kind !== 'function') notes.unrequested(out, `${call.kind}_tool_call`, call.name || undefined);
      else out.push({ type: 'tool_call', call: { callId: call.id || generatedCallId(n), name: call.name, arguments: call.arguments.toString() } });
    }
    this.calls.length = 0;
  }

  private callFor(fragment: Fragment): PartialCall {
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    const index = typeof fragment.index === 'number' ? fragment.index : undefined;
    let call = index === undefined ? (id === undefined ? this.latest : this.byId.get(id)) : this.byIndex.get(index);
    // A call found by its index but named by another id is a new call reusing the index (servers that number every call 0).
    if (call !== undefined && id !== undefined && call.id !== '' && call.id !== id) call = this.byId.get(id);
    if (call === undefined) call = this.begin();
    if (id !== undefined && call.id === '') {
      call.id = id;
      this.byId.set(id, call);
    }
    if (index !== undefined) this.byIndex.set(index, call);
    this.latest = call;
    return call;
  }

  private begin(): PartialCall {
    if (this.calls.length >= MAX_CALLS) throw tooMany('tool calls', MAX_CALLS);
    const call: PartialCall = { id: '', name: '', arguments: new TextSoFar(), kind: 'function' };
    this.calls.push(call);
    return call;
  }

  /** Arguments come as text in pieces; a few servers send them as a JSON object, whole. */
  private appendArguments(call: PartialCall, value: unknown): void {
    let text: string;
    if (typeof value === 'string') text = value;
    else if (value !== null && typeof value === 'object') text = JSON.stringify(value);
    else return;
    this.argumentChars += text.length;
    if (this.argumentChars > MAX_ARGUMENT_CHARS) throw tooMany('characters of tool-call arguments', MAX_ARGUMENT_CHARS);
    call.arguments.append(text);
  }
}

/** An id for a call the server sent none for: unique enough that its result, sent back, pairs with it alone. */
export function generatedCallId(n: number): string {
  return `call_gw${Math.random().toString(36).slice(2, 10)}${n}`;
}
