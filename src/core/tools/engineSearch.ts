/**
 * list_files and search_text on a WorkspaceSearch engine (ripgrep). The engine
 * walks and reads; this module decides what the model sees, with the same
 * rules as the walk in walk.ts: every path it returns is checked again (inside
 * the folder, not protected, not excluded by the host, matching the glob), and
 * the answers come in the walk's tree order, so both give the same answer.
 *
 * What the engine does differently, by design: it does not follow symlinks, so
 * a symlink inside the workspace is neither listed nor searched (the walk lists
 * one that stays inside); and it lists files only, so list_files shows the
 * folders that hold a listed file (the walk also shows an empty folder).
 */
import type { SearchBatch, TextMatch, TextQuery, WorkspaceFiles, WorkspaceSearch } from '../ports';
import { matchesGlob } from './glob';
import { normalizeWorkspacePath } from './pathPolicy';
import { looksBinary } from './textLimits';

/** Matches gathered before the engine is stopped: enough to pick the first ones in tree order from. */
export const engineMatchCap = 1000;

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
  private readonly prefix: string;

  constructor(
    private readonly folder: string,
    private readonly protectedGlobs: readonly string[],
    private readonly excludedGlobs: readonly string[],
    private readonly inGlob: ((relative: string) => boolean) | undefined,
  ) {
    this.prefix = folder === '.' ? '' : `${folder}/`;
  }

  /** Whether the file at `path` (workspace-relative, as the engine gave it) may be shown. */
  allows(path: string): boolean {
    if (!path.startsWith(this.prefix) || path.length === this.prefix.length) return false;
    const slash = path.lastIndexOf('/');
    if (slash >= 0 && !this.folderAllowed(path.slice(0, slash))) return false;
    if (!this.nameAllowed(path)) return false;
    return this.inGlob === undefined || this.inGlob(path.slice(this.prefix.length));
  }

  private folderAllowed(folder: string): boolean {
    const known = this.folders.get(folder);
    if (known !== undefined) return known;
    const slash = folder.lastIndexOf('/');
    const allowed = (slash < 0 || this.folderAllowed(folder.slice(0, slash))) && this.nameAllowed(folder);
    this.folders.set(folder, allowed);
    return allowed;
  }

  /** The path itself (not its folders): normalized, inside, not protected, not excluded. */
  private nameAllowed(path: string): boolean {
    const normalized = normalizeWorkspacePath(path);
    if (!normalized.ok || normalized.path !== path) return false;
    if (this.protectedGlobs.some((glob) => matchesGlob(path, glob, { ignoreCase: true }))) return false;
    return !this.excludedGlobs.some((glob) => matchesGlob(path, glob));
  }
}

/** What the engine listed, checked: the files, and why it stopped early if it did. */
export async function engineFiles(
  search: WorkspaceSearch,
  query: Omit<TextQuery, 'pattern' | 'regex' | 'ignoreCase' | 'maxMatchesPerFile' | 'maxFileBytes'> & { maxFileBytes?: number },
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
  /** Files of at most the size limit that were searched (binary ones included: the engine does not count them apart). */
  filesSearched: number;
  tooLarge: number;
  hardLinked: number;
  stopped?: string;
}

/**
 * Runs the search and, beside it, two listings that count what was searched and
 * what was too large. Matches in a hard-linked file are dropped (it may be a
 * protected file under another name); files open with unsaved changes are
 * matched here, on their text, with `matchLine`.
 */
export async function engineSearch(
  search: WorkspaceSearch,
  query: TextQuery,
  verdicts: PathVerdicts,
  files: WorkspaceFiles,
  matchLine: () => ((line: string) => number) | undefined,
  limit: number,
  outer: AbortSignal,
): Promise<EngineFindings> {
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  outer.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  try {
    const { maxFileBytes: _sizeLimit, ...anySize } = query;
    const all = engineFiles(search, anySize, verdicts, signal);
    const small = engineFiles(search, query, verdicts, signal);
    // Settled either way: when the search stops them early, their rejection is expected.
    all.catch(() => undefined);
    small.catch(() => undefined);
    const unsaved = new Set((files.unsavedPaths?.() ?? []).filter((path) => verdicts.allows(path)));
    const found = await collectMatches(search.searchText(query, signal), verdicts, unsaved, signal);
    for (const path of unsaved) found.matches.push(...(await matchUnsaved(path, files, matchLine, query.maxFileBytes, signal)));
    found.matches.sort((a, b) => compareTreeOrder(a.path, b.path) || a.line - b.line);
    const hardLinked = await dropHardLinked(found.matches, files, limit, signal);
    if (found.matches.length > limit) return { matches: found.matches.slice(0, limit + 1), filesSearched: 0, tooLarge: 0, hardLinked: 0 };
    const [allFiles, smallFiles] = await Promise.all([all, small]);
    return {
      matches: found.matches,
      filesSearched: smallFiles.files.length - hardLinked,
      tooLarge: allFiles.files.length - smallFiles.files.length,
      hardLinked,
      stopped: found.stopped ?? allFiles.stopped ?? smallFiles.stopped,
    };
  } finally {
    outer.removeEventListener('abort', stop);
    // Whatever is still running (the listings when the matches are enough) is killed.
    controller.abort();
  }
}

async function collectMatches(
  batches: AsyncIterable<SearchBatch<TextMatch>>,
  verdicts: PathVerdicts,
  unsaved: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<{ matches: TextMatch[]; stopped?: string }> {
  const matches: TextMatch[] = [];
  for await (const batch of batches) {
    signal.throwIfAborted();
    for (const match of batch.items) if (!unsaved.has(match.path) && verdicts.allows(match.path)) matches.push(match);
    if (batch.stopped !== undefined) return { matches, stopped: batch.stopped };
    // Enough to choose the first ones from; leaving the loop stops the engine.
    if (matches.length >= engineMatchCap) return { matches };
  }
  return { matches };
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
  for (let i = 0; i < lines.length && found.length < engineMatchCap; i++) {
    const column = matches(lines[i]);
    if (column >= 0) found.push({ path, line: i + 1, text: lines[i], column });
  }
  return found;
}

/**
 * Drops the matches of files with more than one name, file by file in tree
 * order until `limit + 1` matches are kept; how many such files there were.
 */
async function dropHardLinked(matches: TextMatch[], files: WorkspaceFiles, limit: number, signal: AbortSignal): Promise<number> {
  const kept: TextMatch[] = [];
  let linked = 0;
  for (let i = 0; i < matches.length && kept.length <= limit;) {
    const path = matches[i].path;
    let end = i;
    while (end < matches.length && matches[end].path === path) end++;
    if (((await files.stat(path, signal))?.links ?? 1) > 1) linked++;
    else kept.push(...matches.slice(i, end));
    i = end;
  }
  matches.splice(0, matches.length, ...kept);
  return linked;
}
