/**
 * Reaching a path without following a link anywhere on the way, on both sides of a landing: the workspace's
 * folder opened and checked to be where it should be, the layer's file opened one folder at a time.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, type Dirent } from 'node:fs';
import { copyFile, open, readdir, readlink, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { shownPath } from '../common/controlPaths';
import { absentOr, readStart } from './gitStructure';

/**
 * Moves `source` to `name` in the open folder: a rename on one file system, else a copy under a temporary name
 * renamed into place, so the workspace never shows a half-written file.
 */
export async function moveInto(source: string, folder: string, name: string): Promise<void> {
  try {
    await rename(source, `${folder}/${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const temporary = `${folder}/.gateway-landing-${randomBytes(6).toString('hex')}`;
    await copyFile(source, temporary, constants.COPYFILE_EXCL);
    await rename(temporary, `${folder}/${name}`).catch(async (renameError: unknown) => {
      await rm(temporary, { force: true });
      throw renameError;
    });
    await rm(source, { force: true });
  }
}

/**
 * Opens `path` (relative, `/`-separated) below `base` one name at a time, each folder opened without following a
 * link and the next name looked up in it (through /proc/self/fd), the file last without following a link or
 * waiting on a pipe: a running command that swaps any folder on the way for a link to the host's files gets
 * ELOOP, never the host's file.
 */
export async function openBeneath(base: string, path: string, what: 'file' | 'folder' = 'file'): Promise<FileHandle> {
  const names = path === '' ? [] : path.split('/');
  const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  let folder = await open(base, folderFlags);
  try {
    for (const name of what === 'folder' ? names : names.slice(0, -1)) {
      const next = await open(`/proc/self/fd/${folder.fd}/${name}`, folderFlags);
      await folder.close();
      folder = next;
    }
  } catch (error) {
    await folder.close();
    throw error;
  }
  if (what === 'folder') return folder;
  try {
    return await open(`/proc/self/fd/${folder.fd}/${names[names.length - 1]}`, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } finally {
    await folder.close();
  }
}

/**
 * Runs `work` with the workspace folder `parent` ('' for the root) open: opened without following a final link
 * and checked to be really at root/parent (no folder on the way swapped for a link). Names under the open
 * folder's /proc path resolve in that folder whatever happens to the path meanwhile.
 */
export async function withPinnedFolder<T>(root: string, parent: string, work: (folder: string) => Promise<T>): Promise<T> {
  const expected = parent === '' ? root : join(root, ...parent.split('/'));
  const handle = await open(expected, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch((error: unknown) => {
    throw new Error(`its folder ${shownPath(parent || '.')} is gone or is a link now (${reasonOf(error)})`);
  });
  try {
    const folder = `/proc/self/fd/${handle.fd}`;
    if ((await readlink(folder)) !== expected) throw new Error(`its folder ${shownPath(parent || '.')} was moved while the change was landing`);
    return await work(folder);
  } finally {
    await handle.close();
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * As openBeneath for a folder, synchronously: its descriptor, or undefined when a name on the way is gone or a
 * link. `failure`, when given, gets the error's code (ELOOP for a link, EACCES for a folder its owner cannot read).
 */
export function openBeneathSync(base: string, path: string, failure?: { code?: string }): number | undefined {
  const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  let folder: number;
  try {
    folder = openSync(base, flags);
  } catch (error) {
    if (failure) failure.code = (error as NodeJS.ErrnoException).code;
    return undefined;
  }
  for (const name of path === '' ? [] : path.split('/')) {
    let next: number;
    try {
      next = openSync(`/proc/self/fd/${folder}/${name}`, flags);
    } catch (error) {
      if (failure) failure.code = (error as NodeJS.ErrnoException).code;
      closeSync(folder);
      return undefined;
    }
    closeSync(folder);
    folder = next;
  }
  return folder;
}

/**
 * Runs `work` on the folder `path` (relative, `/`-separated, '' for `base` itself) beneath `base`, reached one name
 * at a time without following a link (openBeneathSync), through its /proc path: a name under it resolves in that
 * folder. Undefined when a name on the way is gone, not a folder or a link (in the command's layer a link is held
 * as a link: where it leads is never read); any other failure (a folder the host cannot open) throws, as absentOr.
 */
export async function withFolderBeneath<T>(base: string, path: string, work: (folder: string) => Promise<T>): Promise<T | undefined> {
  const failure: { code?: string } = {};
  const descriptor = openBeneathSync(base, path, failure);
  if (descriptor === undefined) return absentOr(failure, path || '.');
  try {
    return await work(`/proc/self/fd/${descriptor}`);
  } finally {
    closeSync(descriptor);
  }
}

/** The first `bytes` of the regular file `path` beneath `base`, no link followed on the way or at its end (readStart). */
export function readBeneath(base: string, path: string, bytes: number, whole?: (size: number) => Error): Promise<string | undefined> {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  return withFolderBeneath(base, slash < 0 ? '' : path.slice(0, slash), (folder) => readStart(`${folder}/${name}`, bytes, 'refuse', whole));
}

/** The entries of the folder `path` beneath `base`, no link followed on the way or at its end; none when it is not there. */
export async function listBeneath(base: string, path: string): Promise<Dirent[]> {
  return (await withFolderBeneath(base, path, (folder) => readdir(folder, { withFileTypes: true }).catch((error: unknown) => absentOr(error, path)))) ?? [];
}
