/**
 * A shell text in words, as a shell splits it without expanding anything (quotes, backslash escapes, the
 * operators, comments), shared by what reads a hook's or a config's text: a hook's approval digest
 * (customization/common/hookContent.ts) and the sandbox's review of what hooks run (terminal/node/hookPrograms.ts).
 * One splitter for both, so a file name with a space or a quote is the same word to each.
 */

/** A word of a hook's line: its text, and the folder its leading variable named (none: relative to the hook's folder). */
interface Word {
  text: string;
  from?: 'workspace' | 'home';
  /** It holds an expansion this reading does not do (`$x`, a backquote, a variable not at its start): it names no file known here. */
  expanded?: boolean;
  /** It follows `>` (or `>>`): a file the hook writes (its log), whose content is not what it runs. */
  written?: boolean;
}

/** Variables at a word's start that the hook host sets: what they name. */
const VARIABLES: Readonly<Record<string, 'workspace' | 'home'>> = { CLAUDE_PROJECT_DIR: 'workspace', HOME: 'home' };

const OPERATORS = new Set([';', '&', '|', '<', '>', '(', ')']);
const BLANK = /\s/;

/**
 * The words of a shell line, split as a shell splits them without expanding anything: whitespace and the
 * operators separate, quotes and backslashes are removed; a `#` starting a word starts a comment. A leading
 * `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}`, `$HOME`, `${HOME}` (outside single quotes) or `~/` (unquoted)
 * is kept as the folder it names; any other expansion marks its word.
 */
export function commandWords(line: string): { word: string; from?: 'workspace' | 'home'; expanded?: boolean; written?: boolean }[] {
  const words: Word[] = [];
  let current: Word | undefined;
  /** A `>` was read: the next word is the file written. */
  let output = false;
  const word = () => (current ??= { text: '' });
  const end = () => {
    if (current === undefined) return;
    words.push(output ? { ...current, written: true } : current);
    current = undefined;
    output = false;
  };
  let quote: "'" | '"' | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word().text += char;
      continue;
    }
    if (char === '\\') {
      const next = line[at + 1];
      at++;
      if (next === undefined || next === '\n') continue;
      // In double quotes a backslash escapes only these; before anything else it stays.
      word().text += quote === '"' && !'$`"\\'.includes(next) ? `\\${next}` : next;
      continue;
    }
    if (char === '$') {
      at = variable(line, at, word()) - 1;
      continue;
    }
    if (char === '`') {
      word().expanded = true;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word().text += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word();
    } else if (BLANK.test(char)) {
      end();
    } else if (OPERATORS.has(char)) {
      end();
      output = char === '>';
    } else if (char === '#' && current === undefined) {
      const newline = line.indexOf('\n', at);
      if (newline < 0) break;
      at = newline;
    } else if (char === '~' && current === undefined && (line[at + 1] === '/' || line[at + 1] === undefined || BLANK.test(line[at + 1]))) {
      word().from = 'home';
    } else {
      word().text += char;
    }
  }
  end();
  return words.map(({ text, from, expanded, written }) => ({
    word: text,
    ...(from === undefined ? {} : { from }),
    ...(expanded ? { expanded } : {}),
    ...(written ? { written } : {}),
  }));
}

/** Reads the expansion at `line[at]` (a `$`) into `word`; where reading goes on. */
function variable(line: string, at: number, word: Word): number {
  const braced = line[at + 1] === '{';
  const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(line.slice(at + (braced ? 2 : 1)));
  if (match === null) {
    // `$(…)`, `$1`, `$?`, a lone `$`: an expansion, or a `$` kept as it is; either way not a name known here.
    // `${0%/*}`, `${BASH_SOURCE%/*}`: the whole braced expansion is skipped, so what follows it is the word's text.
    word.expanded = true;
    return (braced ? bracedEnd(line, at + 1) : undefined) ?? at + 1;
  }
  const name = match[0];
  const after = at + (braced ? 2 : 1) + name.length;
  if (braced && line[after] !== '}') {
    word.expanded = true;
    return bracedEnd(line, at + 1) ?? after;
  }
  const folder = Object.hasOwn(VARIABLES, name) ? VARIABLES[name] : undefined;
  if (folder !== undefined && word.text === '' && word.from === undefined && !word.expanded) word.from = folder;
  else word.expanded = true;
  return braced ? after + 1 : after;
}

/** The longest braced expansion read (`${x:-${y}}`): past it, or unbalanced, the text is taken as it is. */
const MAX_BRACED = 256;

/** Where the braced expansion whose `{` is at `open` ends (just past its `}`), nested ones counted; undefined when unbalanced. */
function bracedEnd(text: string, open: number): number | undefined {
  let depth = 0;
  for (let at = open; at < text.length && at < open + MAX_BRACED; at++) {
    if (text[at] === '{') depth++;
    else if (text[at] === '}' && --depth === 0) return at + 1;
  }
  return undefined;
}

/**
 * `text` with each balanced braced parameter expansion (`${ROOT}`, `${0%/*}`, `${workspaceFolder}`) replaced by
 * `replacement`: what it expands to is not known here, and its `{`, `*` or `%` are no glob of the path after it.
 * Bounded: each expansion MAX_BRACED characters; an unbalanced one is left as it is.
 */
export function withoutBracedExpansions(text: string, replacement: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('${'); at >= 0; at = text.indexOf('${', at + 1)) {
    if (at < from) continue;
    const end = bracedEnd(text, at + 1);
    if (end === undefined) continue;
    out += text.slice(from, at) + replacement;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` without what its redirections write (`> note.txt`, `2>> hook.log`, `>&2`): a command's output file is not
 * what it runs, and a hook's own log rewritten at each run would otherwise change what its approval covers.
 */
export function withoutOutputs(text: string): string {
  return text.replace(/\d*>>?\|?[ \t]*(?:&\d+|[^\s;&|()<>]+)/g, ' ');
}
