/** The FileChanges port on the local file system. */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileChanges } from '../core/ports';
import { absoluteInside, isInside } from './workspaceRoot';

export class NodeFileChanges implements FileChanges {
  constructor(readonly root: string) {}

  /**
   * Writes in place rather than through a temporary file and a rename, so the
   * file keeps its permissions and a symlink (already checked to stay inside)
   * keeps pointing where it did. The path is resolved again here, at the last
   * moment, and the file opened by its real path with O_NOFOLLOW; on Linux the
   * opened file's own path (/proc/self/fd) is checked before a byte is written,
   * so a symlink re-pointed after the tool's check cannot carry the write outside.
   */
  async write(path: string, content: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const realRoot = await realpath(this.root);
    const absolute = absoluteInside(this.root, path);
    await mkdir(dirname(absolute), { recursive: true });
    const target = await realTarget(realRoot, absolute, path);
    const created = !(await exists(target));
    // O_NONBLOCK: a FIFO put in the file's place fails at once instead of blocking until someone reads it.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | (created ? constants.O_EXCL : 0);
    const handle = await open(target, flags, 0o666);
    try {
      await checkOpened(handle, realRoot, path, created);
      await handle.truncate(0);
      await handle.writeFile(content, { encoding: 'utf8', signal });
    } finally {
      await handle.close();
    }
  }

  async delete(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(absoluteInside(this.root, path), { force: true });
  }
}

/**
 * The same last check for a host that writes by other means (VS Code's
 * WorkspaceEdit): the path, resolved now, stays inside the root and is not a
 * hard-linked file. Throws with the reason otherwise.
 */
export async function checkWriteTarget(root: string, path: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const realRoot = await realpath(root);
  const absolute = absoluteInside(root, path);
  const folder = await nearestExisting(dirname(absolute));
  if (!isInside(realRoot, await realpath(folder))) throw new Error(`"${path}" leads outside the workspace; nothing was written.`);
  if (folder !== dirname(absolute)) return;
  const target = await realTarget(realRoot, absolute, path);
  const info = await stat(target).catch(() => undefined);
  if (info?.isFile() && info.nlink > 1) throw new Error(`${hardLinkMessage(path, info.nlink)} Nothing was written.`);
}

async function nearestExisting(folder: string): Promise<string> {
  for (let current = folder; ; current = dirname(current)) {
    if (await exists(current)) return current;
    if (dirname(current) === current) return current;
  }
}

/** Why a file with more than one name is neither read nor written. */
export function hardLinkMessage(path: string, links: number): string {
  return (
    `"${path}" is a hard link (the same file has ${links} names), so it may be a protected file such as .env or a key under another name; ` +
    'the agent does not read or write hard-linked files.'
  );
}

/**
 * The real path a write to `absolute` lands on: its folder resolved, and a
 * final symlink followed. Refused when either leads outside the real root.
 */
async function realTarget(realRoot: string, absolute: string, shown: string): Promise<string> {
  const folder = await realpath(dirname(absolute));
  const joined = join(folder, basename(absolute));
  const target = await realpath(joined).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return joined;
    throw error;
  });
  if (!isInside(realRoot, target)) throw new Error(`"${shown}" leads outside the workspace (to ${target}); nothing was written.`);
  return target;
}

/** The file actually opened: a regular file, with one name, inside the root. A file this call created outside is removed again. */
async function checkOpened(handle: FileHandle, realRoot: string, shown: string, created: boolean): Promise<void> {
  const info = await handle.stat();
  const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (opened !== undefined && !isInside(realRoot, opened)) {
    if (created) await unlink(opened).catch(() => undefined);
    throw new Error(`"${shown}" was moved outside the workspace while it was being written; nothing was written.`);
  }
  if (!info.isFile()) throw new Error(`"${shown}" is not a regular file; nothing was written.`);
  if (info.nlink > 1) throw new Error(`${hardLinkMessage(shown, info.nlink)} Nothing was written.`);
}

/** Whether anything (a symlink included) is at `path`. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
