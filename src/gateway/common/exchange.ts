/**
 * One attempt at an HTTP exchange with the gateway: the fetch under the caller's
 * signal and an idle watchdog that also covers the body, the rate-limit headers
 * recorded, the key kept out of everything read back, and failures mapped to
 * typed errors. Retries, pacing and error answers are the transport's.
 */
import type { Clock, Logger } from '../../base/common';
import type { FetchAnswer, FetchLike } from './gatewayPorts';
import { redact } from './redaction';
import { type ErrorContext } from './errorMapping';
import { AbortError, ConnectionError, GatewayError, RedirectRefusedError, StreamInterruptedError, StreamTimeoutError } from './errors';
import { IdleWatchdog } from './idleWatchdog';
import type { LimitTracker, Reservation } from '../../rateLimits/common';
import { SecretRedactor } from './redaction';
import type { CallOptions } from './types';

export interface Exchange {
  response: FetchAnswer;
  /** Aborts the exchange: the consumer calls it when it stops reading. */
  release(): void;
  /** Resets the idle watchdog; call on every chunk of body. */
  touch(): void;
  /** Maps a body read failure to the typed error (timeout, cancel, cut connection). */
  mapReadError(error: unknown): Error;
  errorContext: ErrorContext;
  startedAt: number;
  /** The answer carried x-ratelimit-* headers: the gateway had already counted this request's prompt in them. */
  limitHeaders: boolean;
  /** Takes the key, in any of its encodings, out of text from this answer: everything read from the gateway passes here first. */
  redact(text: string): string;
  /** The same, with a cheap check for streams (see sseReader). */
  redactor: SecretRedactor;
  /** The request's share of the rate window, to settle with the real usage. */
  reservation: Reservation;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  stream: boolean;
  /** For the log and messages only. */
  model?: string;
  /** Rough size of the request in tokens, for pacing. */
  estimatedTokens: number;
}

/** What an attempt takes from the transport. */
export interface ExchangeDeps {
  fetch: FetchLike;
  clock: Clock;
  logger: Logger;
  limits: LimitTracker;
  /** Abort when nothing arrives for this long (headers or body). */
  idleTimeoutMs: number;
  userAgent: string;
  /** Named in the message when the gateway cannot be reached. */
  baseUrl(): string;
  siteUrl(): string;
}

/** Sends the request once; any answer, 2xx or not, is an exchange (the transport reads error answers). */
export async function openExchange(
  deps: ExchangeDeps,
  url: string,
  spec: RequestSpec,
  key: string,
  call: CallOptions,
  reservation: Reservation,
): Promise<Exchange> {
  const controller = new AbortController();
  const abortFromCaller = () => controller.abort(call.signal.reason);
  call.signal.addEventListener('abort', abortFromCaller, { once: true });
  const watchdog = new IdleWatchdog({
    clock: deps.clock,
    timeoutMs: deps.idleTimeoutMs,
    onIdle: () =>
      controller.abort(
        new StreamTimeoutError(`The Gateway sent nothing for ${Math.round(deps.idleTimeoutMs / 1000)} s, so the request was stopped. Try again.`),
      ),
    until: controller.signal,
  });
  // The watchdog stops with the controller: released (below), cancelled by the caller, or timed out.
  const release = () => {
    call.signal.removeEventListener('abort', abortFromCaller);
    if (!controller.signal.aborted) controller.abort(RELEASED);
  };
  const mapReadError = (error: unknown) => mapFailure(deps, error, controller.signal, call.signal, 'body', key);
  const startedAt = deps.clock.now();
  let response: FetchAnswer;
  try {
    response = await deps.fetch(url, {
      method: spec.method,
      headers: headers(deps.userAgent, key, spec.stream),
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      signal: controller.signal,
      // Followed, a 307/308 would send the body on to wherever it points (another host, plain http); see refusedRedirect.
      redirect: 'manual',
    });
  } catch (error) {
    release();
    // Refused or unresolved: the gateway never saw it. Anything else (a cut, a timeout, a cancel) it may have counted.
    if (neverReachedServer(error) && !call.signal.aborted) reservation.release();
    else reservation.answered();
    throw mapFailure(deps, error, controller.signal, call.signal, 'connect', key);
  }
  reservation.answered();
  const redirect = refusedRedirect(url, response, key);
  if (redirect) {
    release();
    reservation.release();
    deps.logger.warn(`${spec.method} ${spec.path} → ${response.status}: ${redirect.message}`);
    throw redirect;
  }
  const limitHeaders = deps.limits.recordHeaders(response.headers, response.ok);
  if (NOT_COUNTED.has(response.status)) reservation.release();
  const redactor = new SecretRedactor([key]);
  const redactKey = (text: string) => redactor.redact(text);
  const requestIdHeader = response.headers.get('x-request-id');
  // A header is gateway text like any other: it goes to the log, to errors and to saved sessions.
  const requestId = requestIdHeader === null ? undefined : redactKey(requestIdHeader);
  deps.logger.info(
    `${spec.method} ${spec.path}${spec.model ? ` model=${spec.model}` : ''} → ${response.status} ` +
      `request-id=${requestId ?? '-'} ${Math.round(deps.clock.now() - startedAt)} ms${spec.stream ? ' (stream)' : ''}`,
  );
  return {
    response,
    release,
    touch: () => watchdog.touch(),
    mapReadError,
    errorContext: { requestId, siteUrl: deps.siteUrl(), model: spec.model, redact: [key] },
    startedAt,
    limitHeaders,
    redact: redactKey,
    redactor,
    reservation,
  };
}

/** A redirect answer (or, where fetch hides it, an opaque one), as the error that says where it pointed and what to do. */
function refusedRedirect(url: string, response: FetchAnswer, key: string): RedirectRefusedError | undefined {
  if (response.type !== 'opaqueredirect' && !REDIRECT_STATUSES.has(response.status)) return undefined;
  const from = new URL(url).origin;
  const target = redirectTarget(response.headers.get('location'), url);
  // The target is gateway text: bounded, and without the key should it carry it.
  const shown = (text: string) => redact(text.slice(0, 200), [key]);
  const targetOrigin = target === undefined ? undefined : shown(target.origin);
  let where = 'to an address it did not name';
  if (target !== undefined) where = target.origin === from ? `to ${shown(target.pathname)} on the same server` : `to another address, ${targetOrigin}`;
  const why = target === undefined || target.origin !== from ? ': it would carry your conversation there' : '';
  const status = response.status === 0 ? '' : ` (${response.status})`;
  const requestId = response.headers.get('x-request-id');
  return new RedirectRefusedError(
    `The Gateway at ${from} answered with a redirect${status} ${where}, which is not followed${why}. ` +
      `Check the "gateway.baseUrl" setting: it should be the gateway's own address, ending in /v1.`,
    targetOrigin,
    { status: response.status || undefined, requestId: requestId === null ? undefined : shown(requestId) },
  );
}

function redirectTarget(location: string | null, base: string): URL | undefined {
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * What the exchange's own signal aborts with once its consumer is done with it, almost always after a whole
 * answer: the error a read after it would get is built then (mapFailure), not an AbortError every request.
 */
const RELEASED = 'released';

/** The statuses whose answer sends the client elsewhere (304 is a cache answer, 300 a choice: neither moves a request). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function mapFailure(deps: ExchangeDeps, error: unknown, internal: AbortSignal, caller: AbortSignal, phase: 'connect' | 'body', key: string): Error {
  if (internal.reason instanceof StreamTimeoutError) return internal.reason;
  if (caller.aborted || error === RELEASED) return new AbortError();
  if (error instanceof GatewayError) return error;
  if (phase === 'body') {
    return new StreamInterruptedError('The connection to the Gateway was cut before the answer was complete. The partial answer is kept; try again.', {
      cause: error,
    });
  }
  const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  // fetch's own error text can quote the request, header values included; no `cause` either, it holds that text unredacted.
  const message = `Could not reach the Gateway at ${deps.baseUrl()} (${detail}). Check the "gateway.baseUrl" setting and your network.`;
  return new ConnectionError(redact(message, [key]));
}

function headers(userAgent: string, key: string, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    Accept: stream ? 'text/event-stream' : 'application/json',
  };
  return headers;
}

/** Answers the gateway does not count against the window. */
const NOT_COUNTED = new Set([401, 402, 404, 429]);

/** Connection errors that mean the request never left this machine (nothing listening, no such host, no route). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function neverReachedServer(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : undefined;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}
