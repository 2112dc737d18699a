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
