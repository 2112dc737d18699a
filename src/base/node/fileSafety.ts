/**
 * The Node layer's one way to write its own files safely (the extension's storage:
 * checkpoints, the session journal, the shared rate window, the usage log):
 * - `writeFileAtomic`: a reader sees the old content or the new, never a torn file;
 * - `appendWhole`: a text appended in one write, so the lines of two writers never interleave;
 * - `withFolderLock`: one holder at a time across processes, a lock left by a dead one broken.
 * Files in the user's workspace go through tools/node/anchoredFiles.ts instead (checked folders).
 *
 * Our own rather than write-file-atomic / proper-lockfile: neither takes an AbortSignal or the
 * Clock port (the lock's waits run in virtual time in tests), proper-lockfile keeps the lock
 * alive with an mtime timer and pulls in graceful-fs, retry and signal-exit, and what we need
 * is about a hundred lines.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { systemClock, type Clock } from '../common/ports';

export interface AtomicWriteOptions {
  signal: AbortSignal;
  /** fsync the new content before the rename, so a power cut cannot leave an empty file under the name. Default true. */
  flush?: boolean;
  mode?: number;
}

/**
 * Writes `data` to a temporary file beside `path` (a rename within one folder is atomic),
 * then renames it over `path`. Each write has its own random temporary name, so two writes
 * at once never rename each other's file away; on failure the temporary file is removed.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
  options.signal.throwIfAborted();
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { flush: options.flush ?? true, mode: options.mode });
    // Once written the rename follows whatever the signal says: a write begun is finished, not half-undone.
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** An append that could not be written whole (a full disk): the file may end in a torn line. */
export class ShortAppendError extends Error {
  constructor(
    readonly path: string,
    readonly written: number,
    readonly total: number,
  ) {
    super(`Appended only ${written} of ${total} bytes to ${path}.`);
    this.name = 'ShortAppendError';
  }
}

export interface AppendOptions {
  signal: AbortSignal;
  mode?: number;
}

/** A short write is finished with at most this many more; one that still falls short is a full disk, not slowness. */
const MAX_APPEND_WRITES = 8;

/**
 * Appends `data` through O_APPEND in one write (finished with a few more only on a short write),
 * so what two processes append never interleaves within a text.
 */
export async function appendWhole(path: string, data: string | Uint8Array, options: AppendOptions): Promise<void> {
  options.signal.throwIfAborted();
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length === 0) return;
  const handle = await open(path, 'a', options.mode);
  try {
    let written = 0;
    for (let i = 0; written < bytes.length && i < MAX_APPEND_WRITES; i++) {
      written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    }
    if (written < bytes.length) throw new ShortAppendError(path, written, bytes.length);
  } finally {
    await handle.close();
  }
}

/** The lock stayed held by a live holder for longer than the wait allows. */
export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string) {
    super(`Could not lock ${lockPath}.`);
    this.name = 'LockTimeoutError';
  }
}

export interface FolderLockOptions {
  signal: AbortSignal;
  /** A lock older than this was left by a holder that died (a holder keeps it for less). */
  staleMs: number;
  /** A lock dated further ahead than this was made by no holder now (a clock set back, a broken file). Default 1 s. */
  futureSkewMs?: number;
  /** Attempts before LockTimeoutError; between them a wait of 1–4 ms. Default 1000. */
  maxAttempts?: number;
  /** Dates the lock's age and waits between attempts; tests pass virtual time. */
  clock?: Clock;
  /** Written into the lock (`owner` file), so a person looking at a left lock can tell whose it was. */
  owner?: string;
}

/**
 * Runs `work` while holding the lock directory `lockPath` (mkdir is atomic on every file
 * system VS Code runs on), and releases it in `finally`. The lock's date is the directory's
 * time: one older than `staleMs` or dated ahead of now is broken. The wait is bounded and
 * ends when `signal` aborts.
 */
export async function withFolderLock<T>(lockPath: string, work: () => Promise<T>, options: FolderLockOptions): Promise<T> {
  await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    await rm(lockPath, { recursive: true, force: true });
  }
}

async function acquire(lockPath: string, options: FolderLockOptions): Promise<void> {
  const clock = options.clock ?? systemClock;
  const futureSkewMs = options.futureSkewMs ?? 1_000;
  const maxAttempts = options.maxAttempts ?? 1000;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    options.signal.throwIfAborted();
    if (await tryMake(lockPath, options.owner)) return;
    const held = await stat(lockPath).catch(() => undefined);
    const age = held === undefined ? 0 : clock.now() - held.mtimeMs;
    // Breaking is rm then mkdir: two waiters judging the same stale lock at once could each remove it and one
    // the other's new lock. A lock is stale only after staleMs, far longer than any live holder keeps it, so
    // this needs a holder dead and two waiters in the same few ms; the shared data stays well-formed (atomic writes).
    if (age > options.staleMs || age < -futureSkewMs || Number.isNaN(age)) await rm(lockPath, { recursive: true, force: true });
    else await clock.sleep(1 + Math.random() * 3, options.signal);
  }
  throw new LockTimeoutError(lockPath);
}

async function tryMake(lockPath: string, owner: string | undefined): Promise<boolean> {
  try {
    await mkdir(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
  // Only a note for people: a lock without it (a crash right after mkdir) is judged by its date all the same.
  if (owner !== undefined) await writeFile(`${lockPath}/owner`, `${owner} pid ${process.pid}\n`).catch(() => undefined);
  return true;
}
