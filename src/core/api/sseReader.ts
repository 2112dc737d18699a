/**
 * Reads an SSE body and hands each event to a protocol decoder, yielding the
 * decoder's events. One async generator for the whole pipeline: the per-event
 * cost is one JSON.parse and a few type checks, which is what keeps the client
 * close to a bare parser's speed.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProtocolError, StreamInterruptedError } from './errors';
import type { StreamEvent } from './types';

export interface StreamDecoder {
  /** Decodes one SSE event, pushing zero or more events to `out`; throws typed errors for in-stream failures. */
  decode(message: EventSourceMessage, out: StreamEvent[]): void;
  /** True once the terminal event has been decoded. */
  readonly finished: boolean;
  /** Text streamed so far, attached to any error. */
  readonly partialText: string;
}

export interface ReadOptions {
  /** Called for every chunk received: keeps the idle watchdog quiet. */
  onActivity(): void;
  /** Maps a read failure (abort, timeout, socket reset) to the error to throw. */
  mapReadError(error: unknown): Error;
}

export async function* readSse(
  body: ReadableStream<Uint8Array>,
  decoder: StreamDecoder,
  options: ReadOptions,
): AsyncGenerator<StreamEvent, void, undefined> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const reader = body.getReader();
  const text = new TextDecoder();
  const out: StreamEvent[] = [];
  try {
    while (!decoder.finished) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw withPartial(options.mapReadError(error), decoder);
      }
      if (chunk.done) break;
      options.onActivity();
      parser.feed(text.decode(chunk.value, { stream: true }));
      let failure: unknown;
      try {
        for (let i = 0; i < pending.length && !decoder.finished; i++) decoder.decode(pending[i], out);
      } catch (error) {
        failure = withPartial(error, decoder);
      } finally {
        pending.length = 0;
      }
      // Events decoded before a failure in the same chunk are still delivered, in order.
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
      if (failure !== undefined) throw failure;
    }
    if (!decoder.finished) {
      throw withPartial(
        new StreamInterruptedError(
          'The connection to the Gateway closed before the answer was complete. The partial answer is kept; try again.',
        ),
        decoder,
      );
    }
  } finally {
    // Stop the download at once when the consumer stops early or an error ends the stream.
    reader.cancel().catch(() => undefined);
  }
}

function withPartial(error: unknown, decoder: StreamDecoder): unknown {
  if (error instanceof StreamInterruptedError || (error as { partialText?: unknown })?.partialText !== undefined) {
    (error as { partialText: string }).partialText = decoder.partialText;
  }
  return error;
}

/** JSON.parse with a protocol error instead of a SyntaxError. */
export function parseJsonPayload(data: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ProtocolError(`The Gateway sent a stream event that is not JSON (${data.slice(0, 60)}). Try again.`);
  }
  if (value === null || typeof value !== 'object') {
    throw new ProtocolError('The Gateway sent a stream event that is not a JSON object. Try again.');
  }
  return value as Record<string, unknown>;
}
