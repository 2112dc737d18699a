/**
 * What every path a search engine (ripgrep) returns is checked against before
 * the model sees it: inside the folder, not protected, not excluded by the
 * host, matching the glob. The engine applies most of these itself; a rule it
 * reads differently can only cost speed, never show what must stay hidden.
 */
import type { FileQuery, WorkspaceSearch } from './searchPorts';
import { compileGlob } from '../../base/common';

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
