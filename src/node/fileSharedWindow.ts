/**
 * The rate window shared by the VS Code windows of this machine: a small JSON file
 * in the extension's global storage, read and written under a lock directory
 * (mkdir is atomic on every file system VS Code runs on). A lock left by a window
 * that died is broken once it is older than any holder keeps it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SharedWindow, SharedWindowEntry } from '../core/api/sharedWindowSync';

/** A holder reads and writes a few KB: a lock older than this was left behind. */
const STALE_LOCK_MS = 2_000;
/** The file never holds more than this many reservations (one per request in a window, of every window). */
const MAX_ENTRIES = 5_000;
const MAX_FILE_BYTES = 1_000_000;

export class FileSharedWindow implements SharedWindow {
  readonly owner = randomUUID();
  private readonly lockPath: string;

  constructor(private readonly path: string) {
    this.lockPath = `${path}.lock`;
  }

  async update(change: (entries: SharedWindowEntry[]) => SharedWindowEntry[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await this.lock();
    try {
      const next = change(await this.read()).slice(-MAX_ENTRIES);
      const temporary = `${this.path}.${this.owner}.tmp`;
      await writeFile(temporary, JSON.stringify(next));
      await rename(temporary, this.path);
    } finally {
      await rm(this.lockPath, { recursive: true, force: true });
    }
  }

  private async lock(): Promise<void> {
    // Bounded: past the stale age the lock is broken, so this loop ends within about STALE_LOCK_MS.
    for (let attempt = 0; attempt < 1000; attempt++) {
      try {
        await mkdir(this.lockPath);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await stat(this.lockPath).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(this.lockPath, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 3));
    }
    throw new Error(`Could not lock ${this.lockPath}.`);
  }

  /** The stored entries; anything unreadable (a torn or hostile file) counts as none. */
  private async read(): Promise<SharedWindowEntry[]> {
    let text: string;
    try {
      const info = await stat(this.path);
      if (info.size > MAX_FILE_BYTES) return [];
      text = await readFile(this.path, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? parsed.filter(isEntry).slice(-MAX_ENTRIES) : [];
    } catch {
      return [];
    }
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
