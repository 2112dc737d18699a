/**
 * One HTTP exchange with the gateway: key, headers, pacing, retries, typed
 * errors, limit tracking, and an idle watchdog that also covers the body.
 */
import { silentLogger, systemClock, type ApiKeyProvider, type Clock, type FetchLike, type Logger } from '../ports';
import { parseRetryAfter } from './duration';
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
  StreamInterruptedError,
  StreamTimeoutError,
} from './errors';
import { SecretRedactor } from './redaction';
import { DEFAULT_BODY_LIMITS, readBoundedText, type BodyLimits } from './bodyLimits';
import { LimitTracker } from './limits';
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
    for (let attempt = 0; ; attempt++) {
      // A retry has just waited what the gateway asked for; pacing is for first attempts.
      if (attempt === 0) await this.pace(spec, call);
      const outcome = await this.attemptOnce(url, spec, key, call);
      if ('exchange' in outcome) return outcome.exchange;
      const { error, retryAfterMs } = outcome;
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

  /** One try: a 2xx exchange, or the typed error with the wait the gateway asked for. */
  private async attemptOnce(
    url: string,
    spec: RequestSpec,
    key: string,
    call: CallOptions,
  ): Promise<{ exchange: Exchange } | { error: GatewayError; retryAfterMs: number | undefined }> {
    let exchange: Exchange;
    try {
      exchange = await this.attempt(url, spec, key, call);
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
   * Waits while the client's own view of the limits says the next request would
   * be refused. Checked again after every wait: requests waiting together wake
   * together when one slot frees, and only the first may take it.
   */
  private async pace(spec: RequestSpec, call: CallOptions): Promise<void> {
    let announcedUntil = 0;
    for (;;) {
      const readyAt = this.limits.readyAt(spec.estimatedTokens);
      const delayMs = readyAt - this.clock.now();
      if (delayMs <= 0) return;
      // Shown like a 429 wait (a countdown in the status bar): the user waits either way.
      this.limits.recordRateLimitedUntil(readyAt);
      // The caller hears of a wait once; the rest of a wait already announced is not news.
      if (readyAt > announcedUntil) {
        call.onRetry?.({ attempt: 0, delayMs, reason: 'pacing', message: 'Waiting for the rate limit window to free up.' });
        this.logger.debug(`pacing ${spec.path} for ${delayMs} ms to stay under the key's limits`);
        announcedUntil = readyAt;
      }
      await this.sleep(delayMs, call.signal);
    }
  }

  private async attempt(url: string, spec: RequestSpec, key: string, call: CallOptions): Promise<Exchange> {
    const controller = new AbortController();
    const abortFromCaller = () => controller.abort(call.signal.reason);
    call.signal.addEventListener('abort', abortFromCaller, { once: true });
    const watchdog = new IdleWatchdog(this.idleTimeoutMs, () =>
      controller.abort(new StreamTimeoutError(`The Gateway sent nothing for ${Math.round(this.idleTimeoutMs / 1000)} s, so the request was stopped. Try again.`)),
    );
    const release = () => {
      watchdog.stop();
      call.signal.removeEventListener('abort', abortFromCaller);
      if (!controller.signal.aborted) controller.abort(new AbortError());
    };
    const mapReadError = (error: unknown) => this.mapFailure(error, controller.signal, call.signal, 'body', key);
    const startedAt = this.clock.now();
    const answered = this.limits.recordRequestSent();
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
      throw this.mapFailure(error, controller.signal, call.signal, 'connect', key);
    }
    answered();
    const limitHeaders = this.limits.recordHeaders(response.headers);
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
      return new StreamInterruptedError(
        'The connection to the Gateway was cut before the answer was complete. The partial answer is kept; try again.',
        { cause: error },
      );
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

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AbortError();
}

/**
 * Fires when nothing happened for `timeoutMs`. One timer re-armed lazily instead
 * of one per chunk, so a fast stream pays only a timestamp write per chunk.
 */
class IdleWatchdog {
  private lastActivity = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm(timeoutMs);
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      const idleFor = Date.now() - this.lastActivity;
      if (idleFor >= this.timeoutMs) {
        this.timer = undefined;
        this.onIdle();
      } else {
        this.arm(this.timeoutMs - idleFor);
      }
    }, ms);
  }
}
