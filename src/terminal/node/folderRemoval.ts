/**
 * What removing a workspace folder would take with it. A landing removes a folder for a deletion (a whiteout),
 * an opaque folder (the command removed the folder and made it again), and for a file, link or special file the
 * command put where the folder was (overlayfs keeps just that entry in its layer, no whiteout: round 17). Each is
 * judged here by what the workspace has at that path, never by the kind of the new entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isGitDirectory } from './gitStructure';

/** Errors that say a folder is gone or was swapped for something else meanwhile. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

export interface RemovalLook {
  /** The workspace folder (absolute) whose removal is judged. */
  folder: string;
  /** When the command could start writing: an entry changed later was changed by someone else. */
  startedAt: number;
  /** Entries looked through before the removal is taken as too large to judge. */
  maxEntries: number;
  /** Wall-clock time after which what is not yet looked at is unknown. */
  deadline: number;
  now: () => number;
  signal: AbortSignal;
}

/**
 * Whether removing `look.folder` would remove a repository (or a tree too large, too slow or unreadable to look
 * through: then it waits for the user too), and whether something in it changed while the command ran. Not a
 * folder (or gone): nothing more is removed than the entry itself.
 */
export async function removalOf(look: RemovalLook): Promise<{ repository: boolean; changedOutside: boolean }> {
  const top = await lstat(look.folder).catch(() => undefined);
  if (!top?.isDirectory()) return { repository: false, changedOutside: false };
  let seen = 0;
  let changedOutside = false;
  const pending = [look.folder];
  // Bounded: each round takes one folder, and past maxEntries names (or the deadline) it stops.
  while (pending.length > 0) {
    look.signal.throwIfAborted();
    // Out of time: what the removal would take was not all looked at, so it waits for the user.
    if (look.now() > look.deadline) return { repository: true, changedOutside };
    const folder = pending.pop() as string;
    const names = await readdir(folder, { withFileTypes: true }).catch((error: unknown) =>
      GONE.has((error as NodeJS.ErrnoException).code ?? '') ? [] : undefined,
    );
    // A folder the host cannot list: what the removal would take is unknown, so it waits for the user.
    if (!names) return { repository: true, changedOutside };
    if (await holdsRepository(folder, new Set(names.map((entry) => entry.name)))) return { repository: true, changedOutside };
    for (const entry of names) {
      if (++seen > look.maxEntries) return { repository: true, changedOutside };
      const child = join(folder, entry.name);
      if (((await lstat(child).catch(() => undefined))?.ctimeMs ?? 0) > look.startedAt) changedOutside = true;
      if (entry.isDirectory()) pending.push(child);
    }
  }
  return { repository: false, changedOutside };
}

/** Whether a folder listing `names` is a repository's top (Git, Mercurial, Sapling) or a git directory itself. */
async function holdsRepository(folder: string, names: ReadonlySet<string>): Promise<boolean> {
  if (names.has('.git') || names.has('.hg') || names.has('.sl')) return true;
  return names.has('HEAD') && (await isGitDirectory(folder).catch(() => true));
}

/** Every entry below `folder` by name, identity and change time, as one digest; a tree past `maxEntries` gets a stamp that never matches. */
export async function treeStamp(folder: string, maxEntries: number): Promise<string> {
  const hash = createHash('sha256');
  let seen = 0;
  const pending = [folder];
  // Bounded: past maxEntries names it stops.
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const names = (await readdir(current).catch(() => [] as string[])).sort();
    for (const name of names) {
      if (++seen > maxEntries) return `too large ${randomBytes(8).toString('hex')}`;
      const info = await lstat(join(current, name)).catch(() => undefined);
      hash.update(`${current.length}:${current}/${name}:${info?.ino ?? 0}:${info?.ctimeMs ?? 0}\n`);
      if (info?.isDirectory()) pending.push(join(current, name));
    }
  }
  return hash.digest('hex');
}
