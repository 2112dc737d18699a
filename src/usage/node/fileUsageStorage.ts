/**
 * The usage log as a file in the extension's global storage, shared by every window.
 * Each append opens the file with O_APPEND and writes its lines in one write, so the
 * lines of chat, agent and other windows never interleave; a line a crash tore is left
 * for the reader to skip, and the first append of a window starts on a fresh line.
 * A roll-up renames the file aside (atomic), so appends after it start a new file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { appendWhole } from '../../base/node';
import type { LogChunk, LogCursor, TakenLog, UsageStorage } from '../common/usageLog';

/** The most of the log read at once: about a month of heavy use; a larger file is read from its newest part. */
export const MAX_USAGE_READ_BYTES = 32 * 1024 * 1024;
/** A `.rolling` file this old belongs to a roll-up that a crash interrupted, not to one in progress. */
const LEFTOVER_AGE_MS = 10 * 60_000;
/**
 * The most of an unfinished last line kept for the next read. A line this code writes is far
 * shorter (MAX_LINE_CHARS); a longer tail without a newline is skipped, not re-read on every call.
 */
export const MAX_UNFINISHED_LINE_BYTES = 16 * 1024;

export class FileUsageStorage implements UsageStorage {
  private checkedTail = false;
  /** Bytes read from disk so far (the tests and the closing figures measure what each refresh costs). */
  bytesRead = 0;

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
    await appendWhole(this.path, prefix + text, { signal, mode: 0o600 });
  }

  async read(signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    return (await this.readBounded(this.path, 0)) ?? '';
  }

  async readFrom(cursor: LogCursor | undefined, signal: AbortSignal): Promise<LogChunk> {
    signal.throwIfAborted();
    let handle: FileHandle;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // Between a roll-up's move and its first append there is no log: nothing of today yet.
      return { text: '', cursor: { file: '', offset: 0, lastByte: -1 }, fromStart: true };
    }
    try {
      const info = await handle.stat();
      const file = `${info.dev}:${info.ino}`;
      const after = cursor?.file === file && cursor.offset <= info.size ? cursor.offset : undefined;
      // The byte before the cursor is read too: the same byte there says the file was not rewritten in place.
      if (after !== undefined && info.size - after <= this.maxReadBytes) {
        const from = Math.max(0, after - 1);
        const bytes = await this.readRange(handle, from, info.size);
        if (after === 0 || bytes[0] === cursor!.lastByte) return wholeLines(bytes.subarray(after - from), file, after, false, cursor!.lastByte);
      }
      signal.throwIfAborted();
      const start = Math.max(0, info.size - this.maxReadBytes);
      const bytes = await this.readRange(handle, start, info.size);
      // Cut into the middle of the file: the first, partial line is dropped.
      const skip = start > 0 ? bytes.indexOf(0x0a) + 1 : 0;
      return wholeLines(bytes.subarray(skip), file, start + skip, true, skip > 0 ? 0x0a : -1);
    } finally {
      await handle.close();
    }
  }

  private async readRange(handle: FileHandle, from: number, to: number): Promise<Buffer> {
    const buffer = Buffer.alloc(Math.max(0, to - from));
    const { bytesRead } = buffer.length > 0 ? await handle.read(buffer, 0, buffer.length, from) : { bytesRead: 0 };
    this.bytesRead += bytesRead;
    return buffer.subarray(0, bytesRead);
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
    if (from === 0 && size <= this.maxReadBytes) {
      const whole = await readFile(file);
      this.bytesRead += whole.length;
      return whole.toString('utf8');
    }
    const start = Math.max(from, size - this.maxReadBytes);
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(size - start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      this.bytesRead += bytesRead;
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

/** The whole lines of `bytes` (read from `offset` of `file`) and the cursor after them; an unfinished last line waits for its newline, unless it is too long to be one of ours. */
function wholeLines(bytes: Buffer, file: string, offset: number, fromStart: boolean, lastByte: number): LogChunk {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const used = bytes.length - end > MAX_UNFINISHED_LINE_BYTES ? bytes.length : end;
  const cursor = { file, offset: offset + used, lastByte: used > 0 ? bytes[used - 1]! : lastByte };
  return { text: bytes.subarray(0, used).toString('utf8'), cursor, fromStart };
}
