/**
 * What the programs that run outside the sandbox at the user's next commit or prompt (Git's hooks, husky's,
 * direnv's `.envrc`, the hook managers) read, followed as far as it goes rather than one step:
 * - a text's words that look like paths, however the shell spells them (`"$PWD"/x`, `${PWD}/x`,
 *   `$(git rev-parse --show-toplevel)/x`, `$(dirname "$0")/../x`, `cd x && ./y`), resolved from where the text
 *   runs (the work tree's top, the hook's own folder, the file's own folder), and also held by file name wherever
 *   the name is (a spelling the review cannot resolve still names the file);
 * - what an interpreter makes of a name: `node scripts/check` loads check.js, `python -m tools.lint` loads
 *   tools/lint.py and the package's `__init__.py`;
 * - the programs a tool runs: `make` reads the Makefile (and what it includes and its recipes run), `npm test`
 *   runs package.json's scripts (and what they name), `deno task` deno.json's tasks (the runners' table:
 *   taskRunners.ts), `npx x` runs node_modules' x; a program the table does not know, the files at the top of where
 *   it runs that are named after it (unknownRunners.ts);
 * - and then the same for every file reached, 6 files deep and 200 files at most: past either, what runs is not
 *   known, so the caller holds the whole change set (ConfigTooLarge).
 * Over-holding asks the user; missing one runs code outside the sandbox at the next commit.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { shellLex } from '../common/shellLexer';
import { absentOr, ConfigTooLarge, pathLikeWords, readStart } from './gitStructure';
import { listBeneath, readBeneath } from './pinnedPaths';
import { ReviewBound } from './reviewBounds';
import { cleanTail, spelledWord, textFolders } from './textFolders';
import { CASELESS_TOOL_FILES } from './toolFileSpellings';
import { isKnownRunner, PACKAGE_RUNNERS, runnerFilesAt, taskFileText } from './taskRunners';
import { programKeys, unknownPrograms } from './unknownRunners';
import { bareWords, type Listings, type PendingWords, resolvePending, SCRIPT_EXTENSIONS, shellWordsOf, valueWords } from './namedFiles';

/** What the texts that run outside the sandbox name, gathered across them. */
export interface Mentioned {
  /** Lower-case file names, held wherever they are (`check.sh` of `"$(git rev-parse --show-toplevel)/scripts/check.sh"`). */
  names: Set<string>;
  /** A text runs npm, yarn, pnpm, bun or npx: package.json's scripts run. */
  packageScripts: boolean;
  /** Absolute paths the texts name (files or folders), to hold and to read in turn. */
  programs: Set<string>;
  /** The folders texts run from when nothing else says (the work trees' tops). */
  tops: Set<string>;
  /** The hook files themselves: read wherever they are (the rest only where the command could read it too). */
  hooks: Set<string>;
  /** The user's home folder: `~/x`, `$HOME/x` and `${HOME}/x` are read there. */
  home?: string;
  /** Words that name a program only if a file of that name is there (namedFiles.ts), resolved by followPrograms. */
  pending: PendingWords[];
  /** Folders an interpreter runs (`node .`): their package.json's `main` is a program too. */
  entryFolders?: Set<string>;
  /** While following: whether its time is up, checked inside a long text too (not only between files). */
  overdue?: () => boolean;
}

export function noneMentioned(home?: string): Mentioned {
  return { names: new Set(), packageScripts: false, programs: new Set(), tops: new Set(), hooks: new Set(), pending: [], ...(home ? { home } : {}) };
}

const MAX_MENTIONED = 100_000;
/**
 * Folders a text's words are resolved from: where it runs, and where its cd, pushd and make -C lead. A bare word is
 * looked up only there, so past the bound the whole change set waits (round 14: a 25th `cd` folder was never read).
 */
const PLACES = new ReviewBound(24, "the folders a hook's or config's `cd` leads to (a text)");
/** How long following may take before the whole change set waits (a hostile text can be slow to read, not endless). */
const FOLLOW_MS = 5_000;
const MAX_PROGRAMS = 20_000;
const FOLLOWED_FILES = 200;
const FOLLOWED_DEPTH = 6;
const TEXT_BYTES = 64 * 1024;

/**
 * Adds what `text` names to `mentioned`; its relative words are read from each of `places` (absolute folders)
 * and from the tops.
 */
export function mentionedBy(text: string, mentioned: Mentioned, places: readonly string[] = []): void {
  // The name's length bounded: an unbounded run backtracks at every start (64 KB of letters in a hook held the host 11 s).
  for (const match of text.matchAll(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}\.[A-Za-z0-9]{1,12}\b/g)) addName(mentioned, match[0]);
  const given = [...new Set([...places, ...mentioned.tops])];
  const folders = new Set(given);
  // `cd "scripts" && ./check`, `cd -P -- scripts`, `make -C tools`, `yarn --cwd=tools`, `task -d tools`: the words are
  // read from there too (at most PLACES folders a text: each, from each given place, is a place every word is
  // resolved from); a folder the shell computes inside a path is held whole where it lies (textFolders.ts).
  const found = textFolders(text, mentioned.home !== undefined, mentioned.overdue);
  PLACES.check(found.places.length);
  for (const folder of found.places) for (const place of given) folders.add(resolve(place, folder));
  for (const folder of found.held) for (const place of folders) addProgram(mentioned, resolve(place, folder));
  for (const word of found.interpreted) interpreterGiven(word, mentioned, folders);
  // `$HOME/x` and `${HOME}/x` are `~/x` (the home folder), not a name whose folders the shell fills in.
  const homeSpelled = mentioned.home === undefined ? text : text.replace(/\$\{HOME\}|\$HOME\b/g, '~');
  // The text as it is written (a followed file may be no shell text: a Makefile, a script in another language, whose
  // quotes the shell's reading could pair wrongly), and as the shell reads it (`che\ck.sh`, `$'tools\x2flint.sh'`,
  // `li$''nt.sh`): a path either reading gives is held.
  const spellings = [completedAsGlob(homeSpelled), ...asTheShellReads(text, mentioned.home !== undefined)];
  for (const spelled of spellings) {
    for (const word of pathLikeWords(spelled)) for (const part of word.split(':')) if (part !== '') namedPath(part, mentioned, folders);
  }
  shellSpelled(text, mentioned, folders);
  // A program the runner table does not know: its own files at the top of where it runs (unknownRunners.ts).
  const unknown = unknownPrograms(text);
  if (unknown.length > 0) mentioned.pending.push({ places: [...folders], words: unknown.flatMap(programKeys) });
  const words = text.split(/[^A-Za-z0-9_@/.-]+/);
  for (const [index, word] of words.entries()) {
    // A task runner's task file, where the text runs (taskRunners.ts: the same table the hooks' approval reads).
    const runner = runnerFilesAt(words, index);
    for (const file of runner?.files ?? []) {
      if (!file.includes('/')) addName(mentioned, file);
      for (const place of folders) addProgram(mentioned, join(place, file));
    }
    if (runner?.packageScripts) {
      mentioned.packageScripts = true;
      for (const place of folders) addProgram(mentioned, join(place, 'package.json'));
    }
    // `just` finds `Justfile`, `JUSTFILE`…: whichever capitalisation is there is read (looked up, not opened by name).
    if (Object.hasOwn(CASELESS_TOOL_FILES, word)) mentioned.pending.push({ places: [...folders], words: CASELESS_TOOL_FILES[word] });
    if (PACKAGE_RUNNERS.test(word)) {
      mentioned.packageScripts = true;
      for (const place of folders) addProgram(mentioned, join(place, 'package.json'));
      // The program it may run from node_modules: the next word that is not an option or a subcommand of the runner.
      const next = words.slice(index + 1, index + 4).find((candidate) => /^[@a-z0-9][a-z0-9._/@-]*$/i.test(candidate) && !RUNNER_VERBS.has(candidate));
      if (next !== undefined && !next.includes('..')) {
        for (const place of folders) {
          addProgram(mentioned, join(place, 'node_modules', next));
          addProgram(mentioned, join(place, 'node_modules', '.bin', basename(next)));
        }
      }
    }
    // `python -m tools.lint`, `-mtools.lint`, `-Bm tools.lint`: the module's file, its package's __init__.py and a
    // package's __main__.py.
    const module = /^-[A-Za-z]*m([A-Za-z_][A-Za-z0-9_.]{0,200})?$/.exec(word);
    const moduleName = module ? (module[1] ?? words[index + 1] ?? '') : '';
    if (module && /^[A-Za-z_][A-Za-z0-9_.]{0,200}$/.test(moduleName)) moduleNamed(moduleName, mentioned, folders);
  }
}

/**
 * What only a shell's splitting shows: a quoted or escaped path with a blank (`sh "scripts/pre commit.sh"`), a bare
 * word that is a file where the text runs (`sh lint`, `node check`: looked up by followPrograms), and the folders a
 * `PATH=bin:$PATH` puts first (what runs by name from there is any of their files: held whole).
 */
function shellSpelled(text: string, mentioned: Mentioned, folders: ReadonlySet<string>): void {
  const words = shellWordsOf(text);
  for (const word of words) {
    if (/\s/.test(word) && /[/.]/.test(word)) namedPath(word, mentioned, folders);
    if (!word.startsWith('PATH=')) continue;
    const entries = word.slice('PATH='.length).split(':');
    PATH_ENTRIES.check(entries.length);
    for (const entry of entries) {
      if (entry !== '' && !isAbsolute(entry)) for (const place of folders) addProgram(mentioned, resolve(place, entry));
    }
  }
  const bare = bareWords(words);
  if (bare.length > 0) mentioned.pending.push({ places: [...folders], words: bare });
}

/**
 * A config's value that is not known to be a command line (any key: no list of keys keeps up): each of its words
 * that names an existing file in one of `places` is a program (followPrograms looks them up).
 */
export function mentionedByValue(value: string, mentioned: Mentioned, places: readonly string[]): void {
  const words = valueWords(value);
  if (words.length > 0) mentioned.pending.push({ places, words });
}

/**
 * A command line whose working folder is not known before it runs (a task's `"cwd": "${fileDirname}"`): read from the
 * tops as any line, and each of its bare words held by name wherever it is (`sh run-lint` runs a run-lint of that
 * folder). What a tool reads in that folder (its Makefile's recipes, package.json's scripts) cannot be followed from
 * an unknown folder, so such a line that runs one makes the whole change set wait.
 */
export function mentionedAnywhere(text: string, mentioned: Mentioned): void {
  mentionedBy(text, mentioned);
  for (const word of bareWords(shellWordsOf(text))) addNameAndVariants(mentioned, word);
  const tool = text.split(/[^A-Za-z0-9_@/.-]+/).find((word) => isKnownRunner(word.slice(word.lastIndexOf('/') + 1)));
  if (tool !== undefined) {
    throw new ConfigTooLarge(`a config runs ${tool} in a working folder given by a variable, so what ${tool} reads there is unknown`);
  }
}

/** Entries of one `PATH=` a text sets, each a folder held whole. */
const PATH_ENTRIES = new ReviewBound(32, 'the entries of a `PATH` a hook or config sets');

/**
 * The words of `text` as bash reads them (shellLexer.ts), each spelled for pathLikeWords: its quotes removed, its
 * escapes decoded, an empty string (`li$''nt.sh`) gone, and each expansion as completionOf spells it.
 */
function asTheShellReads(text: string, home: boolean): string[] {
  const { words, complete } = shellLex(text);
  if (!complete) throw new ConfigTooLarge('a text the hooks run nests its expansions too deep or is too long to read as the shell does');
  return words.map((word) => spelledWord(word, home));
}

/** The files an interpreter runs from a folder it is given (`node .`: package.json's `main` or index.js; `python3 .`). */
const ENTRY_FILES = ['package.json', 'index.js', 'index.mjs', 'index.cjs', 'index.ts', '__main__.py'];

/**
 * A bare word an interpreter is given (`node hooks`, `python3 pyhook`, `node .`): a folder runs its entry file
 * (package.json's `main`, `index.js`, `__main__.py`), so the folder is held whole as `node scripts/precommit`'s is
 * (a file of that name is read as any program is); `.`, the folder the text runs in, by its entry files and the
 * `main` its package.json names (followPrograms reads it: mentioned.entryFolders).
 */
function interpreterGiven(word: string, mentioned: Mentioned, folders: ReadonlySet<string>): void {
  for (const place of folders) {
    const folder = resolve(place, word);
    if (word !== '.' && word !== '..') {
      addProgram(mentioned, folder);
      continue;
    }
    for (const entry of ENTRY_FILES) addProgram(mentioned, join(folder, entry));
    mentioned.entryFolders ??= new Set();
    mentioned.entryFolders.add(folder);
  }
}

/**
 * A name completed from a variable inside a path (`scripts/$c.sh`, `tools/check-${name}.sh`, `bin/$1`): the shell picks
 * the file in that folder by a value known only when it runs, as a glob does, so it is read as one (the folder held
 * whole). A variable at a word's start (`"$ROOT/x"`, `${0%/*}/x`) stays a break: what follows it is the path.
 */
function completedAsGlob(text: string): string {
  return text.replace(/(?<=[A-Za-z0-9_./-])\$(?:\{[^{}\s]{1,256}\}|[A-Za-z_][A-Za-z0-9_]{0,200}|[0-9])/g, '*');
}

const RUNNER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'run-script', '--', '-y', '--yes', '-s', '--silent', '-q', '--no-install']);

function namedPath(word: string, mentioned: Mentioned, folders: ReadonlySet<string>): void {
  // A path of the machine (`#!/usr/bin/env node`, `/bin/sh`) names no workspace file; a rooted word that is not one
  // is what is left of `"$(git rev-parse --show-toplevel)/scripts/check"` once the shell's part is split off.
  if (isAbsolute(word) && existsSync(word)) return;
  // `scripts/checks/*.sh`, `pre-commit.d/*`, `scripts/{lint,format}.sh`: the shell lists a folder; it is held whole.
  const pattern = /[*?[{]/.exec(word);
  if (pattern) {
    const folder = word.slice(0, word.lastIndexOf('/', pattern.index) + 1);
    const listed = cleanTail(folder.replace(/\/$/, ''));
    if (listed !== '') for (const place of folders) addProgram(mentioned, resolve(place, listed));
    // A pattern whose folder is the top (`*/check`, never held whole): its last component is still a name.
    else addNameAndVariants(mentioned, word.slice(word.lastIndexOf('/') + 1));
    return;
  }
  const tail = cleanTail(word);
  const last = tail.slice(tail.lastIndexOf('/') + 1);
  if (last === '') return;
  // `. ~/.githooks/lib.sh`: a file of the home folder (followPrograms holds everything if it is there: it is not read).
  if (mentioned.home !== undefined && word.startsWith('~/')) addProgram(mentioned, join(mentioned.home, word.slice(2)));
  addNameAndVariants(mentioned, last);
  for (const spelling of new Set([word, tail])) {
    if (isAbsolute(spelling)) continue;
    for (const place of folders) addProgram(mentioned, resolve(place, spelling));
  }
}

/** A file name, and what an interpreter adds to it when it has no extension (`check` → check.js); a pattern is none. */
function addNameAndVariants(mentioned: Mentioned, last: string): void {
  if (last === '' || /[*?[\]{}$]/.test(last)) return;
  addName(mentioned, last);
  if (!hasExtension(last)) for (const extension of SCRIPT_EXTENSIONS) addName(mentioned, last + extension);
}

function hasExtension(name: string): boolean {
  return /\.[A-Za-z0-9]{1,12}$/.test(name);
}

function moduleNamed(module: string, mentioned: Mentioned, folders: ReadonlySet<string>): void {
  const parts = module.split('.').filter((part) => part !== '');
  if (parts.length === 0) return;
  addName(mentioned, `${parts[parts.length - 1]}.py`);
  addName(mentioned, '__init__.py');
  addName(mentioned, '__main__.py');
  for (const place of folders) {
    const path = join(place, ...parts);
    addProgram(mentioned, `${path}.py`);
    addProgram(mentioned, path);
    for (let depth = 1; depth < parts.length; depth++) addProgram(mentioned, join(place, ...parts.slice(0, depth), '__init__.py'));
  }
}

function addName(mentioned: Mentioned, name: string): void {
  if (mentioned.names.size >= MAX_MENTIONED) throw new ConfigTooLarge(`the hooks name more than ${MAX_MENTIONED} files, too many to check`);
  mentioned.names.add(name.toLowerCase());
}

function addProgram(mentioned: Mentioned, path: string): void {
  if (mentioned.programs.size >= MAX_PROGRAMS) throw new ConfigTooLarge(`the hooks name more than ${MAX_PROGRAMS} paths, too many to check`);
  mentioned.programs.add(path);
}

/**
 * Reads every file `mentioned.programs` names (the command's version in `upper` and the workspace's: either may be
 * the one that runs), adds what each names in turn, and gives `add` every path reached, file or not.
 */
export async function followPrograms(options: {
  root: string;
  /** The command's layer; none when only the files as they are are read (a hook's approval: hookContent.ts). */
  upper?: string;
  mentioned: Mentioned;
  add: (path: string) => void;
  /**
   * Whether a file may be read: never one the command cannot read itself (a protected file, the hidden home
   * folder), since what a text names becomes held names, and which of its planted files were held would tell the
   * command that text. The hooks themselves (mentioned.hooks) are read wherever they are.
   */
  readable: (path: string) => boolean;
  /** Among the files it may not read, those whose being there makes what runs unknown (what the sandbox hides outside the workspace). */
  unknownIfThere?: (path: string) => boolean;
  now?: () => number;
}): Promise<void> {
  const { root, upper, mentioned, add } = options;
  const now = options.now ?? Date.now;
  const deadline = now() + FOLLOW_MS;
  const done = new Set<string>();
  const listings = new Map<string, Promise<string[]>>();
  const fileListings: Listings = new Map();
  const lookups = { count: 0 };
  let realRoot: Promise<string> | undefined;
  let read = 0;
  for (let depth = 0; ; depth++) {
    // The words that name a program only if it is there (`sh lint`), looked up before each level is read.
    await resolvePending({
      pending: mentioned.pending,
      root,
      upper,
      listings: fileListings,
      lookups,
      found: (path) => {
        if (!options.readable(path)) return;
        addProgram(mentioned, path);
        addName(mentioned, basename(path));
      },
    });
    const level = [...mentioned.programs].filter((path) => !done.has(path));
    if (level.length === 0) return;
    for (const path of level) {
      done.add(path);
      add(path);
      if (now() > deadline) throw new ConfigTooLarge(`following what the hooks run took more than ${FOLLOW_MS / 1000} s, too long to check`);
      // An installed package of the workspace is held whole, never read (below): where its link leads (`npm link`'s
      // `node_modules/lib -> ~/code/lib`) makes nothing unknown.
      const installed = path.split(sep).includes('node_modules');
      if (installed && isWithinFolder(root, path)) continue;
      if (!mentioned.hooks.has(path) && !options.readable(path)) {
        // A file of the chain the review may not read (one in the home folder, one the sandbox covers): what it runs is
        // unknown, so the whole change set waits rather than the chain ending there (round 12: a global hook's
        // `. ~/.githooks/lib.sh`; round 19b: another window folder's `.env`).
        if (options.unknownIfThere?.(path) && isFileThere(path)) {
          throw unknownRead();
        }
        continue;
      }
      // An installed package is held whole where a text names it (node_modules/x), not read: its own modules and
      // dependencies are a tree no bound fits (README: what a package of node_modules loads is not followed).
      if (installed) continue;
      const texts = await textsOf(path, root, upper, listings, mentioned.entryFolders?.has(dirname(path)) === true, options);
      // Only files that are there count against the bounds (most spellings name nothing).
      if (texts.length === 0) continue;
      if (depth >= FOLLOWED_DEPTH || ++read > FOLLOWED_FILES) {
        throw new ConfigTooLarge(`what the hooks run goes more than ${FOLLOWED_DEPTH} files deep or past ${FOLLOWED_FILES} files, too many to check`);
      }
      mentioned.overdue = () => now() > deadline;
      try {
        for (const text of texts) mentionedBy(text, mentioned, [dirname(path)]);
      } finally {
        delete mentioned.overdue;
      }
      // A link of the chain (`.githooks/pre-commit -> ../scripts/pre-commit.sh`, a linked folder): what runs is where
      // it leads, under another name, so that path is held and followed too.
      realRoot ??= realpath(root).catch(() => root);
      for (const target of await whereLinksLead(path, root, await realRoot)) addProgram(mentioned, target);
    }
  }
}

function unknownRead(): ConfigTooLarge {
  return new ConfigTooLarge(
    'what the hooks run reads a file the sandbox hides from the command (in your home folder, or a protected file), which the review does not read, so what it runs is unknown',
  );
}

/**
 * Where the workspace's `path` leads when it or a folder on its way is a link: the link's own target (one step) and
 * where it ends (realpath, spelled from `root` when it lies in the workspace); none when it is no link.
 */
async function whereLinksLead(path: string, root: string, realRoot: string): Promise<string[]> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return [];
  const inside = relative(realRoot, real);
  const ends = inside.startsWith('..') || isAbsolute(inside) ? real : join(root, inside);
  if (ends === path) return [];
  const target = await readlink(path).catch(() => undefined);
  return target === undefined ? [ends] : [ends, resolve(dirname(path), target)];
}

/**
 * The texts of a file in the layer and in the workspace (a file outside the workspace: as it is); package.json: its
 * scripts. A name without an extension is also the file an interpreter would load (`scripts/check` → check.js).
 */
async function textsOf(
  path: string,
  root: string,
  upper: string | undefined,
  listings: Map<string, Promise<string[]>>,
  entry: boolean,
  judge: { readable: (path: string) => boolean; unknownIfThere?: (path: string) => boolean },
): Promise<string[]> {
  const inside = relative(root, path);
  const inLayer = upper !== undefined && !inside.startsWith('..') && !isAbsolute(inside);
  // The command's view (`upper`): every folder on the way opened beneath the layer without following a link (a
  // link it made there, `leak -> ~/.ssh`, could lead to the user's files: round 15), the file last without following one.
  const views = inLayer
    ? [{ upper, folder: dirname(inside.split(sep).join('/')).replace(/^\.$/, '') }, { folder: dirname(path) }]
    : [{ folder: dirname(path) }];
  const texts: string[] = [];
  for (const view of views) {
    const names = [basename(path)];
    if (!hasExtension(basename(path))) {
      const key = view.upper === undefined ? view.folder : `${view.upper}\0${view.folder}`;
      let listing = listings.get(key);
      if (!listing) {
        listing =
          view.upper === undefined
            ? readdir(view.folder).then(undefined, (error: unknown) => absentOr(error, view.folder) ?? [])
            : listBeneath(view.upper, view.folder).then((entries) => entries.map((entry) => entry.name));
        listings.set(key, listing);
      }
      const prefix = `${basename(path)}.`;
      for (const name of await listing) if (name.startsWith(prefix) && SCRIPT_EXTENSIONS.includes(name.slice(prefix.length - 1))) names.push(name);
    }
    for (const name of names) {
      // Regular files only, a pipe never waited on; in the layer no link followed (the command made it, to anywhere).
      // Past the bound what it names is unknown: the whole change set waits.
      const tooLarge = () => new ConfigTooLarge(`${name}, which the hooks run, is over ${TEXT_BYTES / 1024} KB, too large to check`);
      // The file an interpreter would load in the workspace (`scripts/check` → check.sh) is judged as `path` was: it
      // may be a link the workspace has to a place the command cannot read (round 20b).
      if (view.upper === undefined && name !== basename(path) && !judge.readable(join(view.folder, name))) {
        if (judge.unknownIfThere?.(join(view.folder, name)) && isFileThere(join(view.folder, name))) throw unknownRead();
        continue;
      }
      const text =
        view.upper === undefined
          ? await readStart(join(view.folder, name), TEXT_BYTES, 'follow', tooLarge)
          : await readBeneath(view.upper, view.folder === '' ? name : `${view.folder}/${name}`, TEXT_BYTES, tooLarge);
      if (text === undefined) continue;
      texts.push(name === 'package.json' && entry ? `${packageMain(text)}\n${taskFileText(name, text)}` : taskFileText(name, text));
    }
  }
  return texts;
}

/** package.json's `main` as a line, when an interpreter runs its folder (`node .`); nothing when it is not JSON (read whole by taskFileText). */
function packageMain(text: string): string {
  try {
    const { main } = JSON.parse(text) as { main?: unknown };
    return typeof main === 'string' ? `./${main.replace(/^\.\//, '')}` : '';
  } catch {
    return '';
  }
}

/** A regular file (links followed) is at `path`; a path the host cannot look at counts as one (nothing is known of it). */
function isFileThere(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOTDIR' && code !== 'ELOOP' && code !== 'ENAMETOOLONG';
  }
}

function isWithinFolder(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return !inside.startsWith('..') && !isAbsolute(inside);
}
