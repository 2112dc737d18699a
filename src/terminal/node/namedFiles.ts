/**
 * The words of a followed text that name a file only by being there: a bare word (`sh lint` runs ./lint, `node check`
 * loads ./check.js: no `/` or `.` says it is a path) and every word of a config's value (`"python.defaultInterpreterPath":
 * "tools/python"`, an MCP server's `envFile`, Claude Code's `apiKeyHelper`: no list of keys keeps up). Such a word is
 * a program when it names an existing file (the workspace's or the command's) in one of the places the text runs
 * from, as it is or with a script extension: that file is held and followed as what a hook runs is. A folder a
 * bare word or a value names is not held whole (a setting's `"src"` would hold every source file); `PATH=bin:$PATH`
 * is (hookPrograms.ts).
 * Cheap: mentionedBy only records the words (synchronous, where the texts are read); followPrograms resolves them
 * against one listing per folder (the layer's and the workspace's, cached for the review), never a walk.
 * Bounded: 16,384 words a text, 1,024 folders listed, 50,000 entries a folder; past a bound the whole change set waits.
 */
import { readdir } from 'node:fs/promises';
import { closeSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { yieldToHost } from '../../base/common';
import { commandWords } from '../common/shellWords';
import { absentOr, ConfigTooLarge, pathLikeWords } from './gitStructure';
import { openBeneathSync } from './pinnedPaths';
import { programKey } from './unknownRunners';

/** Words waiting to be looked up, each with the places (absolute folders) it is read from. */
export interface PendingWords {
  places: readonly string[];
  words: readonly string[];
}

/** What an interpreter adds to a name given without an extension (`node check` loads check.js, `sh lint` ./lint). */
/** `.tsx` and `.jsx` too: tsx and bun complete an entry's name with them (`tsx scripts/check` runs check.tsx). */
export const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx', '.py', '.sh', '.bash', '.rb', '.pl'];
const MAX_TEXT_WORDS = 16_384;
const MAX_FOLDERS = 1024;
const MAX_FOLDER_ENTRIES = 50_000;
const MAX_WORD = 255;
/** Linux's PATH_MAX: a longer path is opened by no program. */
const PATH_MAX = 4096;

/**
 * The words of a text as a shell splits them (quotes and backslashes kept together), line by line: a quote a
 * YAML comment or a Makefile leaves open ends with its line rather than swallowing the rest of the text.
 */
export function shellWordsOf(text: string): string[] {
  const words: string[] = [];
  for (const line of text.split('\n')) for (const { word } of commandWords(line)) if (word !== '') words.push(word);
  return words;
}

/** The bare words of shell words that may name a file where the text runs: no `/`, no option; `VAR=x`, `--opt=x` give `x`. */
export function bareWords(words: readonly string[]): string[] {
  const found = new Set<string>();
  for (const word of words) {
    for (const part of [word, word.slice(word.indexOf('=') + 1)]) if (isBareName(part)) found.add(part);
  }
  return boundedWords(found);
}

/**
 * The words of a config's value that may name a file: its shell words and its path-like words (`${workspaceFolder}/x`
 * is `x`), each also without what climbs or was expanded before it (`/../x`), and after an `=`.
 */
export function valueWords(value: string): string[] {
  const found = new Set<string>();
  for (const word of [...shellWordsOf(value), ...pathLikeWords(value)]) {
    // A TOML or YAML list's brackets and commas are no part of the path (`args = ["mcp/server.js"]`).
    const unbracketed = word.replace(/^[[({]+|[\])},;]+$/g, '');
    for (const whole of [unbracketed, unbracketed.slice(unbracketed.indexOf('=') + 1)]) {
      // A pattern, a URL or a `${env:X}` names no one file; a folder listing per pattern would be no bound.
      if (whole === '' || whole.length > PATH_MAX || /[\0*?[{]|^[a-z][a-z0-9+.-]*:/i.test(whole)) continue;
      // Spelled long (`././…/tools/x.sh`, round 14) it is the same path to the program: read as the system resolves it.
      const part = whole.length > 4 * MAX_WORD ? posix.normalize(whole) : whole;
      found.add(part);
      const tail = part.replace(/^(?:\.{0,2}\/)+/, '');
      if (tail !== '' && tail !== part) found.add(tail);
    }
  }
  return boundedWords(found);
}

function isBareName(word: string): boolean {
  return word.length > 0 && word.length <= MAX_WORD && word !== '.' && word !== '..' && !/^-|[/\0*?[]/.test(word);
}

function boundedWords(found: ReadonlySet<string>): string[] {
  if (found.size > MAX_TEXT_WORDS) throw new ConfigTooLarge(`a text the hooks or configs run has more than ${MAX_TEXT_WORDS} words, too many to check`);
  return [...found];
}

/** One review's listings: each folder's names that are not folders (the layer's and the workspace's), by stem and by programKey. */
export type Listings = Map<string, Promise<ReadonlyMap<string, readonly string[]>>>;

/** Look-ups between two turns of the host's event loop, and in one review at most (past it, the whole change set waits). */
const SLICE = 4096;
const MAX_LOOKUPS = 2_000_000;

/**
 * Takes the pending words out of `pending` and gives `found` each existing file (absolute) one names, as it is or
 * with a script extension, in a place inside `root` (a place elsewhere is not the workspace's: the home folder's
 * files are held by their `~/` spelling, hookPrograms.ts). One listing a folder, one map look-up a word and place,
 * the host's event loop given a turn every few thousand (round 11: a text of 8,000 `cd aN` lines).
 */
export async function resolvePending(options: {
  pending: PendingWords[];
  root: string;
  upper?: string;
  listings: Listings;
  found: (path: string) => void;
  lookups?: { count: number };
}): Promise<void> {
  const { pending, root, upper, listings } = options;
  const lookups = options.lookups ?? { count: 0 };
  while (pending.length > 0) {
    const { places, words } = pending.pop() as PendingWords;
    for (const place of places) {
      for (const word of words) {
        if (++lookups.count > MAX_LOOKUPS) throw new ConfigTooLarge('the hooks and configs name too many words to look up');
        if (lookups.count % SLICE === 0) await yieldToHost();
        const folder = word.includes('/') ? dirname(resolve(place, word)) : place;
        if (!isWithin(root, folder)) continue;
        const names = await listingOf(folder, root, upper, listings);
        for (const name of names.get(word.includes('/') ? basename(word) : word) ?? []) options.found(join(folder, name));
      }
    }
  }
}

function listingOf(folder: string, root: string, upper: string | undefined, listings: Listings): Promise<ReadonlyMap<string, readonly string[]>> {
  let listing = listings.get(folder);
  if (listing) return listing;
  if (listings.size >= MAX_FOLDERS) throw new ConfigTooLarge(`the hooks and configs name files in more than ${MAX_FOLDERS} folders, too many to check`);
  listing = listFiles(folder, root, upper).then(byStem);
  listings.set(folder, listing);
  return listing;
}

/** Each name under itself and, when it ends in a script extension, under its stem (`check.js` answers `check`). */
function byStem(names: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
  const stems = new Map<string, string[]>();
  const add = (key: string, name: string) => {
    const list = stems.get(key);
    if (list) list.push(name);
    else stems.set(key, [name]);
  };
  for (const name of names) {
    add(name, name);
    // The name a program the runner table does not know finds it by (unknownRunners.ts: `eslint` → .eslintrc.cjs).
    add(programKey(name), name);
    const dot = name.lastIndexOf('.');
    if (dot > 0 && SCRIPT_EXTENSIONS.includes(name.slice(dot))) add(name.slice(0, dot), name);
  }
  return stems;
}

/** The names in `folder` that are not folders: the workspace's, and the layer's (reached without following a link). */
async function listFiles(folder: string, root: string, upper: string | undefined): Promise<ReadonlySet<string>> {
  const names = new Set<string>();
  const take = (entries: readonly { name: string; isDirectory(): boolean }[]) => {
    if (entries.length > MAX_FOLDER_ENTRIES) throw new ConfigTooLarge(`${basename(folder)} holds more than ${MAX_FOLDER_ENTRIES} entries, too many to check`);
    for (const entry of entries) if (!entry.isDirectory()) names.add(entry.name);
  };
  take((await readdir(folder, { withFileTypes: true }).catch((error: unknown) => absentOr(error, folder))) ?? []);
  if (upper !== undefined) {
    // The command's folder: never through a link it made (what a listing elsewhere holds would tell it about there).
    const inside = relative(root, folder).split(sep).join('/');
    const pinned = openBeneathSync(upper, inside);
    if (pinned !== undefined) {
      try {
        const view = `/proc/self/fd/${pinned}`;
        take(readdirSyncOr(view, folder));
      } finally {
        closeSync(pinned);
      }
    }
  }
  return names;
}

function readdirSyncOr(view: string, folder: string): readonly { name: string; isDirectory(): boolean }[] {
  try {
    return readdirSync(view, { withFileTypes: true });
  } catch (error) {
    return absentOr(error, folder) ?? [];
  }
}

function isWithin(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}
