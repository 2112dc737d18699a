/**
 * One walk of a workspace for the sandbox: its protected files (covered in the
 * sandbox), and its control paths (src/terminal/common/controlPaths.ts): made
 * read-only in the sandbox, and remembered with their identity (device and
 * inode) so what a command adds or replaces can be told from what was there.
 * Symbolic links are never followed; a protected or control path is not
 * entered (it is covered whole).
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isControlName, type ControlPathKind } from '../common/controlPaths';
import { protectingPattern } from '../../tools/common';

/** Entries looked at outside node_modules; beyond it the sandbox cannot promise to cover the protected files. */
export const protectedSearchLimit = 100_000;
/**
 * Entries looked at inside node_modules folders. Their control paths count too:
 * VS Code opens the Git repository of any file shown in an editor and its file
 * watcher reports node_modules by default, so a `.git` planted there runs its
 * hooks like any other. Protected files are not looked for there (as before).
 */
export const dependencySearchLimit = 400_000;
/** The longest a walk may take; a workspace that takes longer is too large to check before each command. */
export const scanTimeLimitMs = 20_000;

const dependencyFolder = 'node_modules';

/** A workspace the walk could not finish within its limits; the message says which. */
export class WorkspaceTooLarge extends Error {}

/** A control path as it was when the workspace was walked. */
export interface ControlEntry {
  /** Workspace-relative, `/`-separated. */
  path: string;
  kind: ControlPathKind;
  /** Device and inode: a path replaced by another file of the same name is a new one. */
  identity: string;
}

export interface WorkspaceScan {
  /** Protected files and folders (absolute), to be covered by empty ones. */
  hidden: { path: string; directory: boolean }[];
  /** Existing control paths (absolute) to mount read-only; a link is mounted where it leads, a dangling one is left out. */
  readOnly: string[];
  /** Every control path, by its workspace-relative path. */
  controls: Map<string, ControlEntry>;
  /** Every folder walked (workspace-relative, `.` for the root), for a watcher that needs one watch per folder. */
  folders: string[];
}

export interface ScanOptions {
  /** `gateway.agent.protectedFiles`; none: protected files are not looked for (the after-command check). */
  protectedPatterns?: readonly string[];
  signal: AbortSignal;
  /** Wall-clock milliseconds; Date.now when absent. */
  now?: () => number;
  timeLimitMs?: number;
}

/** Walks `root` (a real path); throws WorkspaceTooLarge past the limits. */
export async function scanWorkspace(root: string, options: ScanOptions): Promise<WorkspaceScan> {
  const scan: WorkspaceScan = { hidden: [], readOnly: [], controls: new Map(), folders: [] };
  const now = options.now ?? Date.now;
  const deadline = now() + (options.timeLimitMs ?? scanTimeLimitMs);
  const counted = { workspace: 0, dependencies: 0 };
  const pending: { folder: string; inDependencies: boolean }[] = [{ folder: '', inDependencies: false }];
  while (pending.length > 0) {
    const { folder, inDependencies } = pending.pop() as { folder: string; inDependencies: boolean };
    scan.folders.push(folder === '' ? '.' : folder);
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
    const parentName = folder.slice(folder.lastIndexOf('/') + 1);
    for (const entry of entries) {
      options.signal.throwIfAborted();
      countEntry(counted, inDependencies);
      if (now() > deadline) throw new WorkspaceTooLarge(`walking the workspace took more than ${(options.timeLimitMs ?? scanTimeLimitMs) / 1000} s`);
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      const absolute = join(root, ...relative.split('/'));
      if (isControlName(entry.name, parentName)) {
        await addControl(scan, relative, absolute, options.protectedPatterns);
        continue;
      }
      if (!inDependencies && options.protectedPatterns && protectingPattern(relative, options.protectedPatterns) !== undefined) {
        await addHidden(scan, absolute, entry.isSymbolicLink(), entry.isDirectory());
        continue;
      }
      if (entry.isDirectory()) pending.push({ folder: relative, inDependencies: inDependencies || entry.name === dependencyFolder });
    }
  }
  return scan;
}

function countEntry(counted: { workspace: number; dependencies: number }, inDependencies: boolean): void {
  if (inDependencies) {
    if (++counted.dependencies > dependencySearchLimit) {
      throw new WorkspaceTooLarge(`the workspace's node_modules folders hold more than ${dependencySearchLimit} files, too many to check`);
    }
  } else if (++counted.workspace > protectedSearchLimit) {
    throw new WorkspaceTooLarge(`the workspace holds more than ${protectedSearchLimit} files, too many to find its protected ones`);
  }
}

/**
 * A control path: remembered, and read-only in the sandbox (covered instead when
 * it is also protected, as `.envrc` is by `.env*`, except `.git`, which Git must read).
 */
async function addControl(scan: WorkspaceScan, relative: string, absolute: string, patterns: readonly string[] | undefined): Promise<void> {
  const info = await lstat(absolute, { bigint: true }).catch(() => undefined);
  if (!info) return;
  const kind: ControlPathKind = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  scan.controls.set(relative, { path: relative, kind, identity: `${info.dev}:${info.ino}` });
  if (patterns === undefined) return;
  const isGit = (relative.split('/').pop() ?? '').toLowerCase() === '.git';
  if (!isGit && protectingPattern(relative, patterns) !== undefined) {
    await addHidden(scan, absolute, kind === 'symlink', kind === 'directory');
    return;
  }
  // A link is mounted where it leads (bwrap follows it); a dangling one cannot be, and has nothing to protect.
  if (kind !== 'symlink' || (await stat(absolute).catch(() => undefined))) scan.readOnly.push(absolute);
}

/** A protected entry; a link is covered where it leads, and a dangling one is left alone (bwrap could not mount on it). */
async function addHidden(scan: WorkspaceScan, absolute: string, isLink: boolean, directory: boolean): Promise<void> {
  if (!isLink) {
    scan.hidden.push({ path: absolute, directory });
    return;
  }
  const target = await stat(absolute).catch(() => undefined);
  if (target) scan.hidden.push({ path: absolute, directory: target.isDirectory() });
}

/**
 * The workspace's protected files and folders (hidden in the sandbox), and its
 * existing control paths at any depth (read-only), for bwrap's arguments.
 */
export async function protectedPathsIn(
  root: string,
  patterns: readonly string[],
  signal: AbortSignal,
): Promise<{ hidden: { path: string; directory: boolean }[]; readOnly: string[] }> {
  const { hidden, readOnly } = await scanWorkspace(root, { protectedPatterns: patterns, signal });
  return { hidden, readOnly };
}

/** The control paths in `after` that were not in `before` at the same path with the same identity, shallowest first. */
export function newControlPaths(before: ReadonlyMap<string, ControlEntry>, after: ReadonlyMap<string, ControlEntry>): ControlEntry[] {
  const added = [...after.values()].filter((entry) => before.get(entry.path)?.identity !== entry.identity);
  return added.sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
}
