/**
 * A model's reasoning ("thinking") as the chat shows it. It is gathered while it
 * streams and shown as one collapsed part per answer (or agent step), opened on
 * demand. Bounded twice: a reasoning stream keeps at most THINKING_SHOWN_CHARS
 * characters (the rest is counted and said to be left out), and only the last
 * THINKING_KEPT parts are kept. Reasoning is only ever shown: it never becomes
 * answer text, so it is not in the chat history a next request sends.
 */

/** Characters of one reasoning stream kept for showing; a longer stream is cut here, and the cut said. */
export const THINKING_SHOWN_CHARS = 20_000;
/** Thinking parts kept for their buttons (older buttons say it is no longer kept). */
export const THINKING_KEPT = 50;

/** One answer's (or agent step's) reasoning as shown: `text` is its first THINKING_SHOWN_CHARS characters. */
export interface ThinkingPart {
  id: number;
  text: string;
  /** Characters the model sent, shown or not. */
  totalChars: number;
}

/** Gathers one reasoning stream, keeping what will be shown and counting the rest. */
export class ThinkingCollector {
  private text = '';
  private totalChars = 0;

  get started(): boolean {
    return this.totalChars > 0;
  }

  add(piece: string): void {
    this.totalChars += piece.length;
    const room = THINKING_SHOWN_CHARS - this.text.length;
    if (room <= 0) return;
    let kept = piece.slice(0, room);
    // Never end on half of a surrogate pair: the cut would show a broken character.
    if (kept.length < piece.length && /[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
    this.text += kept;
  }

  /** What was gathered since the last take (undefined when nothing was), and starts over. */
  take(): Omit<ThinkingPart, 'id'> | undefined {
    if (this.totalChars === 0) return undefined;
    const gathered = { text: this.text, totalChars: this.totalChars };
    this.text = '';
    this.totalChars = 0;
    return gathered;
  }
}

/** The thinking parts shown in this window, the last THINKING_KEPT of them, by id. */
export class ThinkingParts {
  private readonly parts = new Map<number, ThinkingPart>();
  private nextId = 1;

  add(gathered: Omit<ThinkingPart, 'id'>): ThinkingPart {
    const part = { id: this.nextId++, ...gathered };
    this.parts.set(part.id, part);
    for (const id of this.parts.keys()) {
      if (this.parts.size <= THINKING_KEPT) break;
      this.parts.delete(id);
    }
    return part;
  }

  get(id: number): ThinkingPart | undefined {
    return this.parts.get(id);
  }

  /** Oldest first. */
  recent(): ThinkingPart[] {
    return [...this.parts.values()];
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Characters of the reasoning that are not shown. */
export const leftOut = (part: Omit<ThinkingPart, 'id'>): number => part.totalChars - part.text.length;

/** The collapsed part's label: how much thinking there is, and how much of it is not shown. */
export function thinkingTitle(part: Omit<ThinkingPart, 'id'>): string {
  const omitted = leftOut(part);
  return omitted > 0
    ? `Thinking (first ${count(part.text.length)} of ${count(part.totalChars)} characters)`
    : `Thinking (${count(part.totalChars)} characters)`;
}

/** The opened part: the reasoning as the model wrote it, then what was left out. */
export function thinkingDocument(part: Omit<ThinkingPart, 'id'>): string {
  const omitted = leftOut(part);
  const note =
    omitted > 0 ? `\n\n---\n\n_${count(omitted)} more characters of thinking were left out (only the first ${count(part.text.length)} are shown)._\n` : '\n';
  return `${part.text.trim()}${note}`;
}

/** What an old button opens once its part is no longer kept. */
export const THINKING_GONE = `This thinking is no longer kept: only the last ${THINKING_KEPT} are.\n`;
