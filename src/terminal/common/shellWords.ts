/**
 * A shell text in words, as a shell splits it without expanding anything (quotes, backslash escapes, the
 * operators, comments), shared by what reads a hook's or a config's text: a hook's approval digest
 * (customization/common/hookContent.ts) and the sandbox's review of what hooks run (terminal/node/hookPrograms.ts).
 * One splitter for both, so a file name with a space or a quote is the same word to each.
 */

import { type LexedWord, shellLex } from './shellLexer';

/** A word of a hook's line: its text, and the folder its leading variable named (none: relative to the hook's folder). */
interface CommandWord {
  word: string;
  from?: 'workspace' | 'home';
  /** It holds an expansion this reading does not do (`$x`, a backquote, a variable not at its start): it names no file known here. */
  expanded?: boolean;
  /** It follows `>` (or `>>`): a file the hook writes (its log), whose content is not what it runs. */
  written?: boolean;
}

/** Variables at a word's start that the hook host sets: what they name. */
const VARIABLES: Readonly<Record<string, 'workspace' | 'home'>> = { CLAUDE_PROJECT_DIR: 'workspace', HOME: 'home' };

/**
 * The words of a shell line, split as a shell splits them without expanding anything (shellLexer.ts): whitespace and
 * the operators separate, quotes and backslashes are removed, `$'…'` decoded; a `#` starting a word starts a comment.
 * A leading `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}`, `$HOME`, `${HOME}` (outside single quotes) or `~/`
 * (unquoted) is kept as the folder it names; any other expansion marks its word. A command substitution's own
 * words (`$(sh x.sh)`) come before the word it is part of: they are a command line too.
 */
export function commandWords(line: string): CommandWord[] {
  return shellLex(line)
    .words.filter((word) => word.nested !== 'parameter')
    .map(asCommandWord);
}

function asCommandWord(lexed: LexedWord): CommandWord {
  let text = '';
  let from: CommandWord['from'];
  let expanded = false;
  for (const [index, part] of lexed.parts.entries()) {
    if (part.kind === 'text') {
      // `~/x` (unquoted, at the word's start) is the home folder's x.
      const home = index === 0 && part.quoting === 'none' && /^~(?:\/|$)/.test(part.text);
      if (home) from = 'home';
      text += home ? part.text.slice(1) : part.text;
      continue;
    }
    const folder = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(part.spelling);
    const name = folder?.[1] ?? folder?.[2];
    if (name !== undefined && Object.hasOwn(VARIABLES, name) && text === '' && from === undefined && !expanded) from = VARIABLES[name];
    else expanded = true;
  }
  return {
    word: text,
    ...(from === undefined ? {} : { from }),
    ...(expanded ? { expanded } : {}),
    ...(lexed.written ? { written: true } : {}),
  };
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
