/**
 * The output of a command that keeps running, as the model reads it: only the
 * last `capacity` bytes are kept (a runaway `yes` must not grow memory), and a
 * read returns what is new since the last one, with how many bytes were dropped
 * unread in between.
 */
import { tailBytes, utf8Length } from '../../base/common';

interface Chunk {
  text: string;
  bytes: number;
}

export class OutputRing {
  private chunks: Chunk[] = [];
  /** Bytes kept now (at most `capacity`). */
  private kept = 0;
  /** Bytes ever added. */
  private written = 0;
  /** Where the last read ended, counted in bytes ever added. */
  private readUpTo = 0;

  constructor(private readonly capacity: number) {}

  add(text: string): void {
    const bytes = utf8Length(text);
    if (bytes === 0) return;
    this.written += bytes;
    this.chunks.push({ text, bytes });
    this.kept += bytes;
    this.trimFront();
  }

  /** Bytes added since the last read that are still kept. */
  get unreadBytes(): number {
    return this.written - Math.max(this.readUpTo, this.written - this.kept);
  }

  /** Bytes held in memory, for the bound's tests. */
  get retainedBytes(): number {
    return this.kept;
  }

  /** What is new since the last read, and the bytes that were dropped before it could be read. */
  read(): { text: string; droppedBytes: number } {
    const keptFrom = this.written - this.kept;
    const droppedBytes = Math.max(0, keptFrom - this.readUpTo);
    let skip = Math.max(0, this.readUpTo - keptFrom);
    let text = '';
    for (const chunk of this.chunks) {
      // Reads always end at the end, so a read boundary falls between chunks.
      if (skip >= chunk.bytes) skip -= chunk.bytes;
      else text += chunk.text;
    }
    this.readUpTo = this.written;
    return { text, droppedBytes };
  }

  /** Drops the oldest bytes past the capacity; a chunk is cut on a character boundary. */
  private trimFront(): void {
    while (this.kept > this.capacity && this.chunks.length > 0) {
      const first = this.chunks[0];
      const excess = this.kept - this.capacity;
      if (excess >= first.bytes) {
        this.chunks.shift();
        this.kept -= first.bytes;
        continue;
      }
      const tail = tailBytes(first.text, first.bytes - excess);
      const bytes = first.bytes - tail.omittedBytes;
      this.chunks[0] = { text: tail.text, bytes };
      this.kept -= first.bytes - bytes;
    }
  }
}
