/**
 * The folders a text the hooks run works in, as the review reads them (hookPrograms.ts mentionedBy): where its `cd`,
 * `pushd` and the runners' folder options (`make -C`, `npm --prefix`, `yarn --cwd`, `task -d`, `env --chdir`…) lead,
 * and what its interpreters are given (`node hooks`, `python3 pyhook`), taken from the shell lexer's words
 * (common/shellFolders.ts), so a quoted folder or one after cd's options is the folder bash changes to (round 19a).
 * The text is read whole and line by line: a followed file may be no shell text (a YAML config, a Makefile), whose
 * stray quote would pair wrongly across lines; a folder either reading gives is used.
 * A folder the shell computes is read as a name is: a value at the word's start (`"$ROOT/tools"`, `"$(dirname
 * "$0")"`) is a break, what follows it the folder (none: the places already given); a value or pattern inside it
 * (`tools/$x`, `t*`) leaves the folder unknown, so the folder it lies in is held whole, or, when that is the
 * top (`t*`, `./t*`), the whole change set waits.
 */
import { shellLex } from '../common/shellLexer';
import { commandFolders } from '../common/shellFolders';
import type { LexedWord } from '../common/shellLexer';
import { ConfigTooLarge } from './gitStructure';

/** What a text's folder words say, each spelled as a path relative to where the text runs. */
export interface TextFolders {
  /** Folders its words are also resolved from. */
  places: string[];
  /** Folders held whole: where a computed folder lies. */
  held: string[];
  /** Bare words (no `/`, no expansion) an interpreter runs: a file, or a folder whose entry file runs (`.` included). */
  interpreted: string[];
}

/** `overdue` tells when the review's time is up: checked at each line, so one long text cannot hold the host past it. */
export function textFolders(text: string, home: boolean, overdue?: () => boolean): TextFolders {
  const found: TextFolders = { places: [], held: [], interpreted: [] };
  const lines = text.includes('\n') ? text.split('\n') : [];
  // Every line too (the text is at most the caller's 64 KB: each line lexed once more, no bound that reads less).
  for (const reading of [text, ...lines]) {
    if (overdue?.()) throw new ConfigTooLarge('reading what the hooks run took too long to check');
    const { words, complete } = shellLex(reading);
    if (!complete) throw new ConfigTooLarge('a text the hooks run nests its expansions too deep or is too long to read as the shell does');
    const { folders, interpreted } = commandFolders(words);
    for (const word of folders) folderOf(folderSpelling(word, home), found);
    for (const word of interpreted) {
      const spelled = spelledWord(word, home);
      if (spelled !== '' && !/[/$*?[{~]/.test(spelled)) found.interpreted.push(spelled);
    }
  }
  found.places = [...new Set(found.places)];
  found.held = [...new Set(found.held)];
  found.interpreted = [...new Set(found.interpreted)];
  return found;
}

function folderOf(spelled: string, found: TextFolders): void {
  if (spelled === '') return;
  const pattern = /[*?[{]/.exec(spelled);
  if (pattern) {
    const prefix = spelled.slice(0, spelled.lastIndexOf('/', pattern.index) + 1).replace(/\/$/, '');
    const held = cleanTail(prefix);
    // After a value at the word's start (`"$ROOT"/*`) the pattern is read as a name's is: a break, nothing held.
    if (held === '' && prefix.includes('$')) return;
    if (held === '')
      throw new ConfigTooLarge(
        `a hook's \`cd\` or folder option leads to a folder the shell computes (${spelled.slice(0, 60)}), so what it runs there is unknown`,
      );
    found.held.push(held);
    return;
  }
  if (!spelled.includes('$')) {
    found.places.push(spelled);
    return;
  }
  const tail = cleanTail(spelled);
  if (tail !== '') found.places.push(tail);
}

/**
 * A folder word spelled for the review, a leading `$(dirname x)` of a literal path as that path's folder
 * (`cd $(dirname tools/x) && ./check` runs tools/check; round 19a).
 */
function folderSpelling(word: LexedWord, home: boolean): string {
  // A quote's opening is an empty part before it (`"$(dirname x)/.."`).
  const [first, ...rest] = word.parts.filter((part, index) => index > 0 || part.kind !== 'text' || part.text !== '');
  const named = first?.kind === 'expansion' ? /^\$\(\s*dirname\s+(["']?)([A-Za-z0-9_./-]{1,4096})\1\s*\)$/.exec(first.spelling) : null;
  if (named === null) return spelledWord(word, home);
  const path = named[2].replace(/\/+$/, '');
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '.';
  return folder + spelledWord({ ...word, parts: rest }, home);
}

/** A lexed word spelled for the review: its literal parts, and each expansion as completionOf spells it. */
export function spelledWord(word: LexedWord, home: boolean): string {
  let spelled = '';
  for (const part of word.parts) spelled += part.kind === 'text' ? part.text : completionOf(part.spelling, spelled, home);
  return spelled;
}

/**
 * An expansion's value as the review reads it, from what precedes it in its word: the working folder's spellings are
 * `.`, a leading `$HOME` is `~`; inside a path (`tools/ch$(:)eck.sh`, `scripts/$c.sh`) a value known only when the
 * hook runs completes the name, read as a glob (the folder held whole); at a word's start (`"$ROOT/x"`,
 * `$(git rev-parse --show-toplevel)/x`) a break, what follows being the path.
 */
export function completionOf(spelling: string, before: string, home: boolean): string {
  if (/^\$(?:\{PWD\}|PWD|\(pwd\))$/.test(spelling)) return '.';
  if (home && before === '' && /^\$(?:\{HOME\}|HOME)$/.test(spelling)) return '~';
  return /[A-Za-z0-9_./-]$/.test(before) ? '*' : '$';
}

/**
 * The part of a word after its last component the shell would have filled in or that climbs (`{PWD}`, `..`, an
 * empty one before `/`): `/../../script/test` (of `"$(dirname "$0")/../../script/test"`) is `script/test`.
 */
export function cleanTail(word: string): string {
  const components = word.split('/');
  let start = 0;
  for (const [index, component] of components.entries()) {
    if (component === '' || component === '.' || component === '..' || /[{}$~*?[\]]/.test(component)) start = index + 1;
  }
  return components.slice(start).join('/');
}
