/**
 * What the client knows of the key's limits and balance, for the status bar and
 * for pacing. The gateway's `x-ratelimit-*` headers win when present; without
 * them the client counts its own requests and tokens in a sliding minute.
 */
import type { Clock } from '../ports';
import { parseDuration } from './duration';

export type BalanceState = 'unknown' | 'ok' | 'depleted';

export interface LimitSnapshot {
  /** 'headers' when the gateway reported its limits, 'local' when counted here. */
  source: 'headers' | 'local';
  requestLimit: number;
  requestsRemaining: number;
  /** Epoch ms when a request slot frees up (undefined when none is used). */
  requestsResetAt: number | undefined;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetAt: number | undefined;
  /** Tokens this client spent in the current window. */
  tokensSpentThisWindow: number;
  /** Set while a 429 is being waited out: the epoch ms the wait ends. */
  rateLimitedUntil: number | undefined;
  balance: BalanceState;
}

export interface ConfiguredLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

export const DEFAULT_LIMITS: ConfiguredLimits = { requestsPerMinute: 60, tokensPerMinute: 200_000 };

interface HeaderLimits {
  requestLimit: number;
  requestsRemaining: number;
  requestsResetAt: number | undefined;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetAt: number | undefined;
  receivedAt: number;
}

export class LimitTracker {
  /** Send times of the requests in the window, moved to the answer's arrival once it comes. */
  private requestTimes: { at: number }[] = [];
  private tokenSpends: { at: number; tokens: number }[] = [];
  private fromHeaders: HeaderLimits | undefined;
  /** Requests sent since the last header snapshot, so concurrent calls don't all see the same slot. */
  private sentSinceHeaders = 0;
  private rateLimitedUntil: number | undefined;
  private balance: BalanceState = 'unknown';
  private readonly listeners = new Set<(snapshot: LimitSnapshot) => void>();

  constructor(
    private readonly clock: Clock,
    private configured: ConfiguredLimits = DEFAULT_LIMITS,
    /** The limits' window: a minute, as the spec says; shorter only in tests. */
    private readonly windowMs = 60_000,
  ) {}

  /** Forgets everything learned about the key (another key has other limits and another balance). */
  reset(): void {
    this.requestTimes = [];
    this.tokenSpends = [];
    this.fromHeaders = undefined;
    this.sentSinceHeaders = 0;
    this.rateLimitedUntil = undefined;
    this.balance = 'unknown';
    this.emit();
  }

  setConfiguredLimits(limits: ConfiguredLimits): void {
    this.configured = limits;
    this.emit();
  }

  onChange(listener: (snapshot: LimitSnapshot) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  snapshot(): LimitSnapshot {
    const now = this.clock.now();
    this.prune(now);
    const spent = this.tokenSpends.reduce((sum, spend) => sum + spend.tokens, 0);
    const waiting = this.rateLimitedUntil !== undefined && this.rateLimitedUntil > now ? this.rateLimitedUntil : undefined;
    const headers = this.fromHeaders;
    if (headers && now - headers.receivedAt < this.windowMs) {
      // Past a reported reset the interface's window has refilled.
      const requestsReset = headers.requestsResetAt !== undefined && now >= headers.requestsResetAt;
      const tokensReset = headers.tokensResetAt !== undefined && now >= headers.tokensResetAt;
      return {
        source: 'headers',
        requestLimit: headers.requestLimit,
        requestsRemaining: Math.max(0, (requestsReset ? headers.requestLimit : headers.requestsRemaining) - this.sentSinceHeaders),
        requestsResetAt: requestsReset ? undefined : headers.requestsResetAt,
        tokenLimit: headers.tokenLimit,
        tokensRemaining: tokensReset ? headers.tokenLimit : headers.tokensRemaining,
        tokensResetAt: tokensReset ? undefined : headers.tokensResetAt,
        tokensSpentThisWindow: spent,
        rateLimitedUntil: waiting,
        balance: this.balance,
      };
    }
    const oldestRequest = this.requestTimes.reduce<number | undefined>((min, r) => (min === undefined || r.at < min ? r.at : min), undefined);
    const oldestSpend = this.tokenSpends[0];
    return {
      source: 'local',
      requestLimit: this.configured.requestsPerMinute,
      requestsRemaining: Math.max(0, this.configured.requestsPerMinute - this.requestTimes.length),
      requestsResetAt: oldestRequest === undefined ? undefined : oldestRequest + this.windowMs,
      tokenLimit: this.configured.tokensPerMinute,
      tokensRemaining: Math.max(0, this.configured.tokensPerMinute - spent),
      tokensResetAt: oldestSpend === undefined ? undefined : oldestSpend.at + this.windowMs,
      tokensSpentThisWindow: spent,
      rateLimitedUntil: waiting,
      balance: this.balance,
    };
  }

  /**
   * The epoch ms a request of about `estimatedTokens` may be sent so that a client
   * alone on its key never causes a 429: `now` when it may go at once. A time,
   * not a delay, so a caller can wait for it without drift.
   */
  readyAt(estimatedTokens: number): number {
    const now = this.clock.now();
    const snap = this.snapshot();
    let until = now;
    if (snap.rateLimitedUntil !== undefined) until = Math.max(until, snap.rateLimitedUntil);
    if (snap.requestsRemaining <= 0 && snap.requestsResetAt !== undefined) until = Math.max(until, snap.requestsResetAt);
    const tokensNeeded = Math.min(estimatedTokens, snap.tokenLimit);
    if (snap.tokensRemaining < tokensNeeded && snap.tokensResetAt !== undefined) until = Math.max(until, snap.tokensResetAt);
    return until;
  }

  /**
   * Counts a request as it leaves; call the returned function when its answer
   * arrives. The gateway counted it somewhere in between, so dating it by the
   * answer keeps the local window from freeing a slot before the gateway's does.
   */
  recordRequestSent(): () => void {
    const entry = { at: this.clock.now() };
    this.requestTimes.push(entry);
    this.sentSinceHeaders++;
    this.emit();
    return () => {
      entry.at = this.clock.now();
    };
  }

  /**
   * Counts a finished request's tokens. The gateway subtracts a request's prompt
   * from x-ratelimit-remaining-tokens when it admits it, so the headers of its own
   * answer already hold `countedByHeaders` (the prompt) and only the rest (the
   * completion) is still to come off them. The local count takes the whole total.
   */
  recordTokens(tokens: number, countedByHeaders = 0): void {
    if (tokens <= 0) return;
    this.tokenSpends.push({ at: this.clock.now(), tokens });
    const notInHeaders = tokens - Math.max(0, countedByHeaders);
    if (this.fromHeaders && notInHeaders > 0) this.fromHeaders.tokensRemaining = Math.max(0, this.fromHeaders.tokensRemaining - notInHeaders);
    this.emit();
  }

  /** Reads `x-ratelimit-*`; returns false when the gateway sent none (local counting stays in charge). */
  recordHeaders(headers: Headers): boolean {
    const requestLimit = numberHeader(headers, 'x-ratelimit-limit-requests');
    const requestsRemaining = numberHeader(headers, 'x-ratelimit-remaining-requests');
    const tokenLimit = numberHeader(headers, 'x-ratelimit-limit-tokens');
    const tokensRemaining = numberHeader(headers, 'x-ratelimit-remaining-tokens');
    if (requestLimit === undefined || requestsRemaining === undefined) return false;
    const now = this.clock.now();
    const resetRequests = parseDuration(headers.get('x-ratelimit-reset-requests'));
    const resetTokens = parseDuration(headers.get('x-ratelimit-reset-tokens'));
    this.fromHeaders = {
      requestLimit,
      requestsRemaining,
      requestsResetAt: resetRequests === undefined ? undefined : now + resetRequests,
      tokenLimit: tokenLimit ?? this.configured.tokensPerMinute,
      tokensRemaining: tokensRemaining ?? tokenLimit ?? this.configured.tokensPerMinute,
      tokensResetAt: resetTokens === undefined ? undefined : now + resetTokens,
      receivedAt: now,
    };
    this.sentSinceHeaders = 0;
    this.emit();
    return true;
  }

  recordRateLimited(retryAfterMs: number): void {
    this.recordRateLimitedUntil(this.clock.now() + retryAfterMs);
  }

  /** The same, to an epoch ms: a wait re-checked in a loop must not push its own end later by the time each check takes. */
  recordRateLimitedUntil(at: number): void {
    this.rateLimitedUntil = at;
    this.emit();
  }

  recordBalance(state: BalanceState): void {
    if (this.balance === state) return;
    this.balance = state;
    this.emit();
  }

  /** A success ends any 429 wait early and proves the balance is not empty. */
  recordSuccess(): void {
    this.rateLimitedUntil = undefined;
    this.balance = 'ok';
    this.emit();
  }

  private prune(now: number): void {
    // Entries are few (one per request in a minute), so filtering is cheap and keeps out-of-order dates right.
    const cutoff = now - this.windowMs;
    if (this.requestTimes.some((r) => r.at <= cutoff)) this.requestTimes = this.requestTimes.filter((r) => r.at > cutoff);
    if (this.tokenSpends.some((t) => t.at <= cutoff)) this.tokenSpends = this.tokenSpends.filter((t) => t.at > cutoff);
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const snap = this.snapshot();
    for (const listener of this.listeners) listener(snap);
  }
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw == null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
