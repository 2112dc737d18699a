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
import { mkdir, open, stat, writeFile } from 'node:fs/promises';
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

/** Writes one lock hold may make for changes that arrive while it is held, so another window waits at most a few writes for the lock. */
const MAX_WRITES_PER_HOLD = 4;

interface PendingChange {
  change: (entries: SharedWindowEntry[]) => SharedWindowEntry[];
  resolve(): void;
  reject(error: unknown): void;
}

export class FileSharedWindow implements SharedWindow {
  private ownerId: string | undefined;
  private readonly lockPath: string;
  private readonly clock: Clock;
  /** Changes waiting for the lock, or for the write before them under the lock held now. */
  private pending: PendingChange[] = [];
  private holding = false;
  private folderMade = false;
  /** What this window last wrote and the file's identity after it: while the file still has it, nobody wrote since and it needs no reading. */
  private written: { identity: string; entries: SharedWindowEntry[] } | undefined;

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

  /**
   * Applies `change` under the lock to the entries read fresh. A request waits on this before it is
   * sent, so the lock's critical path is short: the entries are read only when another window wrote
   * since this one did (one stat tells), and changes that arrive while the lock is held are applied
   * and written under the same hold (nobody else can have written meanwhile) instead of waiting for
   * its release and taking it again.
   */
  update(change: (entries: SharedWindowEntry[]) => SharedWindowEntry[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ change, resolve, reject });
      if (!this.holding) void this.hold();
    });
  }

  private async hold(): Promise<void> {
    this.holding = true;
    const applied: PendingChange[] = [];
    try {
      if (!this.folderMade) await mkdir(dirname(this.path), { recursive: true });
      this.folderMade = true;
      // The SharedWindow port has no signal; a lock wait is bounded by the stale age instead (about STALE_LOCK_MS).
      const signal = new AbortController().signal;
      const lock = { signal, staleMs: STALE_LOCK_MS, futureSkewMs: LOCK_FUTURE_SKEW_MS, clock: this.clock };
      await withFolderLock(this.lockPath, () => this.underLock(applied, signal), lock);
      // Told once the lock is released, so a caller that goes on to touch the file finds it free.
      for (const waiting of applied) waiting.resolve();
    } catch (error) {
      for (const waiting of [...applied, ...this.pending.splice(0)]) waiting.reject(error);
    } finally {
      this.holding = false;
      if (this.pending.length > 0) void this.hold();
    }
  }

  /** Reads the entries, then applies and writes the waiting changes, and those that arrive meanwhile (a bounded number of writes). */
  private async underLock(applied: PendingChange[], signal: AbortSignal): Promise<void> {
    // Only a note for people looking at a lock left behind; written beside the work, not before it.
    const note = writeFile(`${this.lockPath}/owner`, `${this.owner} pid ${process.pid}\n`).catch(() => undefined);
    try {
      let entries = await this.readFresh();
      for (let writes = 0; writes < MAX_WRITES_PER_HOLD && this.pending.length > 0; writes++) {
        for (const waiting of this.pending.splice(0)) {
          try {
            entries = waiting.change(entries).slice(-MAX_SHARED_ENTRIES);
            applied.push(waiting);
          } catch (error) {
            waiting.reject(error);
          }
        }
        await this.write(entries, signal);
      }
    } finally {
      await note;
    }
  }

  private async write(entries: SharedWindowEntry[], signal: AbortSignal): Promise<void> {
    this.written = undefined;
    // No fsync: the window is minutes of reservations, rebuilt by the next update if a power cut loses it.
    await writeFileAtomic(this.path, JSON.stringify(entries), { signal, flush: false });
    const identity = await fileIdentity(this.path);
    // Kept as the file would read back (entries that are not well-formed are dropped by a read too).
    if (identity !== undefined) this.written = { identity, entries: entries.filter(isEntry).map((entry) => ({ ...entry })) };
  }

  /** The entries as the file holds them now: this window's last write when the file is still that one, else read. */
  private async readFresh(): Promise<SharedWindowEntry[]> {
    const written = this.written;
    if (written !== undefined && (await fileIdentity(this.path)) === written.identity) return written.entries.map((entry) => ({ ...entry }));
    return this.read();
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
 * Which file is at `path`: inode, size and change times (any write or rename changes one of them);
 * undefined when there is none or it is not a regular file.
 */
async function fileIdentity(path: string): Promise<string | undefined> {
  const info = await stat(path, { bigint: true }).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
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
