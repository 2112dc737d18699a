/**
 * Watches a stream's network reads for the key without running the redaction
 * pattern over every byte: that case-insensitive alternation costs about as
 * much as parsing the stream (V8 tries it at every position), which took the
 * client from 0.95× to 0.8× a bare parser's speed.
 *
 * The prefilter is exact, never a guess: each form of the key has an anchor,
 * four characters of it, lower-cased. Wherever the pattern matches a form, the
 * text holds that form's ASCII characters in some mix of cases, so it holds
 * the anchor ignoring ASCII case. Only a read (or seam) that holds an anchor so
 * is checked with the pattern itself. The anchor starts at
 * the form's character seen least in the stream's start, because
 * `String.prototype.indexOf` skips to each occurrence of an anchor's first
 * character natively: a rare one is passed over at memory speed. Until that
 * start is counted, the anchors are the forms' first ASCII windows (any
 * window is as exact; only the speed differs), chosen once per set of forms:
 * a short answer pays no choosing at all.
 */

/** Characters in an anchor: enough that ordinary text rarely holds one. */
const ANCHOR_CHARS = 4;
/** Characters of the stream's start counted to tell rare characters from common ones. */
export const SAMPLE_CHARS = 4096;

export class StreamKeyWatch {
  /** Characters of the previous reads kept for the seam: a form may start in one read and end in the next. */
  private readonly overlap: number;
  private readonly forms: readonly string[];
  /** One per form; undefined for a form with no ASCII run long enough, which sends every read to the pattern. */
  private anchors: (string | undefined)[] = [];
  /** How often each ASCII character occurred (lower-cased) in the sampled start of the stream. */
  private readonly seen = new Uint32Array(128);
  private sampled = 0;
  private tail = '';

  /** `pattern` matches every form in `forms` case-insensitively (`i` without `u`: ASCII letters match only ASCII letters). */
  constructor(
    private readonly pattern: RegExp,
    forms: readonly string[],
  ) {
    this.overlap = Math.max(0, ...forms.map((form) => form.length - 1));
    this.forms = forms;
    this.anchors = firstAnchors(forms, (form) => this.anchorOf(form));
  }

  /**
   * True when `read`, or the seam between it and the reads before, holds a form
   * of the key. Call with each read in order.
   */
  sees(read: string): boolean {
    if (read === '') return false;
    if (this.sampled < SAMPLE_CHARS) this.learn(read);
    const seam = this.tail + read.slice(0, this.overlap);
    this.tail = read.length >= this.overlap ? read.slice(read.length - this.overlap) : (this.tail + read).slice(-this.overlap);
    return this.holds(read) || this.holds(seam);
  }

  /** True when `text` holds a form of the key; for decoded text, checked whole (see decodedKeyGuard.ts). */
  contains(text: string): boolean {
    if (this.sampled < SAMPLE_CHARS) this.learn(text);
    return this.holds(text);
  }

  private holds(text: string): boolean {
    for (const anchor of this.anchors) {
      if (anchor === undefined || holdsIgnoringAsciiCase(text, anchor)) return this.matches(text);
    }
    return false;
  }

  private matches(text: string): boolean {
    this.pattern.lastIndex = 0;
    const found = this.pattern.test(text);
    this.pattern.lastIndex = 0;
    return found;
  }

  /** Counts the characters of the stream's start; once SAMPLE_CHARS are counted, chooses the anchors with what it learnt. */
  private learn(text: string): void {
    const end = Math.min(text.length, SAMPLE_CHARS - this.sampled);
    for (let i = 0; i < end; i++) {
      const code = lowerAscii(text, i);
      if (code < 128) this.seen[code]++;
    }
    this.sampled += end;
    if (this.sampled === SAMPLE_CHARS) this.anchors = this.forms.map((form) => this.anchorOf(form));
  }

  /**
   * The form's ASCII window of ANCHOR_CHARS characters (the whole form if shorter)
   * that starts with the character seen least, lower-cased. ASCII only: an ASCII
   * character lower-cases to one ASCII character whatever surrounds it, which is
   * what makes the anchor exact; a non-ASCII one may not (a final sigma).
   */
  private anchorOf(form: string): string | undefined {
    const length = Math.min(ANCHOR_CHARS, form.length);
    let best: number | undefined;
    for (let start = 0; start + length <= form.length; start++) {
      if (!isAscii(form, start, length)) continue;
      if (best === undefined || this.seen[lowerAscii(form, start)] < this.seen[lowerAscii(form, best)]) best = start;
    }
    return best === undefined ? undefined : form.slice(best, best + length).toLowerCase();
  }
}

let firstChosen: { forms: readonly string[]; anchors: readonly (string | undefined)[] } | undefined;

/** The anchors before anything is counted (`choose` sees all counts at zero), kept for the last set of forms. */
function firstAnchors(forms: readonly string[], choose: (form: string) => string | undefined): (string | undefined)[] {
  if (firstChosen?.forms !== forms) firstChosen = { forms, anchors: forms.map(choose) };
  return [...firstChosen.anchors];
}

/**
 * True when `text` holds `anchor` (lower-case ASCII) with its letters in any case,
 * which is what the lower-cased text holding it meant, without lower-casing a
 * whole read (a copy of every read): `indexOf` finds each occurrence of the
 * anchor's first character in either case natively, and only those are compared.
 */
function holdsIgnoringAsciiCase(text: string, anchor: string): boolean {
  const first = anchor[0];
  const upper = first.toUpperCase();
  return holdsFrom(text, anchor, first) || (upper !== first && holdsFrom(text, anchor, upper));
}

function holdsFrom(text: string, anchor: string, first: string): boolean {
  const last = text.length - anchor.length;
  for (let at = text.indexOf(first); at !== -1 && at <= last; at = text.indexOf(first, at + 1)) {
    if (restMatches(text, at, anchor)) return true;
  }
  return false;
}

function restMatches(text: string, at: number, anchor: string): boolean {
  for (let i = 1; i < anchor.length; i++) if (lowerAscii(text, at + i) !== anchor.charCodeAt(i)) return false;
  return true;
}

function isAscii(text: string, start: number, length: number): boolean {
  for (let i = start; i < start + length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

function lowerAscii(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 65 && code <= 90 ? code + 32 : code;
}
