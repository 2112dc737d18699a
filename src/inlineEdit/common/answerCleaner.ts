/**
 * Turns the model's answer to an inline edit into the replacement code, while it streams.
 *
 * The model is asked for bare code, but answers sometimes arrive wrapped:
 *   - "```ts\n…\n```"                                → the code inside the fence
 *   - "Here is the code:\n```ts\n…\n```\nThis …"     → the code inside the fence; prose before and after is dropped
 *   - "…" (no fence)                                 → passed through
 *
 * Rules, applied line by line (so chunking never changes the result):
 *   - Before any code: blank lines and prose-looking lines ("Here is the code:", "Sure!") are held back.
 *     A fence line then opens the code (the held lines are dropped); any other line means the answer is
 *     bare code, and everything held is released. Prose-looking lines are held for at most a few lines.
 *   - Inside the fence, a bare fence line at least as long as the opening one tentatively closes it.
 *     What follows is held: another bare closing fence means the first one was part of the code
 *     (e.g. a ``` line inside a string), so the held text is released; a prose line or a fence with a
 *     language means the answer has moved on, and the rest is dropped.
 *   - Inside the fence, a fence with a language opens an inner block (a ```js example in a string or a
 *     Markdown answer): the next bare fence closes that block and is code, not the answer's end.
 *   - In Markdown-like files, a fence with a language other than markdown is content, not a wrapper
 *     ("To install, run:\n```sh…" is the new text); and when the selection has fences of its own,
 *     only a fence longer than those (e.g. ```` around ```) is taken for the answer's wrapper.
 *   - The trailing newline follows the selection's: added when it had one, removed when it did not.
 *
 * `push` returns only text that no later input can take back; it holds back a line that may still turn
 * out to be a closing fence, prose that may precede a fence, and line breaks that may end the answer.
 */

export interface CodeAnswerCleanerOptions {
  /** The text being replaced: its trailing newline decides the answer's. Without it the newline is left alone. */
  selection?: string;
  /** The document's language id; matters for Markdown, whose own fences are content. */
  languageId?: string;
}

type Mode =
  /** Nothing but blank lines so far. */
  | 'start'
  /** Prose-looking lines so far: a preamble before a fence, or the start of a bare answer. */
  | 'preamble'
  /** A bare answer: everything is code. */
  | 'passthrough'
  /** Inside the answer's fence. */
  | 'fenced'
  /** After a line that may be the closing fence. */
  | 'afterClose'
  /** The fence has closed for good; the rest is dropped. */
  | 'closed';

/** Prose-looking lines held before deciding the answer is bare text after all. */
const MAX_PREAMBLE_LINES = 4;
const MAX_PREAMBLE_CHARS = 1000;

const MARKDOWN_LIKE = new Set(['markdown', 'mdx', 'quarto', 'rmd']);

const FENCE_OPENING = /^ {0,3}(`{3,})[ \t]*([^`]*?)[ \t\r]*$/;
const FENCE_BARE = /^ {0,3}(`{3,})[ \t\r]*$/;
/** Every prefix of a bare fence line matches this (and nothing that could not become one). */
const FENCE_BARE_PREFIX = /^ {0,3}`*[ \t\r]*$/;
/** A fence glued to the end of the last code line: "foo();```". */
const GLUED_FENCE = /`+[ \t\r]*$/;
/** First characters a preamble line may start with. */
const PROSE_START = /^[\p{L}`*#]/u;

export class CodeAnswerCleaner {
  private mode: Mode = 'start';
  /** The current line, not yet ended by a newline. */
  private pending = '';
  /** How much of `pending` has been shown already. */
  private pendingShown = 0;
  /** Lines held back (preamble, or a tentative closing fence and what follows it). */
  private held = '';
  private preambleLines = 0;
  private fenceTicks = 0;
  /** Inside the answer's fence, an inner block opened by a fence with a language is open. */
  private innerBlockOpen = false;
  private readonly minFenceTicks: number;
  private readonly markdownLike: boolean;
  private readonly trailingNewline: 'keep' | 'add' | 'strip';
  private readonly eol: string;
  /** Line breaks at the end of the output, held while they may still be the answer's last characters. */
  private heldBreaks = '';
  private shownAny = false;
  private shownEndsWithNewline = false;
  private finished = false;

  /** `selection` may be the replaced text itself, or options. */
  constructor(selection?: string | CodeAnswerCleanerOptions) {
    const options: CodeAnswerCleanerOptions = typeof selection === 'string' ? { selection } : (selection ?? {});
    const original = options.selection;
    if (original === undefined) this.trailingNewline = 'keep';
    else this.trailingNewline = original.endsWith('\n') ? 'add' : 'strip';
    this.eol = original?.endsWith('\r\n') ? '\r\n' : '\n';
    this.minFenceTicks = 3;
    this.markdownLike = MARKDOWN_LIKE.has(options.languageId ?? '');
    if (original !== undefined && this.markdownLike) {
      for (const match of original.matchAll(/^ {0,3}(`{3,})/gm)) this.minFenceTicks = Math.max(this.minFenceTicks, match[1].length + 1);
    }
  }

  /** True once the answer's code block has closed and prose followed: nothing more will be shown, so the stream may be stopped. */
  get done(): boolean {
    return this.mode === 'closed';
  }

  /** Feeds the next piece of the answer; returns the text that can be shown now (appended to what came before). */
  push(delta: string): string {
    if (this.finished || delta === '') return '';
    this.pending += delta;
    let raw = '';
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      raw += this.line(this.pending.slice(0, newline + 1), true);
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    raw += this.partial();
    return this.show(raw);
  }

  /** Ends the answer; returns the rest of the replacement. Further calls return ''. */
  finish(): string {
    if (this.finished) return '';
    let raw = '';
    if (this.pending !== '') raw += this.line(this.pending, false);
    this.pending = '';
    if (this.mode === 'start' || this.mode === 'preamble') raw += this.held; // no fence came: the answer is bare
    this.held = '';
    let out = this.show(raw);
    this.finished = true;
    this.heldBreaks = ''; // 'strip': the answer's trailing line breaks go
    if (this.trailingNewline === 'add' && this.shownAny && !this.shownEndsWithNewline) out += this.eol;
    return out;
  }

  /** A whole line (with its newline, unless it is the answer's last): returns the code it releases. */
  private line(line: string, terminated: boolean): string {
    const shown = this.pendingShown;
    this.pendingShown = 0;
    const content = terminated ? line.slice(0, -1) : line;
    switch (this.mode) {
      case 'start':
      case 'preamble': {
        if (content.trim() === '') {
          this.held += line;
          return '';
        }
        const opening = FENCE_OPENING.exec(content);
        if (opening && opening[1].length >= this.minFenceTicks && this.wraps(opening[2])) {
          this.mode = 'fenced';
          this.fenceTicks = opening[1].length;
          this.held = '';
          return '';
        }
        if (looksLikeProse(content)) {
          this.mode = 'preamble';
          this.held += line;
          this.preambleLines++;
          if (this.preambleLines > MAX_PREAMBLE_LINES || this.held.length > MAX_PREAMBLE_CHARS) return this.release();
          return '';
        }
        return this.release() + line.slice(shown);
      }
      case 'passthrough':
        return line.slice(shown);
      case 'fenced': {
        if (this.innerBlockOpen || FENCE_OPENING.exec(content)?.[2]) {
          // An inner block's opening or closing fence: a line of the code.
          if (this.innerBlockOpen ? FENCE_BARE.test(content) : true) this.innerBlockOpen = !this.innerBlockOpen;
          return line.slice(shown);
        }
        if (isClosingFence(content, this.fenceTicks)) {
          this.mode = 'afterClose';
          this.held = line;
          return '';
        }
        if (!terminated) {
          const glued = GLUED_FENCE.exec(content);
          if (glued && glued[0].trim().length >= this.fenceTicks) return content.slice(shown, glued.index);
        }
        return line.slice(shown);
      }
      case 'afterClose': {
        if (isClosingFence(content, this.fenceTicks)) {
          // Another closing fence: the one held was a line of the code.
          const released = this.held;
          this.held = line;
          return released;
        }
        const opening = FENCE_OPENING.exec(content);
        if ((opening && opening[2] !== '') || looksLikeProse(content)) {
          this.mode = 'closed';
          this.held = '';
          return '';
        }
        this.held += line;
        return '';
      }
      case 'closed':
        return '';
    }
  }

  /** Whether a fence with this info string wraps the answer (rather than being part of it). */
  private wraps(info: string): boolean {
    if (!this.markdownLike) return true;
    return info === '' || /^(markdown|md)$/i.test(info);
  }

  /** What of the unfinished current line can be shown already. */
  private partial(): string {
    const text = this.pending;
    if (text === '') return '';
    switch (this.mode) {
      case 'start':
      case 'preamble':
        if (!isCodeAlready(text)) return '';
        this.pendingShown = text.length;
        return this.release() + text;
      case 'passthrough': {
        const out = text.slice(this.pendingShown);
        this.pendingShown = text.length;
        return out;
      }
      case 'fenced': {
        if (FENCE_BARE_PREFIX.test(text)) return '';
        const glued = GLUED_FENCE.exec(text);
        const safe = glued ? glued.index : text.length;
        if (safe <= this.pendingShown) return '';
        const out = text.slice(this.pendingShown, safe);
        this.pendingShown = safe;
        return out;
      }
      default:
        return '';
    }
  }

  /** The answer is bare code: show what was held. */
  private release(): string {
    this.mode = 'passthrough';
    const held = this.held;
    this.held = '';
    return held;
  }

  /** Applies the trailing-newline rule to text about to be shown. */
  private show(raw: string): string {
    let text = raw;
    if (this.trailingNewline === 'strip' && text !== '') {
      text = this.heldBreaks + text;
      const breaks = /[\r\n]+$/.exec(text);
      this.heldBreaks = breaks ? breaks[0] : '';
      if (breaks) text = text.slice(0, breaks.index);
    }
    if (text !== '') {
      this.shownAny = true;
      this.shownEndsWithNewline = text.endsWith('\n');
    }
    return text;
  }
}

/** The replacement code in a whole answer: the same rules as {@link CodeAnswerCleaner}. */
export function cleanCodeAnswer(full: string, selection?: string | CodeAnswerCleanerOptions): string {
  const cleaner = new CodeAnswerCleaner(selection);
  return cleaner.push(full) + cleaner.finish();
}

function isClosingFence(content: string, ticks: number): boolean {
  const match = FENCE_BARE.exec(content);
  return match !== null && match[1].length >= ticks;
}

/**
 * A line a model writes around code rather than code: unindented, starting with a letter (or `, *, #),
 * free of `;{}=`, and ending like a sentence or a lead-in ("Here is the updated function:").
 */
function looksLikeProse(content: string): boolean {
  const line = content.replace(/[ \t\r]+$/, '');
  if (!PROSE_START.test(line) || line.startsWith('```')) return false;
  if (/[;{}=]/.test(line)) return false;
  return /[:.!?](\*\*|__)?$/.test(line);
}

/**
 * Whether an unfinished line is already known to be code (neither prose nor a fence), whatever follows.
 * Agrees with the whole-line rules: a line this accepts is never a fence and never prose-looking.
 */
function isCodeAlready(text: string): boolean {
  const indent = /^[ \t]*/.exec(text)?.[0] ?? '';
  const rest = text.slice(indent.length);
  if (rest.trim() === '') return false;
  if (rest.startsWith('`')) return indent.length > 3 || indent.includes('\t');
  if (indent.length > 0) return true;
  if (/[;{}=]/.test(rest)) return true;
  return !PROSE_START.test(rest);
}
