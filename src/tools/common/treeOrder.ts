/**
 * The walk's order (a folder's entries, sorted by name, before the contents of
 * its subfolders, each subfolder in turn), which both engines answer in, and
 * what a search engine's results, found in any order, are put into it with.
 */
import type { FileMatches } from './searchPorts';

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

/**
 * The matches that come first in tree order, from files that arrive in any
 * order (ripgrep searches in parallel): every file is kept until the files
 * before it hold more than `limit` matches, which is enough to show `limit` of
 * them and to tell that there are more. So a pattern that matches everywhere
 * keeps about `limit` matches, not every one.
 */
export class FirstMatches {
  /** In tree order. */
  private readonly files: FileMatches[] = [];
  private matches = 0;
  /** Whether a file with matches was turned away or dropped: then only the first `limit` + 1 are known. */
  pruned = false;

  constructor(private readonly limit: number) {}

  /** Whether a file at `path` could still be among the first ones (asked before its lines are read). */
  wants(path: string): boolean {
    if (this.matches <= this.limit || compareTreeOrder(path, this.files[this.files.length - 1].path) <= 0) return true;
    this.pruned = true;
    return false;
  }

  add(file: FileMatches): void {
    if (file.matches.length === 0 || !this.wants(file.path)) return;
    const at = this.indexOf(file.path);
    if (this.files[at]?.path === file.path) {
      this.files[at] = { path: file.path, matches: [...this.files[at].matches, ...file.matches].sort((a, b) => a.line - b.line) };
    } else {
      this.files.splice(at, 0, file);
    }
    this.matches += file.matches.length;
    this.dropPastLimit();
  }

  /** More than `limit` matches are kept: the answer will say there are more. */
  get full(): boolean {
    return this.matches > this.limit;
  }

  /** The files kept, in tree order. */
  inTreeOrder(): readonly FileMatches[] {
    return this.files;
  }

  /** Where `path` is, or would go, in the kept files (by bisection: they are in tree order). */
  private indexOf(path: string): number {
    let low = 0;
    let high = this.files.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareTreeOrder(this.files[middle].path, path) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The files after the one whose matches first take the count past `limit` are not needed. */
  private dropPastLimit(): void {
    let matches = 0;
    for (let i = 0; i < this.files.length; i++) {
      matches += this.files[i].matches.length;
      if (matches > this.limit) {
        if (i < this.files.length - 1) {
          this.files.length = i + 1;
          this.pruned = true;
        }
        this.matches = matches;
        return;
      }
    }
  }
}
