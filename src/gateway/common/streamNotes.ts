/**
 * Notes on what a stream carried that the client does not act on (a hosted tool
 * the gateway ran, a custom tool call): the user is told, the stream goes on.
 * Bounded, so a stream of a million such items does not become a million notes.
 */
import { ResponseTooLargeError } from './errors';
import type { StreamEvent } from './types';

/** Notes one stream may carry; past it one last note says how many more there were. */
const MAX_NOTES = 20;

export class StreamNotes {
  private count = 0;

  /** A note that the model's `itemType` output (a tool named `name`, when it has one) was not acted on. */
  unrequested(out: StreamEvent[], itemType: string, name?: string): void {
    this.count++;
    if (this.count > MAX_NOTES + 1) return;
    const type = wireName(itemType);
    if (this.count === MAX_NOTES + 1) {
      out.push({ type: 'note', itemType: type, text: 'The model sent more outputs the extension did not ask for; they are not shown.' });
      return;
    }
    const what = name === undefined ? `\`${type}\`` : `\`${type}\` (\`${wireName(name)}\`)`;
    out.push({ type: 'note', itemType: type, text: `The model sent ${what}, which the extension did not ask for; it is not shown or acted on.` });
  }
}

/** Notes one answer or agent step shows; the rest are counted in one closing line. */
export const SHOWN_NOTES = 3;

/**
 * The notes one answer shows: the first few as they come, the rest only counted, so that
 * a stream full of hosted tool calls does not bury the answer (the stream itself stops at 21).
 */
export class ShownNotes {
  private shown = 0;
  private held = 0;

  constructor(private readonly limit = SHOWN_NOTES) {}

  /** The note's text while under the limit; undefined past it (counted for `rest`). */
  take(text: string): string | undefined {
    if (this.shown < this.limit) {
      this.shown++;
      return text;
    }
    this.held++;
    return undefined;
  }

  /** The closing line for the notes held back ("…and 2 more"), once; undefined when none were. */
  rest(): string | undefined {
    const held = this.held;
    this.held = 0;
    if (held === 0) return undefined;
    return `…and ${held} more ${held === 1 ? 'output' : 'outputs'} the extension did not ask for.`;
  }
}

/**
 * A name from the wire as a note may show it: word characters, dots and dashes,
 * at most 64 (the text goes into Markdown; anything else could format it).
 */
export function wireName(name: string): string {
  const clean = name.replace(/[^\w.-]/g, '_').slice(0, 64);
  return clean === '' ? 'unknown' : clean;
}

/** A stream that holds more of something than any real answer does: reading stops with a clear error. */
export function tooMany(what: string, limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `The Gateway's stream held more than ${limit.toLocaleString('en-US')} ${what}, more than a real answer holds, so reading stopped. ` +
      'Try again; if it happens again, the server at "gateway.baseUrl" is not behaving like the Gateway.',
    limit,
  );
}
