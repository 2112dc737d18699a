/**
 * Text that comes in pieces: the answer text streamed so far, for the partial text an
 * error carries and the answer-size ceiling; a tool call's arguments, delta by delta.
 * Appending each delta to one string builds a chain of string nodes, one per delta,
 * that lives as long as the stream: long enough to be copied out of V8's young
 * generation and promoted, which made garbage collection about a tenth of a long
 * stream's cost when the decoders did it per 4-character delta. The stream reader now
 * appends a read's merged text once, and keeps the pieces in small batches, each
 * joined into one flat string (a slow stream brings a delta a read); the whole text is
 * joined only when asked for. The chain also costs memory, a node of 32 bytes a piece:
 * a hostile stream of one-character deltas (8 M characters of tool-call arguments, in
 * a 256 MB stream gzip sends in 4 MB) held 100-200 MB for 8 MB of characters.
 */

/** Pieces joined into one string at a time: bounds the pending array, and the joins stay linear in the text. */
const BATCH = 256;

export class TextSoFar {
  /** Characters so far. */
  length = 0;
  private joined: string[] = [];
  private pending: string[] = [];

  /** Pieces that start with `text` (a whole value the wire sent at once). */
  static of(text: string): TextSoFar {
    const pieces = new TextSoFar();
    pieces.append(text);
    return pieces;
  }

  append(text: string): void {
    if (text === '') return;
    this.pending.push(text);
    this.length += text.length;
    if (this.pending.length >= BATCH) this.flush();
  }

  toString(): string {
    this.flush();
    if (this.joined.length > 1) this.joined = [this.joined.join('')];
    return this.joined[0] ?? '';
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.joined.push(this.pending.join(''));
    this.pending = [];
  }
}
