/**
 * list_files and search_text on a WorkspaceSearch engine (ripgrep). The engine
 * walks and reads; this module decides what the model sees, with the same
 * rules as the walk in walk.ts: every path it returns is checked again (inside
 * the folder, not protected, not excluded by the host, matching the glob), and
 * the answers come in the walk's tree order, so both give the same answer.
 *
 * What the engine does differently, by design: it does not follow symlinks, so
 * a symlink inside the workspace is neither listed nor searched (the walk lists
 * one that stays inside, and searches it when it leads to a file); a hard-linked
 * file is counted only when it has matches (the walk stats every file); a NUL
 * anywhere makes a file binary for ripgrep (in its first 8,000 characters for
 * the walk); `\d`, `\w` and `\b` also match non-ASCII digits and letters in
 * ripgrep's regex syntax (ASCII only in RE2's).
 */
import type { Clock, FileQuery, TextMatch, TextQuery, WorkspaceFiles, WorkspaceSearch } from '../ports';
import { compileGlob } from './glob';
import { looksBinary } from './textLimits';

/**
 * Whether `a` comes before `b` in the walk's order: a folder's entries, sorted
 * by name, before the contents of its subfolders, each subfolder in turn.
 * Both are workspace-relative paths of entries (files, or folders listed as entries).
 */
export function compareTreeOrder(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; ; i++) {
    const aLast = i === as.length - 1;
    const bLast = i === bs.length - 1;
    if (as[i] !== bs[i]) {
      // An entry of this folder comes before anything inside one of its subfolders.
      if (aLast !== bLast) return aLast ? -1 : 1;
      return as[i] < bs[i] ? -1 : 1;
    }
    if (aLast || bLast) return aLast === bLast ? 0 : aLast ? -1 : 1;
  }
}

/**
 * The last segment of `glob` when every path it matches must end in a name
 * matching it (`**\/*.d.ts` → `*.d.ts`), for the engine to leave other files out
 * early; undefined when it cannot say (`a/**`).
 */
export function nameGlobOf(glob: string | undefined): string | undefined {
  if (glob === undefined) return undefined;
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  if (last === '' || last.includes('**') || last.includes('[') || last.includes('\\')) return undefined;
  return last;
}

/** The checks every path from the engine passes; a folder's verdict is kept, so a deep tree costs one check per name. */
export class PathVerdicts {
  private readonly folders = new Map<string, boolean>();
  private readonly names = new Map<string, boolean>();
  private readonly prefix: string;
  /** Globs without `/` match the name alone: their verdict is kept per name (index.js, package.json, … repeat). */
  private readonly nameGlobs: ((path: string) => boolean)[];
  /** Globs with `/`, each with a piece of text every path it matches contains (lower-cased for case-insensitive ones). */
  private readonly pathGlobs: { needle: string; ignoreCase: boolean; matches: (path: string) => boolean }[];

  constructor(
    private readonly folder: string,
    protectedGlobs: readonly string[],
    excludedGlobs: readonly string[],
    private readonly inGlob: ((relative: string) => boolean) | undefined,
  ) {
    this.prefix = folder === '.' ? '' : `${folder}/`;
    const globs = [...protectedGlobs.map((glob) => ({ glob, ignoreCase: true })), ...excludedGlobs.map((glob) => ({ glob, ignoreCase: false }))];
    // A glob that cannot be compiled matches nothing, as in matchesGlob.
    const compiled = globs.map(({ glob, ignoreCase }) => {
      const result = compileGlob(glob, { ignoreCase });
      return { glob, ignoreCase, matches: result.ok ? result.matches : () => false };
    });
    this.nameGlobs = compiled.filter(({ glob }) => !glob.includes('/')).map(({ matches }) => matches);
    this.pathGlobs = compiled
      .filter(({ glob }) => glob.includes('/'))
      .map(({ glob, ignoreCase, matches }) => ({ needle: literalOf(glob, ignoreCase), ignoreCase, matches }));
  }

  /** Whether the file at `path` (workspace-relative, as the engine gave it) may be shown. */
  allows(path: string): boolean {
    if (!path.startsWith(this.prefix) || path.length === this.prefix.length) return false;
    const slash = path.lastIndexOf('/');
    if (slash >= 0 && !this.folderAllowed(path.slice(0, slash))) return false;
    if (!this.entryAllowed(path, path.slice(slash + 1))) return false;
    return this.inGlob === undefined || this.inGlob(path.slice(this.prefix.length));
  }

  private folderAllowed(folder: string): boolean {
    const known = this.folders.get(folder);
    if (known !== undefined) return known;
    const slash = folder.lastIndexOf('/');
    const allowed = (slash < 0 || this.folderAllowed(folder.slice(0, slash))) && this.entryAllowed(folder, folder.slice(slash + 1));
    this.folders.set(folder, allowed);
    return allowed;
  }

  /** The entry itself (its folders apart): a plain name, not protected, not excluded. */
  private entryAllowed(path: string, name: string): boolean {
    let nameAllowed = this.names.get(name);
    if (nameAllowed === undefined) {
      // What normalizeWorkspacePath would change or refuse: the path as given must already be normal.
      nameAllowed =
        name !== '' && name !== '.' && name !== '..' && !name.includes('\\') && !name.includes('\0') && !this.nameGlobs.some((matches) => matches(name));
      this.names.set(name, nameAllowed);
    }
    if (!nameAllowed) return false;
    let lowered: string | undefined;
    for (const glob of this.pathGlobs) {
      const subject = glob.ignoreCase ? (lowered ??= path.toLowerCase()) : path;
      if (subject.includes(glob.needle) && glob.matches(path)) return false;
    }
    return true;
  }
}

/**
 * The longest piece of plain text in `glob` between wildcards and separators,
 * which every path it matches contains; empty (no shortcut) when the glob has
 * classes, braces or escapes.
 */
function literalOf(glob: string, ignoreCase: boolean): string {
  if (/[[\]{}\\]/.test(glob)) return '';
  const longest = glob.split(/[*?/]/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return ignoreCase ? longest.toLowerCase() : longest;
}

/** What the engine listed, checked: the files, and why it stopped early if it did. */
export async function engineFiles(
  search: WorkspaceSearch,
  query: FileQuery,
  verdicts: PathVerdicts,
  signal: AbortSignal,
): Promise<{ files: string[]; stopped?: string }> {
  const files: string[] = [];
  let stopped: string | undefined;
  for await (const batch of search.listFiles(query, signal)) {
    for (const path of batch.items) if (verdicts.allows(path)) files.push(path);
    stopped ??= batch.stopped;
  }
  return { files, stopped };
}

/**
 * The first `limit` entries list_files shows, in tree order, and how many there
 * are: the files and, `withFolders`, the folders below `folder` that hold them.
 */
export function treeEntries(folder: string, files: readonly string[], limit: number, withFolders: boolean): { shown: string[]; total: number } {
  interface Node {
    files: string[];
    folders: Map<string, Node>;
  }
  const newNode = (): Node => ({ files: [], folders: new Map() });
  const top = newNode();
  const skip = folder === '.' ? 0 : folder.length + 1;
  let total = 0;
  for (const path of files) {
    const segments = path.slice(skip).split('/');
    let node = top;
    for (const name of segments.slice(0, -1)) {
      let next = node.folders.get(name);
      if (!next) {
        next = newNode();
        node.folders.set(name, next);
        if (withFolders) total++;
      }
      node = next;
    }
    node.files.push(segments[segments.length - 1]);
    total++;
  }
  const shown: string[] = [];
  const pending: [string, Node][] = [[folder, top]];
  // The walk's order: a folder's entries sorted by name, then each subfolder's contents in turn.
  while (pending.length > 0 && shown.length < limit) {
    const [path, node] = pending.pop() as [string, Node];
    const names = [...node.files.map((name) => ({ name, sub: undefined as Node | undefined })), ...[...node.folders].map(([name, sub]) => ({ name, sub }))];
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: [string, Node][] = [];
    for (const { name, sub } of names) {
      const entry = path === '.' ? name : `${path}/${name}`;
      if (shown.length < limit && (!sub || withFolders)) shown.push(sub ? `${entry}/` : entry);
      if (sub) subfolders.push([entry, sub]);
    }
    pending.push(...subfolders.reverse());
  }
  return { shown, total };
}

/** What a search through the engine found, before it is written out. */
export interface EngineFindings {
  /** In tree order, at most `limit + 1` (one more says there are more). */
  matches: TextMatch[];
  /** Text files of at most the size limit that were searched. */
  filesSearched: number;
  tooLarge: number;
  hardLinked: number;
  stopped?: string;
}

/** How long a listing of every file is reused to count the files too large to search. */
export const listingReuseMs = 10_000;
const recentListings = new WeakMap<WorkspaceSearch, { key: string; at: number; files: Promise<{ files: string[]; stopped?: string }> }>();

/** Files stat'ed at once to tell a too-large file from a binary one. */
const statConcurrency = 32;

/**
 * The search in two steps, as the walk would answer it: the engine counts the
 * matching lines of every file; the files with matches are taken in tree order until there are
 * more than `limit` lines, those with more than one name left out (a hard link
 * may be a protected file under another name); then the engine returns those
 * files' lines. Files open with unsaved changes are matched here, on their
 * text, with `matchLine`. Under the limit, a listing of every file, whatever
 * its size, tells what was not searched: binary or too large, as its size says.
 */
export async function engineSearch(
  search: WorkspaceSearch,
  query: TextQuery,
  verdicts: PathVerdicts,
  files: WorkspaceFiles,
  matchLine: () => ((line: string) => number) | undefined,
  limit: number,
  /** What else decides which files are listed (the glob): part of the key under which a listing is reused. */
  listingKey: string,
  clock: Clock,
  outer: AbortSignal,
): Promise<EngineFindings> {
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  outer.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  try {
    // The listing runs beside the count from the start, and stops once the count passes the limit (then it is not needed).
    // A recent one is reused: it only tells how many files were too large to search, and an agent searches often.
    const { maxFileBytes: _sizeLimit, ...anySize } = query;
    const key = JSON.stringify([anySize, listingKey]);
    const listAll = () => {
      const recent = recentListings.get(search);
      if (recent && recent.key === key && clock.now() - recent.at < listingReuseMs) return { files: recent.files, stop: () => undefined, stopped: () => false };
      const controller = new AbortController();
      const stopListing = () => controller.abort();
      signal.addEventListener('abort', stopListing, { once: true });
      const at = clock.now();
      const files = engineFiles(search, anySize, verdicts, controller.signal).finally(() => signal.removeEventListener('abort', stopListing));
      files.then((listed) => recentListings.set(search, { key, at, files: Promise.resolve(listed) })).catch(() => undefined);
      return { files, stop: stopListing, stopped: () => controller.signal.aborted };
    };
    let listing = listAll();
    const counted = await countMatches(search, query, verdicts, signal, limit, listing.stop);
    const unsaved = new Map<string, TextMatch[]>();
    for (const path of files.unsavedPaths?.() ?? []) {
      if (!counted.lines.has(path) || !verdicts.allows(path)) continue;
      const found = await matchUnsaved(path, files, matchLine, query.maxFileBytes, signal);
      unsaved.set(path, found);
      counted.lines.set(path, found.length);
    }
    const chosen = await chooseFiles(counted.lines, files, limit, signal);
    if (chosen.lines > limit) listing.stop();
    // Stopped early, but the hard links left out brought the matches under the limit after all: listed again.
    else if (listing.stopped()) listing = listAll();
    const fromDisk = chosen.paths.filter((path) => !unsaved.has(path));
    const matches = [...chosen.paths.flatMap((path) => unsaved.get(path) ?? []), ...(await matchingLines(search, query, fromDisk, verdicts, signal))];
    matches.sort((a, b) => compareTreeOrder(a.path, b.path) || a.line - b.line);
    if (chosen.lines > limit) return { matches: matches.slice(0, limit + 1), filesSearched: 0, tooLarge: 0, hardLinked: 0 };
    const allFiles = await listing.files;
    const notSearched = allFiles.files.filter((path) => !counted.lines.has(path));
    return {
      matches,
      filesSearched: counted.lines.size - chosen.hardLinked,
      tooLarge: await countLarger(notSearched, query.maxFileBytes, files, signal),
      hardLinked: chosen.hardLinked,
      stopped: counted.stopped ?? allFiles.stopped,
    };
  } finally {
    outer.removeEventListener('abort', stop);
    // Whatever is still running (after a failure, or a stop) is killed.
    controller.abort();
  }
}

/** Every searched file's matching lines; `onPastLimit` is called once they add up to more than `limit`. */
async function countMatches(search: WorkspaceSearch, query: TextQuery, verdicts: PathVerdicts, signal: AbortSignal, limit: number, onPastLimit: () => void) {
  const lines = new Map<string, number>();
  let stopped: string | undefined;
  let total = 0;
  for await (const batch of search.countMatches(query, signal)) {
    for (const { path, lines: count } of batch.items) {
      if (!verdicts.allows(path)) continue;
      lines.set(path, count);
      total += count;
    }
    if (total > limit) onPastLimit();
    stopped ??= batch.stopped;
  }
  return { lines, stopped };
}

/** The files with matches, in tree order, until their lines pass `limit`; hard-linked ones left out and counted. */
async function chooseFiles(counts: ReadonlyMap<string, number>, files: WorkspaceFiles, limit: number, signal: AbortSignal) {
  const matching = [...counts].filter(([, lines]) => lines > 0).map(([path]) => path);
  matching.sort(compareTreeOrder);
  const paths: string[] = [];
  let lines = 0;
  let hardLinked = 0;
  for (const path of matching) {
    if (lines > limit) break;
    if (((await files.stat(path, signal))?.links ?? 1) > 1) {
      hardLinked++;
      continue;
    }
    paths.push(path);
    lines += counts.get(path) ?? 0;
  }
  return { paths, lines, hardLinked };
}

async function matchingLines(search: WorkspaceSearch, query: TextQuery, paths: readonly string[], verdicts: PathVerdicts, signal: AbortSignal) {
  const wanted = new Set(paths);
  const matches: TextMatch[] = [];
  if (paths.length === 0) return matches;
  for await (const batch of search.matchingLines(query, paths, signal)) {
    for (const match of batch.items) if (wanted.has(match.path) && verdicts.allows(match.path)) matches.push(match);
  }
  return matches;
}

/** How many of `paths` (listed, not searched: binary or too large) are larger than `maxFileBytes`. */
async function countLarger(paths: readonly string[], maxFileBytes: number, files: WorkspaceFiles, signal: AbortSignal): Promise<number> {
  let larger = 0;
  for (let i = 0; i < paths.length; i += statConcurrency) {
    const stats = await Promise.all(paths.slice(i, i + statConcurrency).map((path) => files.stat(path, signal)));
    larger += stats.filter((stat) => (stat?.size ?? 0) > maxFileBytes).length;
  }
  return larger;
}

/** The matches in a file's unsaved text, by the walk's rules (too large or binary: none). */
async function matchUnsaved(
  path: string,
  files: WorkspaceFiles,
  matchLine: () => ((line: string) => number) | undefined,
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<TextMatch[]> {
  const matches = matchLine();
  if (!matches) return [];
  const text = await files.readText(path, signal);
  if (text.length > maxFileBytes || looksBinary(text)) return [];
  const found: TextMatch[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const column = matches(lines[i]);
    if (column >= 0) found.push({ path, line: i + 1, text: lines[i], column });
  }
  return found;
}
