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
const WINDOW_MS = 60_000;

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
  private readonly requestTimes: number[] = [];
  private readonly tokenSpends: { at: number; tokens: number }[] = [];
  private fromHeaders: HeaderLimits | undefined;
  /** Requests sent since the last header snapshot, so concurrent calls don't all see the same slot. */
  private sentSinceHeaders = 0;
  private rateLimitedUntil: number | undefined;
  private balance: BalanceState = 'unknown';
  private readonly listeners = new Set<(snapshot: LimitSnapshot) => void>();

  constructor(
    private readonly clock: Clock,
    private configured: ConfiguredLimits = DEFAULT_LIMITS,
  ) {}

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
    if (headers && now - headers.receivedAt < WINDOW_MS) {
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
    const oldestRequest = this.requestTimes[0];
    const oldestSpend = this.tokenSpends[0];
    return {
      source: 'local',
      requestLimit: this.configured.requestsPerMinute,
      requestsRemaining: Math.max(0, this.configured.requestsPerMinute - this.requestTimes.length),
      requestsResetAt: oldestRequest === undefined ? undefined : oldestRequest + WINDOW_MS,
      tokenLimit: this.configured.tokensPerMinute,
      tokensRemaining: Math.max(0, this.configured.tokensPerMinute - spent),
      tokensResetAt: oldestSpend === undefined ? undefined : oldestSpend.at + WINDOW_MS,
      tokensSpentThisWindow: spent,
      rateLimitedUntil: waiting,
      balance: this.balance,
    };
  }

  /**
   * How long to wait before sending a request of about `estimatedTokens`, so that
   * a client alone on its key never causes a 429. Zero when it may go now.
   */
  delayBeforeRequest(estimatedTokens: number): number {
    const now = this.clock.now();
    const snap = this.snapshot();
    let until = now;
    if (snap.rateLimitedUntil !== undefined) until = Math.max(until, snap.rateLimitedUntil);
    if (snap.requestsRemaining <= 0 && snap.requestsResetAt !== undefined) until = Math.max(until, snap.requestsResetAt);
    const tokensNeeded = Math.min(estimatedTokens, snap.tokenLimit);
    if (snap.tokensRemaining < tokensNeeded && snap.tokensResetAt !== undefined) until = Math.max(until, snap.tokensResetAt);
    return until - now;
  }

  recordRequestSent(): void {
    const now = this.clock.now();
    this.requestTimes.push(now);
    this.sentSinceHeaders++;
    this.emit();
  }

  recordTokens(tokens: number): void {
    if (tokens <= 0) return;
    this.tokenSpends.push({ at: this.clock.now(), tokens });
    if (this.fromHeaders) this.fromHeaders.tokensRemaining = Math.max(0, this.fromHeaders.tokensRemaining - tokens);
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
    this.rateLimitedUntil = this.clock.now() + retryAfterMs;
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
    while (this.requestTimes.length > 0 && this.requestTimes[0] <= now - WINDOW_MS) this.requestTimes.shift();
    while (this.tokenSpends.length > 0 && this.tokenSpends[0].at <= now - WINDOW_MS) this.tokenSpends.shift();
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
