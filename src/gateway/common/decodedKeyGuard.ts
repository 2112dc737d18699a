/**
 * Keeps the key out of the text a stream yields once decoded. The check on the
 * network reads (streamKeyWatch.ts) cannot see a key the server JSON-escaped
 * (`\u0067w_…` holds no raw form of it) nor one split over two deltas (never
 * contiguous on the wire). So each text channel is checked again after
 * decoding, the way an LLM client handles a stop sequence: a form found in the
 * held-back text plus the new delta is replaced, and the trailing characters
 * that could still be the start of a form are held until the next delta shows
 * they are not (or the stream ends). A normal stream holds back nothing or a
 * couple of characters; a key sent a character at a time never shows whole.
 *
 * Text events are checked per network read (the reader merges a read's deltas
 * into one event), so the cost is per read, not per token.
 */
import { TextSoFar } from './textSoFar';
import type { StreamKeyWatch } from './streamKeyWatch';
import type { StreamEvent, ToolCall } from './types';

/** What the guard needs of the exchange's redactor. */
export interface KeyForms {
  /** Every form of the key (case is ignored). */
  readonly forms: readonly string[];
  /** A fresh exact check for a form anywhere in a text (see streamKeyWatch.ts). */
  watch(): StreamKeyWatch;
  /** The text with every form replaced. */
  redact(text: string): string;
}

export class DecodedKeyGuard {
  /** Set once decoded text held a form of the key. */
  sawKey = false;
  private readonly answer: HeldText;
  private readonly reasoning: HeldText;
  /** The answer text yielded so far: the partial text an error carries (in pieces: a read's text each, see textSoFar.ts). */
  private readonly shown = new TextSoFar();
  private readonly watch: StreamKeyWatch;
  private readonly shortest: number;

  constructor(private readonly key: KeyForms) {
    this.watch = key.watch();
    this.shortest = Math.min(...key.forms.map((form) => form.length));
    const starts = KeyStarts.of(key.forms);
    this.answer = new HeldText(this, starts);
    this.reasoning = new HeldText(this, starts);
  }

  /** Text the user may see and save: the answer yielded so far plus what is still held (the stream ends with the error that asks). */
  get partialText(): string {
    return this.shown.toString() + this.answer.held;
  }

  /** Appends one read's events to `into`, their text checked and what might start the key held back; `done` first releases what is held. */
  screen(events: readonly StreamEvent[], into: StreamEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'text': {
          const text = this.answer.push(event.text);
          this.shown.append(text);
          if (text !== '') into.push({ type: 'text', text });
          break;
        }
        case 'reasoning': {
          const text = this.reasoning.push(event.text);
          if (text !== '') into.push({ type: 'reasoning', text });
          break;
        }
        case 'tool_call':
          into.push({ type: 'tool_call', call: this.cleanCall(event.call) });
          break;
        case 'response':
          into.push(
            event.model === undefined ? { ...event, id: this.clean(event.id) } : { ...event, id: this.clean(event.id), model: this.clean(event.model) },
          );
          break;
        case 'note':
          into.push({ type: 'note', itemType: this.clean(event.itemType), text: this.clean(event.text) });
          break;
        case 'done':
          this.release(into);
          into.push(event);
          break;
        default:
          into.push(event);
      }
    }
  }

  /** `text` with every form of the key replaced; the exact prefilter first, so clean text costs a lower-casing and a few `includes`. */
  clean(text: string): string {
    if (text.length < this.shortest || !this.watch.contains(text)) return text;
    this.sawKey = true;
    return this.key.redact(text);
  }

  private cleanCall(call: ToolCall): ToolCall {
    return { callId: this.clean(call.callId), name: this.clean(call.name), arguments: this.clean(call.arguments) };
  }

  /** The end of the stream: what was held is not the key after all. */
  private release(into: StreamEvent[]): void {
    const reasoning = this.reasoning.release();
    if (reasoning !== '') into.push({ type: 'reasoning', text: reasoning });
    const text = this.answer.release();
    this.shown.append(text);
    if (text !== '') into.push({ type: 'text', text });
  }
}

/** One channel's held-back tail. */
class HeldText {
  held = '';

  constructor(
    private readonly guard: DecodedKeyGuard,
    private readonly starts: KeyStarts,
  ) {}

  /**
   * The part of the held text plus `delta` that is safe to show now. No form can
   * start in text already shown: its start would have been held.
   */
  push(delta: string): string {
    const text = this.guard.clean(this.held + delta);
    const cut = this.starts.heldFrom(text);
    this.held = cut === text.length ? '' : text.slice(cut);
    return cut === text.length ? text : text.slice(0, cut);
  }

  release(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** Finds where a text's tail could be the start of a form of the key, comparing characters as the `i` flag does. */
class KeyStarts {
  /** Built once per set of forms (the redactor keeps one set per key), not per request. */
  private static last: { forms: readonly string[]; starts: KeyStarts } | undefined;

  static of(forms: readonly string[]): KeyStarts {
    if (KeyStarts.last?.forms !== forms) KeyStarts.last = { forms, starts: new KeyStarts(forms) };
    return KeyStarts.last.starts;
  }

  private readonly forms: number[][];
  /** Canonical first characters of the forms, for a quick skip of positions that start none. */
  private readonly firsts: Set<number>;
  private readonly longest: number;

  constructor(forms: readonly string[]) {
    const unique = new Map<string, number[]>();
    for (const form of forms) {
      const codes = [...Array(form.length).keys()].map((i) => canonical(form.charCodeAt(i)));
      unique.set(codes.join(','), codes);
    }
    this.forms = [...unique.values()];
    this.firsts = new Set(this.forms.map((codes) => codes[0]));
    this.longest = Math.max(...this.forms.map((codes) => codes.length));
  }

  /** The start of the longest tail of `text` that a form begins with (shorter than the form); `text.length` when none. */
  heldFrom(text: string): number {
    for (let at = Math.max(0, text.length - this.longest + 1); at < text.length; at++) {
      if (this.firsts.has(canonical(text.charCodeAt(at))) && this.formStartsWith(text, at)) return at;
    }
    return text.length;
  }

  private formStartsWith(text: string, at: number): boolean {
    const length = text.length - at;
    return this.forms.some((codes) => {
      if (codes.length <= length) return false;
      for (let i = 0; i < length; i++) if (canonical(text.charCodeAt(at + i)) !== codes[i]) return false;
      return true;
    });
  }
}

/**
 * The character as a case-insensitive RegExp without `u` compares it: upper-cased
 * when that is one character and does not turn a non-ASCII one into ASCII.
 */
function canonical(code: number): number {
  if (code < 128) return code >= 97 && code <= 122 ? code - 32 : code;
  const upper = String.fromCharCode(code).toUpperCase();
  if (upper.length !== 1) return code;
  const result = upper.charCodeAt(0);
  return result < 128 ? code : result;
}
