/**
 * The usage log as a file in the extension's global storage, shared by every window.
 * Each append opens the file with O_APPEND and writes its lines in one write, so the
 * lines of chat, agent and other windows never interleave; a line a crash tore is left
 * for the reader to skip, and the first append of a window starts on a fresh line.
 * A roll-up renames the file aside (atomic), so appends after it start a new file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TakenLog, UsageStorage } from '../core/usage/usageLog';

/** The most of the log read at once: about a month of heavy use; a larger file is read from its newest part. */
export const MAX_USAGE_READ_BYTES = 32 * 1024 * 1024;
/** A `.rolling` file this old belongs to a roll-up that a crash interrupted, not to one in progress. */
const LEFTOVER_AGE_MS = 10 * 60_000;

export class FileUsageStorage implements UsageStorage {
  private checkedTail = false;

  constructor(
    private readonly path: string,
    private readonly maxReadBytes = MAX_USAGE_READ_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  async append(text: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (text === '') return;
    await mkdir(dirname(this.path), { recursive: true });
    // A line torn by a crash would swallow the first line written after it.
    const prefix = this.checkedTail ? '' : await this.newlineIfTorn(this.path);
    this.checkedTail = true;
    const bytes = Buffer.from(prefix + text, 'utf8');
    const handle = await open(this.path, 'a', 0o600);
    try {
      // One write for the whole text; a short write (a full disk) finishes with more, never reorders.
      let written = 0;
      for (let i = 0; written < bytes.length && i < 8; i++) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    } finally {
      await handle.close();
    }
  }

  async read(signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    return (await this.readBounded(this.path, 0)) ?? '';
  }

  async takeForRollUp(signal: AbortSignal): Promise<TakenLog | undefined> {
    signal.throwIfAborted();
    const leftovers = await this.leftovers();
    const taken = `${this.path}.${randomUUID()}.rolling`;
    let moved = true;
    try {
      await rename(this.path, taken);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      moved = false;
    }
    if (!moved && leftovers.length === 0) return undefined;
    const own = moved ? ((await this.readBounded(taken, 0)) ?? '') : '';
    const takenBytes = Buffer.byteLength(own, 'utf8');
    let text = own;
    for (const leftover of leftovers) text += `\n${(await this.readBounded(leftover, 0)) ?? ''}`;
    return {
      text,
      finish: async () => {
        // A writer that opened the file just before the rename appended to the moved file.
        const late = moved ? ((await this.readBounded(taken, takenBytes)) ?? '') : '';
        for (const file of moved ? [taken, ...leftovers] : leftovers) await rm(file, { force: true });
        return late;
      },
    };
  }

  private async leftovers(): Promise<string[]> {
    const folder = dirname(this.path);
    const prefix = `${basename(this.path)}.`;
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    const found: string[] = [];
    for (const name of names.filter((n) => n.startsWith(prefix) && n.endsWith('.rolling')).slice(0, 20)) {
      const file = join(folder, name);
      const info = await stat(file).catch(() => undefined);
      if (info && this.now() - info.mtimeMs > LEFTOVER_AGE_MS) found.push(file);
    }
    return found;
  }

  /** The file's text from `from` (bytes), at most maxReadBytes of its end, starting at a line; undefined when it is missing. */
  private async readBounded(file: string, from: number): Promise<string | undefined> {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      return undefined;
    }
    if (size <= from) return '';
    if (from === 0 && size <= this.maxReadBytes) return readFile(file, 'utf8');
    const start = Math.max(from, size - this.maxReadBytes);
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(size - start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      // Cut into the middle of the file: the first, partial line is dropped.
      return start > from ? text.slice(text.indexOf('\n') + 1) : text;
    } finally {
      await handle.close();
    }
  }

  private async newlineIfTorn(file: string): Promise<string> {
    try {
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        if (size === 0) return '';
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        return last[0] === 0x0a ? '' : '\n';
      } finally {
        await handle.close();
      }
    } catch {
      return '';
    }
  }
}
