/**
 * Reads a shell command line the way a POSIX shell splits it (quotes, escapes,
 * operators, substitutions, subshells) into its simple commands, without
 * running anything. The command policy decides what to make of them.
 */

/** One word of a simple command: its value after quote removal, and its source text. */
export interface Word {
  text: string;
  raw: string;
  /** Built from `$…` or backticks: its value is only known at run time. */
  dynamic: boolean;
}

export type SimpleCommand = Word[];

/** Deeper nesting than this is not what a person writes; such a line is treated as denied. */
export const maxNesting = 32;

export class TooDeeplyNested extends Error {}

/** Every simple command in `script`, including those inside substitutions, subshells and backticks. */
export function parseShell(script: string, depth: number): SimpleCommand[] {
  const reader = new ShellReader(script, depth);
  reader.readList(false);
  return reader.commands;
}

class WordBuilder {
  text = '';
  dynamic = false;
  constructor(readonly start: number) {}
}

class ShellReader {
  readonly commands: SimpleCommand[] = [];
  private i = 0;
  /** `${` inside `${`: read recursively, so it is bounded like the other nesting. */
  private braceNesting = 0;
  /** `case` clauses not yet closed by `esac`: their patterns end with a `)` that closes nothing. */
  private openCases = 0;

  constructor(
    private readonly src: string,
    private readonly depth: number,
  ) {
    if (depth > maxNesting) throw new TooDeeplyNested();
  }

  /** Reads commands until the end, or (nested) until the `)` that closes a `$(` or `<(`. */
  readList(nested: boolean): void {
    const src = this.src;
    let command: Word[] = [];
    let word: WordBuilder | undefined;
    let skipNextWord = false;
    let parens = 0;
    const endWord = () => {
      if (word === undefined) return;
      // The word after a redirection operator is a file name, not an argument.
      if (skipNextWord) skipNextWord = false;
      else {
        if (command.length === 0) this.noteKeyword(word.text);
        command.push({ text: word.text, raw: src.slice(word.start, this.i), dynamic: word.dynamic });
      }
      word = undefined;
    };
    const endCommand = () => {
      endWord();
      if (command.length > 0) this.commands.push(command);
      command = [];
    };
    while (this.i < src.length) {
      const c = src[this.i];
      const next = src[this.i + 1];
      if (c === ' ' || c === '\t') {
        endWord();
        this.i++;
      } else if (c === '\\' && next === '\n') {
        this.i += 2;
      } else if (c === '\n' || c === ';') {
        endCommand();
        this.i++;
      } else if (c === '&' && next === '>') {
        endWord();
        this.i += src[this.i + 2] === '>' ? 3 : 2;
        skipNextWord = true;
      } else if (c === '&' || c === '|') {
        endCommand();
        this.i += next === c || (c === '|' && next === '&') ? 2 : 1;
      } else if (c === '(') {
        endCommand();
        parens++;
        this.i++;
      } else if (c === ')') {
        endCommand();
        this.i++;
        // In `$(case x in x) rm …;; esac)` the first `)` ends a pattern, not the substitution.
        if (nested && parens === 0 && this.openCases === 0) return;
        parens = Math.max(0, parens - 1);
      } else if (c === '<' || c === '>') {
        // `2>&1`: a number right before the operator names a stream; it is no argument.
        if (word !== undefined && /^\d+$/.test(src.slice(word.start, this.i))) word = undefined;
        else endWord();
        if (next === '(') {
          this.i += 2;
          this.readNested();
        } else {
          this.i++;
          while (this.i < src.length && '<>&|-'.includes(src[this.i])) this.i++;
          skipNextWord = true;
        }
      } else if (c === '#' && word === undefined) {
        while (this.i < src.length && src[this.i] !== '\n') this.i++;
      } else {
        word ??= new WordBuilder(this.i);
        this.readWordPart(word);
      }
    }
    endCommand();
  }

  /** Keeps count of open `case … esac` clauses from the first word of each command. */
  private noteKeyword(first: string): void {
    if (first === 'case') this.openCases++;
    else if (first === 'esac') this.openCases = Math.max(0, this.openCases - 1);
  }

  /** One quoted string, escape, substitution or plain character of a word. */
  private readWordPart(word: WordBuilder): void {
    const src = this.src;
    const c = src[this.i];
    if (c === "'") {
      const end = src.indexOf("'", this.i + 1);
      const close = end < 0 ? src.length : end;
      word.text += src.slice(this.i + 1, close);
      this.i = close + 1;
    } else if (c === '"') {
      this.i++;
      this.readDoubleQuoted(word);
    } else if (c === '\\') {
      word.text += src[this.i + 1] ?? '';
      this.i += 2;
    } else if (c === '$') {
      this.readDollar(word);
    } else if (c === '`') {
      this.readBackticks(word);
    } else {
      word.text += c;
      this.i++;
    }
  }

  private readDoubleQuoted(word: WordBuilder): void {
    const src = this.src;
    while (this.i < src.length && src[this.i] !== '"') {
      const c = src[this.i];
      if (c === '\\' && '$`"\\\n'.includes(src[this.i + 1] ?? '')) {
        word.text += src[this.i + 1];
        this.i += 2;
      } else if (c === '$') {
        this.readDollar(word);
      } else if (c === '`') {
        this.readBackticks(word);
      } else {
        word.text += c;
        this.i++;
      }
    }
    this.i++;
  }

  /** `$(…)`, `$((…))`, `${…}`, `$'…'` or `$name`: all but `$'…'` are known only at run time. */
  private readDollar(word: WordBuilder): void {
    const src = this.src;
    const next = src[this.i + 1];
    if (next === '(') {
      word.dynamic = true;
      this.i += 2;
      this.readNested();
    } else if (next === '{') {
      word.dynamic = true;
      this.i += 2;
      this.readBraces();
    } else if (next === "'") {
      // ANSI-C quoting: `$'\x72m'` is `rm`, so any escape makes the value unknown here.
      let end = this.i + 2;
      while (end < src.length && src[end] !== "'") end += src[end] === '\\' ? 2 : 1;
      const body = src.slice(this.i + 2, end);
      word.text += body;
      if (body.includes('\\')) word.dynamic = true;
      this.i = end + 1;
    } else {
      word.dynamic = true;
      word.text += '$';
      this.i++;
    }
  }

  /** A command substitution's commands, read in place up to its closing `)`. */
  private readNested(): void {
    const inner = new ShellReader(this.src, this.depth + 1);
    inner.i = this.i;
    inner.readList(true);
    this.commands.push(...inner.commands);
    this.i = inner.i;
  }

  /** `${name:-$(cmd)}`: only the substitutions inside are commands. */
  private readBraces(): void {
    if (this.depth + ++this.braceNesting > maxNesting) throw new TooDeeplyNested();
    const src = this.src;
    let depth = 1;
    const scratch = new WordBuilder(this.i);
    while (this.i < src.length && depth > 0) {
      const c = src[this.i];
      if (c === '}') {
        depth--;
        this.i++;
      } else if (c === '{') {
        depth++;
        this.i++;
      } else {
        this.readWordPart(scratch);
      }
    }
    this.braceNesting--;
  }

  /** Backticks hold a script of their own, with `\`` for a literal backtick. */
  private readBackticks(word: WordBuilder): void {
    const src = this.src;
    word.dynamic = true;
    let script = '';
    this.i++;
    while (this.i < src.length && src[this.i] !== '`') {
      if (src[this.i] === '\\' && '`$\\'.includes(src[this.i + 1] ?? '')) {
        script += src[this.i + 1];
        this.i += 2;
      } else {
        script += src[this.i];
        this.i++;
      }
    }
    this.i++;
    this.commands.push(...parseShell(script, this.depth + 1));
  }
}
