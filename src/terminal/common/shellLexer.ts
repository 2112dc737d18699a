/**
 * A shell text read once as bash reads its words, without running anything: quotes (single, double, bash's ANSI-C
 * `$'…'` decoded by bash's rules, `$"…"` as double quotes), backslashes, comments, the operators, and each expansion
 * (`$name`, `${…}`, `$(…)`, backquotes, `$((…))`) kept as a part of its word rather than a break in it. What reads a
 * hook's paths and what splits a hook's line for its approval (shellWords.ts) both take their words from here, so a
 * path is one spelling to both, and no regular expression over the raw text pairs a quote the shell does not.
 * Bounded: MAX_SHELL_TEXT characters read, MAX_NESTING expansions deep; past either the result says it is incomplete.
 */

/** Literal text of a word and how it was quoted (`none`: bare; `ansi`: `$'…'`, already decoded). */
export interface TextPart {
  kind: 'text';
  text: string;
  quoting: 'none' | 'single' | 'double' | 'ansi';
}

/** An expansion whose value is known only when the shell runs: its spelling as written (`$x`, `${x:-y}`, `$(cmd)`). */
export interface ExpansionPart {
  kind: 'expansion';
  spelling: string;
  type: 'parameter' | 'command' | 'arithmetic';
}

export type WordPart = TextPart | ExpansionPart;

export interface LexedWord {
  parts: WordPart[];
  /** It follows `>` or `>>`: a file the command writes. */
  written?: boolean;
  /** Where it was read inside another word: a command substitution's command (`$(sh x.sh)`) or a `${…}`'s operand. */
  nested?: 'command' | 'parameter';
}

export interface Lexed {
  words: LexedWord[];
  /** False when a bound cut the reading short: what the rest says is not known. */
  complete: boolean;
}

/** The longest text read (a hook's line or a followed file is far shorter; the review reads 64 KB a file). */
export const MAX_SHELL_TEXT = 1024 * 1024;
/** How deep expansions nest (`$(a $(b $(c)))`) before the reading stops as incomplete. */
export const MAX_NESTING = 16;

// A carriage return too, which bash keeps in a word: a hook saved with CRLF line ends still names its paths.
const BLANKS = new Set([' ', '\t', '\n', '\r']);
const OPERATORS = new Set([';', '&', '|', '<', '>', '(', ')']);

/** The words of `text`, each with its parts, in the order the shell reads them (a substitution's words before its own word). */
export function shellLex(text: string): Lexed {
  const lexer = new Lexer(text.length > MAX_SHELL_TEXT ? text.slice(0, MAX_SHELL_TEXT) : text);
  lexer.level(undefined, 0, undefined);
  return { words: lexer.words, complete: lexer.complete && text.length <= MAX_SHELL_TEXT };
}

/** What ends a nested reading: a command substitution's `)`, a backquote, a parameter expansion's `}`. */
type Stop = ')' | '`' | '}';

class Lexer {
  at = 0;
  complete = true;
  readonly words: LexedWord[] = [];

  constructor(private readonly text: string) {}

  /** Reads words until `stop` (unnested) or the end; the words are tagged `nested`. */
  level(stop: Stop | undefined, depth: number, nested: LexedWord['nested']): void {
    const state: Level = { stop, depth, nested, word: undefined, output: false, open: 0 };
    while (this.at < this.text.length) {
      if (this.step(state)) break;
    }
    this.endWord(state);
  }

  /** Reads one character (or quoted string, or expansion) of a level; true when the level ends here. */
  private step(state: Level): boolean {
    const char = this.text[this.at];
    if (char === state.stop && state.open === 0) {
      this.at++;
      return true;
    }
    if (char === '\\') this.backslash(state);
    else if (char === "'") this.singleQuoted(state);
    else if (char === '"') this.doubleQuoted(state);
    else if (char === '$') this.dollar(state, false);
    else if (char === '`') this.backquoted(state);
    else if (BLANKS.has(char)) this.blank(state);
    else if (OPERATORS.has(char)) this.operator(state, char);
    else if (char === '#' && state.word === undefined && state.stop !== '}') this.comment();
    else this.literal(state, char);
    return false;
  }

  private backslash(state: Level): void {
    const next = this.text[this.at + 1];
    this.at += 2;
    // `\⏎` continues the line; a backslash at the very end escapes nothing.
    if (next === undefined || next === '\n') return;
    this.add(state, next, 'none');
  }

  private singleQuoted(state: Level): void {
    const close = this.text.indexOf("'", this.at + 1);
    // An unclosed quote: bash refuses the text; its rest is read as the quote's content (nothing dropped).
    const end = close < 0 ? this.text.length : close;
    this.add(state, this.text.slice(this.at + 1, end), 'single');
    this.at = end + 1;
  }

  /** `"…"` from its opening quote: `\` escapes only `$`, a backquote, `"`, `\` and a line break; expansions are read. */
  private doubleQuoted(state: Level): void {
    this.at++;
    this.add(state, '', 'double');
    while (this.at < this.text.length) {
      const char = this.text[this.at];
      if (char === '"') {
        this.at++;
        return;
      }
      if (char === '\\') {
        const next = this.text[this.at + 1] ?? '';
        this.at += 2;
        if (next !== '\n') this.add(state, next !== '' && '$`"\\'.includes(next) ? next : `\\${next}`, 'double');
      } else if (char === '$') {
        this.dollar(state, true);
      } else if (char === '`') {
        this.backquoted(state);
      } else {
        this.add(state, char, 'double');
        this.at++;
      }
    }
  }

  /** A `$` and what follows it: an ANSI-C or locale string (outside double quotes), an expansion, or a `$` itself. */
  private dollar(state: Level, inDouble: boolean): void {
    const next = this.text[this.at + 1];
    if (next === "'" && !inDouble) return this.ansiQuoted(state);
    if (next === '"' && !inDouble) {
      // `$"…"`: a string translated by the locale, read as the double-quoted string it is without one.
      this.at++;
      return this.doubleQuoted(state);
    }
    if (next === '(' && this.text[this.at + 2] === '(') return this.arithmetic(state);
    if (next === '(') return this.nestedExpansion(state, 2, ')', 'command');
    if (next === '{') return this.nestedExpansion(state, 2, '}', 'parameter');
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9?$!#*@-])/.exec(this.text.slice(this.at + 1, this.at + 257));
    if (name === null) {
      this.add(state, '$', inDouble ? 'double' : 'none');
      this.at++;
      return;
    }
    this.expansion(state, this.at, this.at + 1 + name[0].length, 'parameter');
  }

  /** `$'…'`: its content found first (a `\'` does not close it), then decoded as bash decodes it. */
  private ansiQuoted(state: Level): void {
    const start = this.at + 2;
    let end = start;
    while (end < this.text.length && this.text[end] !== "'") end += this.text[end] === '\\' ? 2 : 1;
    this.add(state, ansiDecoded(this.text.slice(start, Math.min(end, this.text.length))), 'ansi');
    this.at = end + 1;
  }

  /** `$((…))`: arithmetic, its end found by counting parentheses (its value is a number, no path). */
  private arithmetic(state: Level): void {
    const start = this.at;
    let open = 0;
    let at = this.at + 1;
    for (; at < this.text.length; at++) {
      if (this.text[at] === '(') open++;
      else if (this.text[at] === ')' && --open === 0) break;
    }
    this.expansion(state, start, Math.min(at + 1, this.text.length), 'arithmetic');
  }

  /** `$(…)` or `${…}`: its inside read as words of their own (a substitution runs them), to its closing character. */
  private nestedExpansion(state: Level, opening: number, stop: Stop, type: 'command' | 'parameter'): void {
    const start = this.at;
    if (!this.deeper(state)) return;
    this.at += opening;
    this.level(stop, state.depth + 1, type);
    this.expansion(state, start, this.at, type);
  }

  /** A backquoted command: as `$(…)`. */
  private backquoted(state: Level): void {
    this.nestedExpansion(state, 1, '`', 'command');
  }

  /** Whether one more level may be read; past MAX_NESTING the reading stops, incomplete. */
  private deeper(state: Level): boolean {
    if (state.depth + 1 <= MAX_NESTING) return true;
    this.complete = false;
    this.at = this.text.length;
    return false;
  }

  private expansion(state: Level, start: number, end: number, type: ExpansionPart['type']): void {
    this.word(state).parts.push({ kind: 'expansion', spelling: this.text.slice(start, end), type });
    this.at = end;
  }

  private blank(state: Level): void {
    this.endWord(state);
    this.at++;
  }

  private operator(state: Level, char: string): void {
    this.endWord(state);
    this.at++;
    // In a substitution, a subshell's parentheses are counted so that its `)` does not end the substitution.
    if (state.stop === ')' && char === '(') state.open++;
    else if (state.stop === ')' && char === ')') state.open--;
    state.output = char === '>';
  }

  /** A `#` at a word's start: the rest of the line is a comment. */
  private comment(): void {
    const newline = this.text.indexOf('\n', this.at);
    this.at = newline < 0 ? this.text.length : newline;
  }

  private literal(state: Level, char: string): void {
    // A `${…}`'s own braces are counted: `${x:-{a}}` ends at its second `}`, as bash reads it.
    if (state.stop === '}' && char === '{') state.open++;
    else if (state.stop === '}' && char === '}') state.open--;
    this.add(state, char, 'none');
    this.at++;
  }

  private word(state: Level): LexedWord {
    state.word ??= { parts: [], ...(state.output ? { written: true } : {}), ...(state.nested ? { nested: state.nested } : {}) };
    return state.word;
  }

  /** Adds literal text to the word, joined to its last part when quoted alike; an empty text (a quote's opening) starts a part. */
  private add(state: Level, text: string, quoting: TextPart['quoting']): void {
    const parts = this.word(state).parts;
    const last = parts[parts.length - 1];
    if (text !== '' && last?.kind === 'text' && last.quoting === quoting) last.text += text;
    else parts.push({ kind: 'text', text, quoting });
  }

  /** Ends the word being read; a `>` read before any word still waits for its file. */
  private endWord(state: Level): void {
    if (state.word === undefined) return;
    this.words.push(state.word);
    state.word = undefined;
    state.output = false;
  }
}

interface Level {
  stop: Stop | undefined;
  depth: number;
  nested: LexedWord['nested'];
  word: LexedWord | undefined;
  /** A `>` was read: the next word is the file written. */
  output: boolean;
  /** Parentheses (in `$(…)`) or braces (in `${…}`) opened and not yet closed. */
  open: number;
}

/** bash's one-letter escapes of `$'…'`. */
const LETTER_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** bash's numeric escapes: how many digits each takes, and which. */
const NUMERIC_ESCAPES: Readonly<Record<string, { digits: RegExp; base: number }>> = {
  x: { digits: /^[0-9a-fA-F]{1,2}/, base: 16 },
  u: { digits: /^[0-9a-fA-F]{1,4}/, base: 16 },
  U: { digits: /^[0-9a-fA-F]{1,8}/, base: 16 },
};

/**
 * The content of a `$'…'` as bash decodes it: `\x` 1–2 hex digits, `\u` 1–4, `\U` 1–8, `\NNN` 1–3 octal digits,
 * `\cX` a control character, the letter escapes; any other backslash (`\/`, a `\x` without a digit) is kept as it
 * is; a NUL ends the string (bash's strings are C strings). One pass over the content.
 */
export function ansiDecoded(content: string): string {
  let out = '';
  let at = 0;
  while (at < content.length) {
    const slash = content.indexOf('\\', at);
    if (slash < 0 || slash === content.length - 1) return out + content.slice(at);
    out += content.slice(at, slash);
    const { text, end } = ansiEscape(content, slash + 1);
    if (text === '\0') return out;
    out += text;
    at = end;
  }
  return out;
}

/** The escape whose letter is at `content[at]` (just past its backslash): what it stands for and where it ends. */
function ansiEscape(content: string, at: number): { text: string; end: number } {
  const letter = content[at];
  if (Object.hasOwn(LETTER_ESCAPES, letter)) return { text: LETTER_ESCAPES[letter], end: at + 1 };
  const octal = /^[0-7]{1,3}/.exec(content.slice(at, at + 3));
  if (octal) return { text: String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff), end: at + octal[0].length };
  if (Object.hasOwn(NUMERIC_ESCAPES, letter)) {
    const { digits, base } = NUMERIC_ESCAPES[letter];
    const number = digits.exec(content.slice(at + 1, at + 9));
    if (number === null) return { text: `\\${letter}`, end: at + 1 };
    const value = Number.parseInt(number[0], base);
    // Past Unicode (`\U110000`) bash writes bytes no file name here can hold: read as an unknown character.
    return { text: value > 0x10ffff ? '\ufffd' : String.fromCodePoint(value), end: at + 1 + number[0].length };
  }
  if (letter === 'c' && at + 1 < content.length) {
    // `\cX` is X's control character; bash reads `\c\\` as the control character of one backslash.
    const target = content[at + 1];
    const end = target === '\\' && content[at + 2] === '\\' ? at + 3 : at + 2;
    return { text: target === '?' ? '\x7f' : String.fromCharCode(target.toUpperCase().charCodeAt(0) & 0x1f), end };
  }
  return { text: `\\${letter}`, end: at + 1 };
}
