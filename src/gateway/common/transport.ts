/**
 * Sending a request to the gateway: the key checked before anything goes out,
 * pacing under the key's limits, retries, and error answers read into typed
 * errors. One attempt (the fetch, its idle watchdog, failures) is exchange.ts.
 */
import { silentLogger, systemClock, type Clock, type Logger } from '../../base/common';
import type { ApiKeyProvider, FetchLike } from './gatewayPorts';
import { describeWait, parseRetryAfter } from '../../rateLimits/common';
import { apiKeyProblem } from './apiKey';
import { checkKeyOrigin, originOf } from './keyOrigin';
import { errorFromWire, parseWireError } from './errorMapping';
import {
  AbortError,
  AuthError,
  BackgroundSkippedError,
  PacingQueueFullError,
  ConnectionError,
  EndpointError,
  GatewayError,
  MissingApiKeyError,
  RateLimitError,
  RateLimitWaitTooLongError,
} from './errors';
import { openExchange, type Exchange, type ExchangeDeps, type RequestSpec } from './exchange';
import { DEFAULT_BODY_LIMITS, readBoundedText, type BodyLimits } from './bodyLimits';
import { BackgroundSkipped, LimitTracker, PacingQueueFull, type Reservation } from '../../rateLimits/common';
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './retryPolicy';
import type { CallOptions } from './types';
import { SettingError } from '../../settings/common';
import { pacingTagOf, type WatchedSessions } from './requestPriority';
import type { WaitReason } from '../../telemetry/common';

/** Told of the rate window as requests meet it (the team's collector counts 429s and the time waited). */
export interface WindowObserver {
  rateLimited(): void;
  /** A request waited `ms` before it was sent (or sent again). */
  waited(ms: number, reason: WaitReason): void;
}

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
  /** The agent sessions the user watches: their requests go before the other sessions' (requestPriority.ts); absent: every request is foreground. */
  watchedSessions?: WatchedSessions;
  window?: WindowObserver;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export class Transport {
  readonly limits: LimitTracker;
  readonly bodyLimits: BodyLimits;
  private readonly clock: Clock;
  readonly logger: Logger;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly exchangeDeps: ExchangeDeps;

  constructor(private readonly options: TransportOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.limits = options.limits ?? new LimitTracker(this.clock);
    this.bodyLimits = { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits };
    this.exchangeDeps = {
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      clock: this.clock,
      logger: this.logger,
      limits: this.limits,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      userAgent: options.userAgent,
      baseUrl: () => options.baseUrl(),
      siteUrl: () => this.siteUrl(),
    };
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
    const baseUrl = this.options.baseUrl();
    return originOf(baseUrl) ?? baseUrl;
  }

  /** Sends the request, retrying as the spec allows, and returns the first 2xx exchange. */
  async send(spec: RequestSpec, call: CallOptions): Promise<Exchange> {
    try {
      return await this.sendOnce(spec, call);
    } catch (error) {
      this.noteReach(error);
      throw error;
    }
  }

  /** A failure that says something of the Gateway itself (unreachable, the key refused, no usable address) is kept for the status bar. */
  private noteReach(error: unknown): void {
    if (error instanceof ConnectionError || error instanceof EndpointError) this.limits.recordReach('unreachable', error.message);
    else if (error instanceof AuthError) this.limits.recordReach('key_refused', error.message);
    else if (error instanceof SettingError && error.setting === 'baseUrl') this.limits.recordReach('address_invalid', error.message);
  }

  private async sendOnce(spec: RequestSpec, call: CallOptions): Promise<Exchange> {
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
      if (error.status === 429 && call.background) this.skipBackgroundAfter429(retryAfterMs);
      const decision = decideRetry(error, attempt, retryAfterMs, this.retry, this.random);
      if (error.status === 429) this.limits.recordRateLimited(decision?.delayMs ?? retryAfterMs ?? 1000);
      if (error.status === 429) this.options.window?.rateLimited();
      if (!decision) throw error;
      call.onRetry?.({ attempt: attempt + 1, delayMs: decision.delayMs, reason: decision.reason, message: error.message });
      this.logger.info(`${spec.method} ${spec.path}: ${error.status ?? error.kind}, retry ${attempt + 1} in ${Math.round(decision.delayMs)} ms`);
      const sleptFrom = this.clock.now();
      await this.sleep(decision.delayMs, call.signal);
      if (error.status === 429) this.options.window?.waited(this.clock.now() - sleptFrom, 'retry_after');
    }
  }

  /** A background request met a 429: the wait is noted for everyone, but it is not retried (a retry would take the slot a user request waits for). */
  private skipBackgroundAfter429(retryAfterMs: number | undefined): never {
    const delayMs = retryAfterMs ?? 1000;
    this.limits.recordRateLimited(delayMs);
    throw new BackgroundSkippedError("Skipped a background request: the Gateway's rate limit was reached (429).", this.clock.now() + delayMs);
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
    const limit = this.limits.tokenLimit();
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
      exchange = await openExchange(this.exchangeDeps, url, spec, key, call, reservation);
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
   * Waits, in its turn (the user's requests first, the sessions nobody watches taking turns:
   * pacingQueue.ts), until the window has room for this one, and reserves it. The tracker shows the wait like a 429's (the status bar
   * counts down); the caller hears of it, and again only when it moves later.
   */
  private async pace(spec: RequestSpec, call: CallOptions, retry: boolean): Promise<Reservation> {
    let waitedFrom: number | undefined;
    try {
      const reservation = await this.limits.acquire(spec.estimatedTokens, call.signal, {
        front: retry,
        background: call.background,
        // Read at each attempt: the session watched may change while a run goes on.
        tag: pacingTagOf(call.origin, this.options.watchedSessions),
        onWait: (until) => {
          waitedFrom ??= this.clock.now();
          const delayMs = until - this.clock.now();
          call.onRetry?.({ attempt: 0, delayMs, reason: 'pacing', message: "The key's rate limit window is full." });
          this.logger.debug(`pacing ${spec.path} for ${Math.round(delayMs)} ms to stay under the key's limits`);
        },
      });
      if (waitedFrom !== undefined) this.options.window?.waited(this.clock.now() - waitedFrom, 'pacing');
      return reservation;
    } catch (error) {
      if (error instanceof BackgroundSkipped) throw new BackgroundSkippedError(error.message, error.until);
      if (error instanceof PacingQueueFull) throw new PacingQueueFullError(error.waiting);
      throw new AbortError();
    }
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

  private url(path: string): string {
    return `${this.options.baseUrl().replace(/\/+$/, '')}${path}`;
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
