/**
 * Reads an SSE body and hands each event to a protocol decoder, yielding the
 * decoder's events. One async generator for the whole pipeline (the caller's
 * hooks run inside it rather than in a second generator around it): the
 * per-event cost is one JSON.parse and a few type checks, which is what keeps
 * the client close to a bare parser's speed.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { eventTooLarge, eventTooManyLines, tooLarge } from './bodyLimits';
import type { DecodedKeyGuard } from './decodedKeyGuard';
import { ProtocolError, StreamInterruptedError } from './errors';
import { TextSoFar } from './textSoFar';
import type { StreamEvent } from './types';
import type { FetchAnswer, FetchBodyReader } from './gatewayPorts';

export interface StreamDecoder {
  /** Decodes one SSE event, pushing zero or more events to `out`; throws typed errors for in-stream failures. */
  decode(message: EventSourceMessage, out: StreamEvent[]): void;
  /** True once the terminal event has been decoded. */
  readonly finished: boolean;
  /** The body ended before the terminal event: finishes (pushing the last events) if what came is a whole answer. */
  end?(out: StreamEvent[]): void;
}

/** An opened stream: the body, its decoder, and the hooks of the exchange it came from. */
export interface SseSource {
  body: NonNullable<FetchAnswer['body']>;
  decoder: StreamDecoder;
  /**
   * Called when a chunk completed at least one event: keeps the idle watchdog
   * quiet. Comments (`: keep-alive`) and blank lines do not count, so a server
   * that only ever sends those still times out.
   */
  onActivity(): void;
  /** Ceiling on the bytes of the whole stream (events and comments alike). */
  maxBytes?: number;
  /** Ceiling on one event (its data lines together, and a line not yet ended), in characters. */
  maxEventChars?: number;
  /** Ceiling on the data lines of one event (the parser holds a string node a line beside the characters). */
  maxEventLines?: number;
  /** Ceiling on the answer text the decoder builds, and on its reasoning text. */
  maxAnswerChars?: number;
  /** Takes the key out of an event's text before anything decodes it (see redaction.ts). */
  redactor?: { redact(text: string): string; watchStream(): { sees(read: string): boolean }; guardDecoded(): DecodedKeyGuard | undefined };
  /** Maps a read failure (abort, timeout, socket reset) to the error to throw. */
  mapReadError(error: unknown): Error;
  /** Sees every event before the consumer does (usage accounting). */
  onEvent?(event: StreamEvent): void;
  /** Sees an error the decoder raised from an event in the stream (before the consumer does). */
  onError?(error: unknown): void;
  /** Runs once when the stream ends for any reason: releases the connection. */
  onClose(): void;
}

/**
 * `open` runs on the first `next()`, so request errors surface there, and the
 * request, the read loop and the decoding share this one generator.
 */
export async function* readSse(open: () => Promise<SseSource>): AsyncGenerator<StreamEvent, void, undefined> {
  const source = await open();
  const { decoder } = source;
  const pending: EventSourceMessage[] = [];
  const redactor = source.redactor;
  // Set for good once a read holds the key in any form: from then on every event is rewritten (a stream that echoes it once is not trusted again).
  let keySeen = false;
  const keyWatch = redactor?.watchStream();
  // The reads cannot show a key JSON-escaped or split over deltas: the decoded text is checked too, and is what the consumer and any error get.
  const guard = redactor?.guardDecoded();
  // The answer text decoded so far, kept a read's text event at a time (see textSoFar.ts): the answer-size ceiling, and an error's partial text when no guard keeps its own.
  const answer = new TextSoFar();
  const partial: PartialText = guard ?? {
    get partialText() {
      return answer.toString();
    },
  };
  const maxEventChars = source.maxEventChars ?? Number.POSITIVE_INFINITY;
  let eventOverflow = false;
  const parser = createParser({
    onEvent: (message) =>
      pending.push(keySeen && redactor ? { ...message, event: message.event && redactor.redact(message.event), data: redactor.redact(message.data) } : message),
    // The parser drops what it held once one event passes the bound (one endless line, or data lines without the blank line
    // that ends an event), so memory stays near the bound; its other complaints (an unknown field) are ignored, as the spec says.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') eventOverflow = true;
    },
    ...(Number.isFinite(maxEventChars) ? { maxBufferSize: maxEventChars } : {}),
  });
  const maxEventLines = source.maxEventLines ?? Number.POSITIVE_INFINITY;
  const eventLines = new HeldDataLines();
  const reader = source.body.getReader();
  const text = new TextDecoder();
  const out: StreamEvent[] = [];
  const screened: StreamEvent[] = [];
  const onEvent = source.onEvent;
  let lastFed = '';
  let received = 0;
  const maxBytes = source.maxBytes ?? Number.POSITIVE_INFINITY;
  const maxAnswerChars = source.maxAnswerChars ?? Number.POSITIVE_INFINITY;
  let reasoningChars = 0;
  try {
    while (!decoder.finished) {
      let chunk: Awaited<ReturnType<FetchBodyReader['read']>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw withPartial(source.mapReadError(error), partial);
      }
      if (!chunk.done) {
        received += chunk.value.byteLength;
        if (received > maxBytes) throw withPartial(tooLarge('stream', maxBytes), partial);
      }
      const input = chunk.done ? endOfBody(text, lastFed) : text.decode(chunk.value, { stream: true });
      // Before the read's events are parsed, so the events of the read that brings the key are rewritten too.
      if (keyWatch && !keySeen) keySeen = keyWatch.sees(input);
      if (input !== '') {
        parser.feed(input);
        eventLines.read(input, pending.length > 0);
      }
      if (chunk.done && !eventOverflow) takeUnterminatedEvent(parser, pending);
      if (pending.length > 0) source.onActivity();
      lastFed = input || lastFed;
      let failure: unknown;
      try {
        for (let i = 0; i < pending.length && !decoder.finished; i++) decoder.decode(pending[i], out);
        if (chunk.done && !decoder.finished) decoder.end?.(out);
      } catch (error) {
        failure = error;
      } finally {
        pending.length = 0;
      }
      for (const event of out) {
        if (event.type === 'text') answer.append(event.text);
        else if (event.type === 'reasoning') reasoningChars += event.text.length;
      }
      let events = out;
      if (guard) {
        guard.screen(out, screened);
        out.length = 0;
        events = screened;
        keySeen ||= guard.sawKey;
      }
      // After the screening, so the partial text holds this read's text too; set whether or not an onError sees the error.
      if (failure !== undefined) {
        withPartial(failure, partial);
        source.onError?.(failure);
      }
      // Events decoded before a failure in the same chunk are still delivered, in order.
      for (let i = 0; i < events.length; i++) {
        onEvent?.(events[i]);
        yield events[i];
      }
      events.length = 0;
      if (failure !== undefined) throw failure;
      if (eventOverflow && !decoder.finished) throw withPartial(eventTooLarge(maxEventChars), partial);
      if (eventLines.count > maxEventLines && !decoder.finished) throw withPartial(eventTooManyLines(maxEventLines), partial);
      if (answer.length > maxAnswerChars) throw withPartial(tooLarge('answer text', maxAnswerChars), partial);
      // The consumer keeps the reasoning as it keeps the answer (a collapsed part of it): the same ceiling.
      if (reasoningChars > maxAnswerChars) throw withPartial(tooLarge('reasoning text', maxAnswerChars), partial);
      if (chunk.done) break;
    }
    if (!decoder.finished) {
      throw withPartial(
        new StreamInterruptedError('The connection to the Gateway closed before the answer was complete. The partial answer is kept; try again.'),
        partial,
      );
    }
  } finally {
    // Stop the download at once when the consumer stops early or an error ends the stream.
    reader.cancel().catch(() => undefined);
    source.onClose();
  }
}

/**
 * Counts the data lines the parser holds for an event not ended yet. The parser joins them one line at a time, a
 * string node (30-100 bytes) a line beside the characters, so its character ceiling alone let one event of short
 * lines take hundreds of MB. A read that completed an event starts the count again: the lines after that event in
 * the same read go uncounted, at most one read's worth. Only reads that complete no event are searched (a real
 * stream's reads end events; those that do not are the middle of one long line, searched in two scans).
 */
class HeldDataLines {
  count = 0;
  /** The last characters read: a line may start in one read and go on in the next. */
  private tail = '\n';

  read(input: string, completedEvent: boolean): void {
    if (completedEvent) this.count = 0;
    else this.count += dataLineStarts(this.tail, input);
    this.tail = input.length >= 4 ? input.slice(-4) : (this.tail + input).slice(-4);
  }
}

/** Lines of `text` that start with `data`, `before` being the characters read just before it (a line starts after `\n` or `\r`). */
function dataLineStarts(before: string, text: string): number {
  let count = 0;
  // A line that starts in `before` and goes on into `text` (a five-character match cannot fit in four characters).
  const seam = before + text.slice(0, 4);
  for (let i = 0; i < before.length; i++) if ((seam[i] === '\n' || seam[i] === '\r') && seam.startsWith('data', i + 1)) count++;
  for (let i = text.indexOf('\ndata'); i !== -1; i = text.indexOf('\ndata', i + 5)) count++;
  for (let i = text.indexOf('\rdata'); i !== -1; i = text.indexOf('\rdata', i + 5)) count++;
  return count;
}

/**
 * What is left to feed once the body ends: the decoder's held-back bytes, and a
 * '\n' after a final '\r', which the parser holds back in case '\n' follows
 * (a CR-only stream would otherwise lose its last event, the terminal one).
 */
function endOfBody(text: TextDecoder, lastFed: string): string {
  const rest = text.decode();
  return (rest || lastFed).endsWith('\r') ? `${rest}\n` : rest;
}

/**
 * Providers close the connection right after their last event, and some before
 * the blank line that ends it (`data: [DONE]` alone, or the last chunk with no
 * `[DONE]`): an event sent whole is taken, one cut off mid-way (its data not
 * whole JSON) is not, and the stream is then as incomplete as it was.
 */
function takeUnterminatedEvent(parser: EventSourceParser, pending: EventSourceMessage[]): void {
  const whole = pending.length;
  parser.feed('\n\n');
  if (pending.length > whole && !isWholeData(pending[whole].data)) pending.length = whole;
}

function isWholeData(data: string): boolean {
  if (data === '[DONE]') return true;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

/** Where an error's partial text comes from: the guard's (what the consumer was shown) when there is a key, else the text decoded. */
interface PartialText {
  readonly partialText: string;
}

function withPartial(error: unknown, source: PartialText): unknown {
  if (error instanceof Error && 'partialText' in error) (error as { partialText: string }).partialText = source.partialText;
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

/**
 * Text deltas that arrived in the same network read become one text event: the
 * consumer gets the same text no later, and renders it once instead of per token.
 */
export function pushText(out: StreamEvent[], text: string): void {
  const last = out.length > 0 ? out[out.length - 1] : undefined;
  if (last !== undefined && last.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}
