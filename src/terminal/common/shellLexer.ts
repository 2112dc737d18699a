/**
 * A shell text read once as bash reads its words, without running anything: quotes (single, double, bash's ANSI-C
 * `$'…'` decoded by bash's rules, `$"…"` as double quotes), backslashes, comments, the operators, and each expansion
 * (`$name`, `${…}`, `$(…)`, backquotes, `$((…))` and bash's older `$[…]`) kept as a part of its word rather than a break in it. What reads a
 * hook's paths and what splits a hook's line for its approval (shellWords.ts) both take their words from here, so a
 * path is one spelling to both, and no regular expression over the raw text pairs a quote the shell does not.
 * Text bash reads a second time is read again, nested: a backquoted command after its own backslash pass, the inside
 * of `$((…))`, the string of a shell's `-c` (`sh -c '…'`, also after `env`, `exec`, `command`…), `eval`'s arguments
 * joined, and a here-document's body (given to a shell: also after the here-document's backslash pass).
 * Bounded: MAX_SHELL_TEXT characters read in all (every text read again counts), MAX_NESTING readings deep; past either
 * the result says it is incomplete.
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
  /**
   * The simple command it is a word of: the words of one command share it (in their order), whatever is read between
   * them (a substitution's own words). What reads a command's options (shellFolders.ts: `cd -P -- x`) groups by it.
   */
  command?: number;
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
  const reading: Reading = { words: [], complete: text.length <= MAX_SHELL_TEXT, read: Math.min(text.length, MAX_SHELL_TEXT), commands: 0 };
  new Lexer(text.slice(0, MAX_SHELL_TEXT), reading).level(undefined, 0, undefined);
  return { words: reading.words, complete: reading.complete };
}

/** What every reading of one text shares: the words, whether a bound cut it short, and how many characters were read. */
interface Reading {
  words: LexedWord[];
  complete: boolean;
  read: number;
  /** Simple commands begun so far (each word's `command`). */
  commands: number;
}

/** What ends a nested reading: a command substitution's `)`, a backquote, a parameter expansion's `}`, `$[…]`'s `]`. */
type Stop = ')' | '`' | '}' | ']';

class Lexer {
  at = 0;

  constructor(
    private readonly text: string,
    private readonly reading: Reading,
  ) {}

  /** Reads words until `stop` (unnested) or the end; the words are tagged `nested`. */
  level(stop: Stop | undefined, depth: number, nested: LexedWord['nested']): void {
    const state: Level = { stop, depth, nested, word: undefined, output: false, open: 0, command: [], commandId: this.reading.commands++, heredocs: [] };
    while (this.at < this.text.length) {
      if (this.step(state)) break;
    }
    this.endWord(state);
    this.commandEnd(state);
  }

  /**
   * `text`, which bash reads again as shell text, read as a nested level (its words tagged as a substitution's):
   * one level deeper, and its length counted against MAX_SHELL_TEXT with everything else read.
   */
  private reread(text: string, state: Level): void {
    if (!this.deeper(state)) return;
    this.reading.read += text.length;
    if (this.reading.read > MAX_SHELL_TEXT) {
      this.reading.complete = false;
      return;
    }
    new Lexer(text, this.reading).level(undefined, state.depth + 1, 'command');
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
    else if (char === '`') this.backquoted(state, false);
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
        this.backquoted(state, true);
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
    // `$((…))`: its inside read as words too (bash runs the substitutions in it), its own parentheses counted.
    if (next === '(' && this.text[this.at + 2] === '(') return this.nestedExpansion(state, 2, ')', 'arithmetic');
    if (next === '(') return this.nestedExpansion(state, 2, ')', 'command');
    // `$[…]`: bash's older spelling of `$((…))` (still read: `i=$[i+1]`), a value known only when it runs.
    if (next === '[') return this.nestedExpansion(state, 2, ']', 'arithmetic');
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

  /** `$(…)` or `${…}`: its inside read as words of their own (a substitution runs them), to its closing character. */
  private nestedExpansion(state: Level, opening: number, stop: Stop, type: ExpansionPart['type']): void {
    const start = this.at;
    if (!this.deeper(state)) return;
    this.at += opening;
    this.level(stop, state.depth + 1, type === 'parameter' ? 'parameter' : 'command');
    this.expansion(state, start, this.at, type);
  }

  /**
   * A backquoted command: bash first removes the backslash of `\\`, `\$`, a backquote (and in double quotes `\"`), then
   * reads what is left as a command, whose backslashes it reads again (`` `sh tools/li\\nt.sh` `` runs lint.sh).
   */
  private backquoted(state: Level, inDouble: boolean): void {
    const start = this.at;
    let end = this.at + 1;
    let body = '';
    while (end < this.text.length && this.text[end] !== '`') {
      const next = this.text[end + 1];
      const escaped = this.text[end] === '\\' && next !== undefined;
      body += escaped && ('$`\\'.includes(next) || (inDouble && next === '"')) ? next : this.text.slice(end, escaped ? end + 2 : end + 1);
      end += escaped ? 2 : 1;
    }
    this.reread(body, state);
    this.expansion(state, start, Math.min(end + 1, this.text.length), 'command');
  }

  /** Whether one more level may be read; past MAX_NESTING the reading stops, incomplete. */
  private deeper(state: Level): boolean {
    if (state.depth + 1 <= MAX_NESTING) return true;
    this.reading.complete = false;
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
    if (this.text[this.at - 1] !== '\n') return;
    this.commandEnd(state);
    // The here-documents of the line just ended: their bodies start here.
    for (const heredoc of state.heredocs.splice(0)) this.heredocBody(state, heredoc);
  }

  private operator(state: Level, char: string): void {
    this.endWord(state);
    if (char === '<' && this.text.startsWith('<<<', this.at)) {
      // A here-string: its word is the command's input, read as the word it is.
      this.at += 3;
      return;
    }
    if (char === '<' && this.text[this.at + 1] === '<') return this.heredocStart(state);
    this.at++;
    if (char !== '<' && char !== '>') this.commandEnd(state);
    // In a substitution, a subshell's parentheses are counted so that its `)` does not end the substitution.
    if (state.stop === ')' && char === '(') state.open++;
    else if (state.stop === ')' && char === ')') state.open--;
    state.output = char === '>';
  }

  /** `<<` or `<<-`: the next word is the delimiter of a here-document whose body starts on the next line. */
  private heredocStart(state: Level): void {
    this.at += 2;
    const strip = this.text[this.at] === '-';
    if (strip) this.at++;
    state.delimiter = { strip };
  }

  /**
   * A here-document's body, to its delimiter line: read as shell text (the input of a shell, or what the rest of the
   * text would be were the here-document not there), and, given to a shell, also after the backslash pass of an
   * unquoted delimiter (`\\` is `\`, then the shell reads `ru\n.sh` as run.sh).
   */
  private heredocBody(state: Level, heredoc: Heredoc): void {
    let body = '';
    while (this.at < this.text.length) {
      const newline = this.text.indexOf('\n', this.at);
      const end = newline < 0 ? this.text.length : newline;
      const line = heredoc.strip ? this.text.slice(this.at, end).replace(/^\t+/, '') : this.text.slice(this.at, end);
      this.at = end + 1;
      if (line === heredoc.delimiter) break;
      body += `${line}\n`;
    }
    this.reread(body, state);
    const unescaped = body.replace(/\\([\\$`\n])/g, (_, next: string) => (next === '\n' ? '' : next));
    if (unescaped !== body && programIndex(heredoc.command.map(wordText), SHELLS) !== undefined) this.reread(unescaped, state);
  }

  /**
   * The end of a simple command: what it gives a second shell to read is read again (a shell's `-c` string and the
   * words after it, `eval`'s arguments joined by spaces, as bash joins them).
   */
  private commandEnd(state: Level): void {
    const values = state.command.map(wordText);
    state.command = [];
    state.commandId = this.reading.commands++;
    const program = programIndex(values, SHELLS_AND_EVAL);
    if (program === undefined) return;
    const rest = values.slice(program + 1);
    if (basename(values[program]) === 'eval') return this.reread(rest.join(' '), state);
    const flag = rest.findIndex((value) => /^-[A-Za-z]*c[A-Za-z]*$/.test(value));
    if (flag < 0) return;
    for (const operand of rest.slice(flag + 1)) if (!operand.startsWith('-')) this.reread(operand, state);
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
    // And `$[…]`'s brackets (`$[a[1]+1]`).
    else if (state.stop === ']' && char === '[') state.open++;
    else if (state.stop === ']' && char === ']') state.open--;
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
    this.reading.words.push(state.word);
    if (state.delimiter) {
      // The command's words are still being read: the here-document keeps its list, complete when its body is read.
      state.heredocs.push({ ...state.delimiter, delimiter: wordText(state.word), command: state.command });
      state.delimiter = undefined;
    } else {
      state.word.command = state.commandId;
      state.command.push(state.word);
    }
    state.word = undefined;
    state.output = false;
  }
}

interface Heredoc {
  delimiter: string;
  /** `<<-`: the body's leading tabs are removed. */
  strip: boolean;
  /** The words of the command it is given to. */
  command: LexedWord[];
}

/** The programs that read a string as shell text, by base name (`busybox sh`: busybox is passed over as a runner). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh']);
const SHELLS_AND_EVAL = new Set([...SHELLS, 'eval']);
/** Words before a program that run it (`env X=1 sh -c`, `exec sh -c`, `command eval`); their options are skipped too. */
const RUNNERS = new Set(['env', 'exec', 'command', 'builtin', 'nice', 'nohup', 'time', 'timeout', 'xargs', 'sudo', 'doas', 'setsid', 'stdbuf', 'ionice']);
/** How many words before a program are looked through. */
const MAX_PREFIX = 64;

/** Where among `values` (a command's words) the program is when it is one of `programs`; undefined otherwise. */
function programIndex(values: readonly string[], programs: ReadonlySet<string>): number | undefined {
  for (let index = 0; index < Math.min(values.length, MAX_PREFIX); index++) {
    const value = values[index];
    // An assignment, a runner, its options and their numbers (`nice -n 5`, `timeout 10`), busybox's applet name next.
    if (/^[A-Za-z_][A-Za-z0-9_]*=|^-|^[0-9.]+[smhd]?$/.test(value) || RUNNERS.has(basename(value)) || basename(value) === 'busybox') continue;
    return programs.has(basename(value)) ? index : undefined;
  }
  return undefined;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A word's text as the second shell is given it: its literal parts, and each expansion as written (read again as one). */
function wordText(word: LexedWord): string {
  return word.parts.map((part) => (part.kind === 'text' ? part.text : part.spelling)).join('');
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
  /** The words of the simple command being read (what a shell's `-c` or `eval` reads again). */
  command: LexedWord[];
  /** That command's number (its words' `command`). */
  commandId: number;
  /** `<<` was read: the next word is a here-document's delimiter. */
  delimiter?: { strip: boolean };
  /** Here-documents whose bodies start at the next line. */
  heredocs: Heredoc[];
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
