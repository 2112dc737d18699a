/**
 * Ceilings on what is read from the gateway, so a hostile or broken server
 * cannot fill memory: each body is counted as it is decoded (after gzip, so a
 * small compressed bomb is stopped at the same size as a plain body) and
 * reading stops, with a clear error, at the ceiling.
 */
import { ResponseTooLargeError } from './errors';
import type { FetchAnswer, FetchBodyReader } from './gatewayPorts';

export interface BodyLimits {
  /** GET /models: a list of model ids. */
  modelListBytes: number;
  /** Any other JSON answer (a whole non-streamed completion). */
  jsonBytes: number;
  /** An error answer: only its message is ever used. */
  errorBytes: number;
  /** Everything a stream sends, events and comments alike. */
  streamBytes: number;
  /**
   * One stream event (its data lines together, and any line not yet ended), in
   * characters: the parser holds one event whole before anything decodes it.
   */
  eventChars: number;
  /**
   * The data lines of one stream event. The parser builds an event's data a line at a time, one string node of
   * 30-100 bytes a line beside its characters: 8 M characters sent as `data:` lines of one character each held
   * ~280 MiB (Node 20) to ~350 MiB (Node 24) before the character ceiling stopped them.
   */
  eventLines: number;
  /** The answer text a stream builds (what the chat shows and a session keeps). */
  answerChars: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  modelListBytes: 4 * 1024 * 1024,
  jsonBytes: 32 * 1024 * 1024,
  errorBytes: 64 * 1024,
  streamBytes: 256 * 1024 * 1024,
  // The largest real event is `response.completed`: the whole response again (every output item, a tool call's
  // arguments whole), plus the echoed instructions and tool definitions. Models write at most about 128k tokens,
  // some 0.5-1 MB of JSON; the recordings' largest event is 1.7 KB. 8 M leaves room many times over, and keeps one
  // event (the string, then what JSON.parse makes of it) to tens of MB where 256 MB of one line took ~410 MiB.
  eventChars: 8 * 1024 * 1024,
  // Real events are one data line (JSON on one line); even pretty-printed JSON over data lines holds far fewer. At most
  // ~100 bytes a line besides the characters, 64 K lines hold under 7 MB.
  eventLines: 64 * 1024,
  answerChars: 8 * 1024 * 1024,
};

const MB = 1024 * 1024;

/** Sizes as people read them: "64 KB", "4 MB". */
export function describeSize(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function tooLarge(what: string, limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `The Gateway's ${what} passed ${describeSize(limit)}, more than a real answer holds, so reading stopped. Try again; if it happens again, the server at "gateway.baseUrl" is not behaving like the Gateway.`,
    limit,
  );
}

export function eventTooLarge(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `One event of the Gateway's stream passed ${describeSize(limit)} (${limit.toLocaleString('en-US')} characters), more than a real event holds, so reading stopped. ` +
      `Try again; if it happens again, the server at "gateway.baseUrl" is not behaving like the Gateway.`,
    limit,
  );
}

export function eventTooManyLines(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `One event of the Gateway's stream passed ${limit.toLocaleString('en-US')} data lines, more than a real event holds, so reading stopped. ` +
      `Try again; if it happens again, the server at "gateway.baseUrl" is not behaving like the Gateway.`,
    limit,
  );
}

/**
 * Reads a whole body as text, at most `maxBytes` of it (decoded). `onChunk`
 * runs for every chunk (the idle watchdog); `mapReadError` turns a failed read
 * into the transport's typed error. The body is cancelled when reading stops early.
 */
export async function readBoundedText(
  body: FetchAnswer['body'],
  maxBytes: number,
  what: string,
  onChunk: () => void,
  mapReadError: (error: unknown) => Error,
): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let received = 0;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<FetchBodyReader['read']>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw mapReadError(error);
      }
      if (chunk.done) break;
      onChunk();
      received += chunk.value.byteLength;
      if (received > maxBytes) throw tooLarge(what, maxBytes);
      parts.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  parts.push(decoder.decode());
  return parts.join('');
}
