/**
 * One HTTP exchange with the gateway: key, headers, pacing, retries, typed
 * errors, limit tracking, and an idle watchdog that also covers the body.
 */
import { silentLogger, systemClock, type ApiKeyProvider, type Clock, type FetchLike, type Logger } from '../ports';
import { describeWait, parseRetryAfter } from './duration';
import { apiKeyProblem } from './apiKey';
import { checkKeyOrigin, originOf } from './keyOrigin';
import { errorFromWire, parseWireError, redact, type ErrorContext } from './errorMapping';
import {
  AbortError,
  AuthError,
  ConnectionError,
  EndpointError,
  GatewayError,
  MissingApiKeyError,
  RateLimitError,
  RateLimitWaitTooLongError,
  StreamInterruptedError,
  StreamTimeoutError,
} from './errors';
import { SecretRedactor } from './redaction';
import { DEFAULT_BODY_LIMITS, readBoundedText, type BodyLimits } from './bodyLimits';
import { LimitTracker, type Reservation } from './limits';
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './retryPolicy';
import type { CallOptions } from './types';

export interface TransportOptions {
  /** `{base_url}`, ending in /v1; read on every call so a changed setting applies at once. */
  baseUrl: () => string;
  /** `{site_url}`, for billing and limits links; defaults to the base URL's origin. */
  siteUrl?: () => string | undefined;
  apiKey: ApiKeyProvider;
  userAgent: string;
  fetch?: FetchLike;
  clock?: Clock;
  logger?: Logger;
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  limits?: LimitTracker;
  /** Abort when nothing arrives for this long (headers or body). */
  idleTimeoutMs?: number;
  /** Ceilings on body sizes (bodyLimits.ts); tests lower them. */
  bodyLimits?: Partial<BodyLimits>;
}

export interface Exchange {
  response: Response;
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

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export class Transport {
  readonly limits: LimitTracker;
  readonly bodyLimits: BodyLimits;
  private readonly clock: Clock;
  readonly logger: Logger;
  private readonly fetchFn: FetchLike;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: TransportOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.limits = options.limits ?? new LimitTracker(this.clock);
    this.bodyLimits = { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits };
  }

  /** The client's clock's time (the usage log stamps records with it). */
  now(): number {
    return this.clock.now();
  }

  /** The origin requests go to now, or undefined while the base URL is unset or invalid. */
  baseOrigin(): string | undefined {
    return originOf(this.options.baseUrl());
  }

  siteUrl(): string {
    const configured = this.options.siteUrl?.()?.trim();
    if (configured) return configured.replace(/\/+$/, '');
    try {
      return new URL(this.options.baseUrl()).origin;
    } catch {
      return this.options.baseUrl();
    }
  }

  /** Sends the request, retrying as the spec allows, and returns the first 2xx exchange. */
  async send(spec: RequestSpec, call: CallOptions): Promise<Exchange> {
    throwIfAborted(call.signal);
    // Settings errors (no base URL) surface as they are, before anything is sent.
    const url = this.url(spec.path);
    const key = await this.sendableKey(call.signal);
    checkKeyOrigin(await this.options.apiKey.keyOrigin?.(call.signal), url);
    this.warnIfLargerThanLimit(spec, call);
    for (let attempt = 0; ; attempt++) {
      // Every attempt takes its share of the window; a retry goes before the requests that came after it.
      const reservation = await this.pace(spec, call, attempt > 0);
      const outcome = await this.attemptOnce(url, spec, key, call, reservation);
      if ('exchange' in outcome) return outcome.exchange;
      const { error, retryAfterMs } = outcome;
      if (error instanceof RateLimitError) this.refuseLongWait(error, retryAfterMs);
      const decision = decideRetry(error, attempt, retryAfterMs, this.retry, this.random);
      if (error.status === 429) this.limits.recordRateLimited(decision?.delayMs ?? retryAfterMs ?? 1000);
      if (!decision) throw error;
      call.onRetry?.({ attempt: attempt + 1, delayMs: decision.delayMs, reason: decision.reason, message: error.message });
      this.logger.info(`${spec.method} ${spec.path}: ${error.status ?? error.kind}, retry ${attempt + 1} in ${Math.round(decision.delayMs)} ms`);
      await this.sleep(decision.delayMs, call.signal);
    }
  }

  /** The stored key, refused before any request when it cannot go in a header (fetch would fail, and its error would quote the key). */
  private async sendableKey(signal: AbortSignal): Promise<string> {
    const key = (await this.options.apiKey.getApiKey(signal))?.trim();
    if (!key) throw new MissingApiKeyError();
    const problem = apiKeyProblem(key);
    if (problem) throw new AuthError(`The stored Gateway API key cannot be used. ${problem} Run "Gateway: Set API Key" and enter the key again.`);
    return key;
  }

  /**
   * A 429 asking for a longer wait than the client waits (a Retry-After of years, a date far
   * ahead) fails this request at once with the time asked for; nothing is recorded, so the
   * requests after it are not held back by it.
   */
  private refuseLongWait(error: RateLimitError, retryAfterMs: number | undefined): void {
    const wanted = retryAfterMs ?? error.retryAfterMs;
    const max = this.retry.maxRateLimitWaitMs;
    if (wanted <= max) return;
    throw new RateLimitWaitTooLongError(
      `The Gateway asked to wait ${describeWait(wanted)} before trying again, longer than the ${describeWait(max)} this extension waits, ` +
        `so the request was stopped (later requests are sent as usual). Your key's limits are at ${this.siteUrl()}/cabinet/limits.`,
      wanted,
      max,
      { status: error.status, requestId: error.requestId },
    );
  }

  /** A request larger than the key's whole TPM goes once the window is empty; the user hears it will likely be refused. */
  private warnIfLargerThanLimit(spec: RequestSpec, call: CallOptions): void {
    const limit = this.limits.snapshot().tokenLimit;
    if (spec.estimatedTokens <= limit) return;
    const message =
      `This request is about ${spec.estimatedTokens.toLocaleString('en-US')} tokens, more than this key's limit of ` +
      `${limit.toLocaleString('en-US')} tokens per minute: it is sent once the window is empty, and the Gateway will likely refuse it. ` +
      `A shorter conversation or fewer attachments fit.`;
    this.logger.warn(`${spec.path}: ${message}`);
    call.onRetry?.({ attempt: 0, delayMs: 0, reason: 'too_large', message });
  }

  /** One try: a 2xx exchange, or the typed error with the wait the gateway asked for. */
  private async attemptOnce(
    url: string,
    spec: RequestSpec,
    key: string,
    call: CallOptions,
    reservation: Reservation,
  ): Promise<{ exchange: Exchange } | { error: GatewayError; retryAfterMs: number | undefined }> {
    let exchange: Exchange;
    try {
      exchange = await this.attempt(url, spec, key, call, reservation);
    } catch (error) {
      if (error instanceof ConnectionError) return { error, retryAfterMs: undefined };
      throw error;
    }
    if (exchange.response.ok) {
      this.throwUnlessApiAnswer(exchange, spec);
      this.limits.recordSuccess();
      return { exchange };
    }
    const retryAfterMs = parseRetryAfter(exchange.response.headers.get('retry-after'), this.clock.now());
    return { error: await this.errorOf(exchange, spec, key), retryAfterMs };
  }

  /**
   * A 2xx that is neither JSON nor an event stream comes from something that is not
   * the API: typically a web site answering every path, when the base URL lacks /v1.
   */
  private throwUnlessApiAnswer(exchange: Exchange, spec: RequestSpec): void {
    const mediaType = exchange.response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (!mediaType || isApiMediaType(mediaType)) return;
    exchange.release();
    throw new EndpointError(
      `${exchange.response.url || spec.path} answered with ${mediaType}, not the Gateway API's JSON. ` +
        `Check the "gateway.baseUrl" setting: it should be the gateway's address ending in /v1.`,
      { status: exchange.response.status, requestId: exchange.errorContext.requestId },
    );
  }

  /**
   * Waits, in the order requests were made, until the window has room for this
   * one, and reserves it. The tracker shows the wait like a 429's (the status bar
   * counts down); the caller hears of it, and again only when it moves later.
   */
  private async pace(spec: RequestSpec, call: CallOptions, retry: boolean): Promise<Reservation> {
    try {
      return await this.limits.acquire(spec.estimatedTokens, call.signal, {
        front: retry,
        onWait: (until) => {
          const delayMs = until - this.clock.now();
          call.onRetry?.({ attempt: 0, delayMs, reason: 'pacing', message: "The key's rate limit window is full." });
          this.logger.debug(`pacing ${spec.path} for ${Math.round(delayMs)} ms to stay under the key's limits`);
        },
      });
    } catch {
      throw new AbortError();
    }
  }

  private async attempt(url: string, spec: RequestSpec, key: string, call: CallOptions, reservation: Reservation): Promise<Exchange> {
    const controller = new AbortController();
    const abortFromCaller = () => controller.abort(call.signal.reason);
    call.signal.addEventListener('abort', abortFromCaller, { once: true });
    const watchdog = new IdleWatchdog(this.clock, this.idleTimeoutMs, () =>
      controller.abort(
        new StreamTimeoutError(`The Gateway sent nothing for ${Math.round(this.idleTimeoutMs / 1000)} s, so the request was stopped. Try again.`),
      ),
    );
    const release = () => {
      watchdog.stop();
      call.signal.removeEventListener('abort', abortFromCaller);
      if (!controller.signal.aborted) controller.abort(new AbortError());
    };
    const mapReadError = (error: unknown) => this.mapFailure(error, controller.signal, call.signal, 'body', key);
    const startedAt = this.clock.now();
    let response: Response;
    try {
      response = await this.fetchFn(url, {
        method: spec.method,
        headers: this.headers(key, spec.stream),
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: controller.signal,
      });
    } catch (error) {
      release();
      // Refused or unresolved: the gateway never saw it. Anything else (a cut, a timeout, a cancel) it may have counted.
      if (neverReachedServer(error) && !call.signal.aborted) reservation.release();
      else reservation.answered();
      throw this.mapFailure(error, controller.signal, call.signal, 'connect', key);
    }
    reservation.answered();
    const limitHeaders = this.limits.recordHeaders(response.headers, response.ok);
    if (NOT_COUNTED.has(response.status)) reservation.release();
    const redactor = new SecretRedactor([key]);
    const redactKey = (text: string) => redactor.redact(text);
    const requestIdHeader = response.headers.get('x-request-id');
    // A header is gateway text like any other: it goes to the log, to errors and to saved sessions.
    const requestId = requestIdHeader === null ? undefined : redactKey(requestIdHeader);
    this.logger.info(
      `${spec.method} ${spec.path}${spec.model ? ` model=${spec.model}` : ''} → ${response.status} ` +
        `request-id=${requestId ?? '-'} ${Math.round(this.clock.now() - startedAt)} ms${spec.stream ? ' (stream)' : ''}`,
    );
    return {
      response,
      release,
      touch: () => watchdog.touch(),
      mapReadError,
      errorContext: { requestId, siteUrl: this.siteUrl(), model: spec.model, redact: [key] },
      startedAt,
      limitHeaders,
      redact: redactKey,
      redactor,
      reservation,
    };
  }

  private async errorOf(exchange: Exchange, spec: RequestSpec, key: string): Promise<GatewayError> {
    const { response } = exchange;
    let body: unknown;
    try {
      // Only the message is used: a huge error body is as good as none.
      const text = await readBoundedText(response.body, this.bodyLimits.errorBytes, 'error answer', exchange.touch, exchange.mapReadError);
      body = JSON.parse(exchange.redact(text));
    } catch {
      body = undefined;
    } finally {
      exchange.release();
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.clock.now());
    const error = errorFromWire(parseWireError(body), {
      ...exchange.errorContext,
      status: response.status,
      retryAfterMs,
      model: spec.model,
      redact: [key],
    });
    if (response.status === 402) this.limits.recordBalance('depleted');
    return error;
  }

  private mapFailure(error: unknown, internal: AbortSignal, caller: AbortSignal, phase: 'connect' | 'body', key: string): Error {
    if (internal.reason instanceof StreamTimeoutError) return internal.reason;
    if (caller.aborted) return new AbortError();
    if (error instanceof GatewayError) return error;
    if (phase === 'body') {
      return new StreamInterruptedError('The connection to the Gateway was cut before the answer was complete. The partial answer is kept; try again.', {
        cause: error,
      });
    }
    const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    // fetch's own error text can quote the request, header values included; no `cause` either, it holds that text unredacted.
    const message = `Could not reach the Gateway at ${this.options.baseUrl()} (${detail}). Check the "gateway.baseUrl" setting and your network.`;
    return new ConnectionError(redact(message, [key]));
  }

  private url(path: string): string {
    return `${this.options.baseUrl().replace(/\/+$/, '')}${path}`;
  }

  private headers(key: string, stream: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'User-Agent': this.options.userAgent,
      Accept: stream ? 'text/event-stream' : 'application/json',
    };
    return headers;
  }

  private async sleep(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch {
      throw new AbortError();
    }
  }
}

/**
 * JSON (as the interface's own clients read it: application/json or any +json)
 * or SSE. A missing Content-Type is tolerated by the caller, as those clients do.
 */
function isApiMediaType(mediaType: string): boolean {
  return mediaType.includes('application/json') || mediaType.endsWith('+json') || mediaType === 'text/event-stream';
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

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AbortError();
}

/**
 * Fires when nothing happened for `timeoutMs`. One timer re-armed lazily instead
 * of one per chunk, so a fast stream pays only a timestamp write per chunk.
 * Time comes from the client's Clock, so tests pass it without waiting.
 */
class IdleWatchdog {
  private lastActivity: number;
  private readonly stopped = new AbortController();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.lastActivity = clock.now();
    this.arm(timeoutMs);
  }

  touch(): void {
    this.lastActivity = this.clock.now();
  }

  stop(): void {
    this.stopped.abort();
  }

  private arm(ms: number): void {
    this.clock.after(
      ms,
      () => {
        const idleFor = this.clock.now() - this.lastActivity;
        if (idleFor >= this.timeoutMs) this.onIdle();
        else this.arm(this.timeoutMs - idleFor);
      },
      this.stopped.signal,
    );
  }
}
