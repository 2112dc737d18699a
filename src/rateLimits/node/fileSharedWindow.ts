/**
 * The rate window shared by the VS Code windows of this machine: a small JSON file
 * in the extension's global storage, read and written under a lock directory
 * (mkdir is atomic on every file system VS Code runs on). A lock left by a window
 * that died is broken once it is older than any holder keeps it, and so is one
 * dated ahead of now, which no holder makes (a clock set back, a broken or
 * hostile file) and which would otherwise hold every request until that date.
 * What the entries say is checked by the core (sharedWindowSync.ts); here the
 * file is only bounded in size and shape.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemClock, type Clock } from '../../base/common';
import { withFolderLock, writeFileAtomic } from '../../base/node';
import { MAX_SHARED_ENTRIES, type SharedWindow, type SharedWindowEntry } from '../common/sharedWindowSync';

/** A holder reads and writes a few KB: a lock older than this was left behind. */
const STALE_LOCK_MS = 2_000;
/** A lock dated further ahead than this was not made by a holder now (a file system's times lag the clock, never lead it by much). */
const LOCK_FUTURE_SKEW_MS = 1_000;
/** MAX_SHARED_ENTRIES entries of about 120 bytes each, with room to spare; a larger file is not one a window wrote. */
const MAX_FILE_BYTES = 1_000_000;

export interface FileSharedWindowOptions {
  /** Dates the lock's age and waits between attempts; tests pass virtual time. */
  clock?: Clock;
}

export class FileSharedWindow implements SharedWindow {
  private ownerId: string | undefined;
  private readonly lockPath: string;
  private readonly clock: Clock;

  constructor(
    private readonly path: string,
    options: FileSharedWindowOptions = {},
  ) {
    this.lockPath = `${path}.lock`;
    this.clock = options.clock ?? systemClock;
  }

  /** This window's id in the shared file; made at the first request (the first UUID costs about half a millisecond, not spent while the extension activates). */
  get owner(): string {
    this.ownerId ??= randomUUID();
    return this.ownerId;
  }

  async update(change: (entries: SharedWindowEntry[]) => SharedWindowEntry[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // The SharedWindow port has no signal; a lock wait is bounded by the stale age instead (about STALE_LOCK_MS).
    const signal = new AbortController().signal;
    const lock = { signal, staleMs: STALE_LOCK_MS, futureSkewMs: LOCK_FUTURE_SKEW_MS, clock: this.clock, owner: this.owner };
    await withFolderLock(
      this.lockPath,
      async () => {
        const next = change(await this.read()).slice(-MAX_SHARED_ENTRIES);
        // No fsync: the window is minutes of reservations, rebuilt by the next update if a power cut loses it.
        await writeFileAtomic(this.path, JSON.stringify(next), { signal, flush: false });
      },
      lock,
    );
  }

  /** The stored entries; anything unreadable (a torn, oversized or hostile file, or no file at all) counts as none. */
  private async read(): Promise<SharedWindowEntry[]> {
    const text = await readBounded(this.path, MAX_FILE_BYTES);
    if (text === undefined) return [];
    try {
      const parsed: unknown = JSON.parse(text);
      // More entries than any window writes: not this extension's file.
      if (!Array.isArray(parsed) || parsed.length > MAX_SHARED_ENTRIES) return [];
      return parsed.filter(isEntry);
    } catch {
      return [];
    }
  }
}

/**
 * The file's text when it is a regular file of at most `maxBytes`. Read through
 * one handle, never more than `maxBytes + 1` bytes, so a file that grows after a
 * size check cannot make this read it whole; opened without blocking, so a FIFO
 * in its place cannot hang the window.
 */
async function readBounded(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    // One byte more than the size said: filled, the file grew meanwhile (a write under no lock), and is not read on.
    const buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (let reads = 0; length < buffer.length && reads < 1000; reads++) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > info.size ? undefined : buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function isEntry(value: unknown): value is SharedWindowEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.owner === 'string' &&
    entry.owner.length <= 100 &&
    isCount(entry.requests) &&
    isCount(entry.tokens) &&
    isCount(entry.sentAt) &&
    (entry.answeredAt === null || isCount(entry.answeredAt))
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
