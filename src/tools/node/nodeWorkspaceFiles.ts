/** The WorkspaceFiles port on the local file system (tests, benchmarks, and VS Code's fallback). */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { DirectoryEntry, FileStat, WorkspaceFiles } from '../../base/common';
import { absoluteInside, workspaceRelative } from '../../base/node';
import { IgnoreFiles } from './gitignore';
import { AnchoredFiles } from './anchoredFiles';
import { WorkspaceAnchor } from './anchoredPaths';
import type { AnchorOptions } from './anchoredRequests';

/** Never worth showing the agent, whatever .gitignore says. */
export const alwaysIgnored: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** Symlinks followed in a row before giving up (the kernel's own limit is 40). */
const maxLinkHops = 40;

export class NodeWorkspaceFiles implements WorkspaceFiles {
  private readonly ignoreFiles: IgnoreFiles;
  private readonly anchored: AnchoredFiles;

  constructor(
    readonly root: string,
    options: AnchorOptions = {},
  ) {
    this.ignoreFiles = new IgnoreFiles(root);
    this.anchored = new AnchoredFiles(new WorkspaceAnchor(root, options));
  }

  /**
   * Read through a handle checked after it was opened (inside the workspace, not
   * protected, a regular file with one name): a symlink re-pointed after the
   * tool's check cannot make this return a file from elsewhere.
   */
  readText(path: string, signal: AbortSignal): Promise<string> {
    return this.anchored.readText(path, signal);
  }

  async stat(path: string, signal: AbortSignal): Promise<FileStat | undefined> {
    signal.throwIfAborted();
    try {
      const info = await stat(absoluteInside(this.root, path));
      if (info.isDirectory()) return { type: 'directory', size: info.size };
      // FIFOs, sockets and devices would block a read forever: they are not files the agent can use.
      return info.isFile() ? { type: 'file', size: info.size, links: info.nlink } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Read through the folder's checked handle: a folder re-pointed meanwhile cannot list one outside. */
  async list(path: string, signal: AbortSignal): Promise<DirectoryEntry[]> {
    const entries = await this.anchored.list(path, signal);
    return entries.map((entry) => ({
      name: entry.name,
      type: entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other',
    }));
  }

  async realPathInside(path: string, signal: AbortSignal): Promise<string | undefined> {
    signal.throwIfAborted();
    const root = await realpath(this.root);
    const real = await realPathOf(absoluteInside(this.root, path), 0);
    if (real === undefined) return undefined;
    const fromRoot = relative(root, real);
    if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) return undefined;
    return workspaceRelative(root, real);
  }

  async isIgnored(path: string, signal: AbortSignal): Promise<boolean> {
    signal.throwIfAborted();
    if (path === '.') return false;
    if (path.split('/').some((segment) => alwaysIgnored.has(segment))) return true;
    const info = await stat(absoluteInside(this.root, path)).catch(() => undefined);
    return this.ignoreFiles.isIgnored(path, info?.isDirectory() ?? false, signal);
  }

  ignoredInWalk(signal: AbortSignal): (path: string, isDirectory: boolean) => Promise<boolean> {
    const ignored = this.ignoreFiles.forOneWalk();
    return async (path, isDirectory) => {
      signal.throwIfAborted();
      if (path === '.') return false;
      if (path.split('/').some((segment) => alwaysIgnored.has(segment))) return true;
      return ignored(path, isDirectory, signal);
    };
  }
}

/**
 * Where `absolute` really leads. For a path that does not exist yet, its
 * nearest existing ancestor is resolved and the rest appended. A dangling
 * symlink is followed to where its target would be, because writing through
 * it would create that target: `link -> /outside/new` must count as outside.
 */
async function realPathOf(absolute: string, hops: number): Promise<string | undefined> {
  if (hops > maxLinkHops) return undefined;
  try {
    return await realpath(absolute);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const info = await lstat(absolute).catch(() => undefined);
  if (info?.isSymbolicLink()) return realPathOf(resolve(dirname(absolute), await readlink(absolute)), hops + 1);
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await realPathOf(parent, hops);
  return realParent === undefined ? undefined : resolve(realParent, basename(absolute));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
