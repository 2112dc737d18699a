/**
 * What the client knows of the key's limits and balance, for the status bar and
 * for pacing. The gateway's `x-ratelimit-*` headers win when present; without
 * them the client counts its own requests and tokens in a sliding window.
 *
 * Pacing counts requests in flight. A request reserves its share of the window
 * (one request and its estimated tokens) when it is sent (`acquire`); the
 * reservation is dated from its answer's arrival (the gateway counted it in
 * between), settled with the real usage, and released when the gateway did not
 * count it (401, 402, 404, 429, a refused connection). So a burst is sent only as
 * far as the window has room, and the rest waits for room instead of a 429.
 *
 * The tracker is the face of four parts: the window's counts (windowLedger.ts),
 * the headers read into them (rateLimitHeaders.ts), the requests waiting in order
 * (pacingQueue.ts, with its fairness rules), and the other VS Code windows on the
 * key seen through a shared file (sharedWindowSync.ts).
 */
import type { Clock } from '../../base/common';
import { DEFAULT_LIMITS, type ConfiguredLimits } from '../../settings/common';
import { type AcquireOptions, type BalanceState, type GatewayReach, type LimitSnapshot, type Reservation } from './limitTypes';
import { PacingQueue, type PacedWindow } from './pacingQueue';
import { readRateLimitHeaders, type HeaderSource } from './rateLimitHeaders';
import { SharedWindowSync, sharedPollMs, type SharedWindow } from './sharedWindowSync';
import { WindowLedger, type WindowUse } from './windowLedger';

export class LimitTracker {
  private readonly ledger: WindowLedger;
  private readonly queue: PacingQueue;
  private readonly sharedSync: SharedWindowSync | undefined;
  private rateLimitedUntil: number | undefined;
  private balance: BalanceState = 'unknown';
  private reach: { state: GatewayReach; problem?: string } = { state: 'unknown' };
  private readonly listeners = new Set<(snapshot: LimitSnapshot) => void>();
  private lastEmitted = '';

  constructor(
    private readonly clock: Clock,
    configured: ConfiguredLimits = DEFAULT_LIMITS,
    /** The limits' window: a minute, as the spec says; shorter only in tests. */
    private readonly windowMs = 60_000,
    /** The other windows on this machine that use the key, when they can be seen. */
    shared?: SharedWindow,
  ) {
    this.ledger = new WindowLedger(clock, configured, windowMs, (grew) => this.changed(grew));
    const pacedWindow: PacedWindow = {
      prune: (now) => this.ledger.prune(now),
      readyAt: (tokens, now, extra) => this.readyAtFor(tokens, now, this.ledger.use(now, extra)),
      reserve: (tokens) => this.ledger.reserve(tokens),
      slotMs: (tokens, now) => this.slotMs(tokens, now),
    };
    this.queue = new PacingQueue({
      clock,
      window: pacedWindow,
      changed: () => this.changed(),
      pollMs: shared ? sharedPollMs(windowMs) : undefined,
      windowMs,
    });
    this.sharedSync = shared
      ? new SharedWindowSync(
          shared,
          clock,
          this.ledger,
          () => this.queue.pump(),
          () => this.emit(),
          () => this.queue.length > 0,
        )
      : undefined;
  }

  /** Forgets everything learned about the key (another key has other limits and another balance). */
  reset(): void {
    this.ledger.forget();
    this.sharedSync?.dropLease();
    this.rateLimitedUntil = undefined;
    this.balance = 'unknown';
    this.reach = { state: 'unknown' };
    this.changed();
  }

  /**
   * After `reset`, takes what another tracker learned of the same key (the key check runs on a
   * tracker of its own so a refused key leaves this one alone; its request still counts here).
   */
  adopt(other: LimitTracker): void {
    this.ledger.adopt(other.ledger);
    this.sharedSync?.dropLease();
    this.rateLimitedUntil = other.rateLimitedUntil;
    this.reach = other.reach;
    this.changed();
  }

  /** Whether a background request may go now: no request waits and the window has room (see AcquireOptions.background). */
  roomForBackground(estimatedTokens = 0): boolean {
    return this.queue.length === 0 && this.readyAt(estimatedTokens) <= this.clock.now();
  }

  setConfiguredLimits(limits: ConfiguredLimits): void {
    this.ledger.configured = limits;
    this.sharedSync?.dropLease();
    this.changed();
  }

  onChange(listener: (snapshot: LimitSnapshot) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  snapshot(): LimitSnapshot {
    const now = this.clock.now();
    this.ledger.prune(now);
    const use = this.ledger.use(now);
    const headers = this.ledger.freshHeaders(now);
    const firstFree = (part: 'requests' | 'tokens') => use.frees.find((free) => free[part] > 0)?.at;
    const rateLimited = this.rateLimitedUntil !== undefined && this.rateLimitedUntil > now ? this.rateLimitedUntil : undefined;
    return {
      source: headers ? 'headers' : 'local',
      limits: this.ledger.limitsOrigin(now),
      requestLimit: use.requestLimit,
      requestsRemaining: Math.max(0, use.requestLimit - use.requests),
      requestsResetAt: headers ? future(headers.requestsResetAt, now) : firstFree('requests'),
      tokenLimit: use.tokenLimit,
      tokensRemaining: Math.max(0, use.tokenLimit - use.tokens),
      tokensResetAt: headers ? future(headers.tokensResetAt, now) : firstFree('tokens'),
      tokensSpentThisWindow: this.ledger.tokensSpent(),
      rateLimitedUntil: maxDefined(rateLimited, this.queue.pacedAfter(now)),
      requestsWaiting: this.queue.length,
      balance: this.balance,
      reach: this.reach.state,
      ...(this.reach.problem !== undefined ? { reachProblem: this.reach.problem } : {}),
    };
  }

  /** The key's tokens per minute as known now (the gateway's report, else the configured limit): what one request is measured against. */
  tokenLimit(): number {
    return this.ledger.tokenLimit(this.clock.now());
  }

  /**
   * The epoch ms a request of about `estimatedTokens` would fit the window, not
   * counting the requests waiting before it: `now` when it fits at once,
   * Infinity when only an answer to a request in flight can make room.
   */
  readyAt(estimatedTokens: number): number {
    const now = this.clock.now();
    this.ledger.prune(now);
    return this.readyAtFor(estimatedTokens, now, this.ledger.use(now));
  }

  /**
   * Waits for the request's turn and room in the window, then reserves its share.
   * Rejects with the signal's reason when it aborts first.
   */
  acquire(estimatedTokens: number, signal: AbortSignal, options: AcquireOptions = {}): Promise<Reservation> {
    const now = this.goesNow(estimatedTokens, signal, options);
    return now ? Promise.resolve(now) : this.queue.wait(estimatedTokens, signal, options);
  }

  /**
   * A request that nobody waits before and that fits now goes at once, as the queue's pump would let it, without a
   * waiter and its abort listener: most requests take this path. With a shared window it also needs room in the lease
   * the last locked round wrote (sharedWindowSync.ts, takeLease says why that is safe): it is sent with no file I/O
   * before it, and its entry is written with the next delayed write. Otherwise undefined: the request waits its turn
   * (with a shared window, under the lock).
   */
  private goesNow(estimatedTokens: number, signal: AbortSignal, options: AcquireOptions): Reservation | undefined {
    if (options.background || signal.aborted || this.queue.length > 0) return undefined;
    const tokens = Math.max(0, estimatedTokens);
    const now = this.clock.now();
    if (!this.queue.spacingAllows(options.tag, now)) return undefined;
    this.ledger.prune(now);
    if (this.readyAtFor(tokens, now, this.ledger.use(now)) > now) return undefined;
    if (this.sharedSync && !this.sharedSync.takeLease(tokens, now)) return undefined;
    const reservation = this.ledger.reserve(tokens);
    this.queue.noteSent(options.tag, tokens, now);
    if (this.sharedSync) {
      this.sharedSync.syncSoon();
      this.emit();
    } else this.changed();
    return reservation;
  }

  /**
   * Counts tokens spent outside any reservation (the requests this client sends are
   * settled through theirs). `countedByHeaders`: as in `Reservation.settle`.
   */
  recordTokens(tokens: number, countedByHeaders = 0): void {
    if (!(tokens > 0)) return;
    this.ledger.recordTokens(tokens, countedByHeaders);
    this.changed();
  }

  /**
   * Reads `x-ratelimit-*`; returns false when the gateway sent none (local counting stays in charge).
   * `success`: the answer was a 2xx, whose lack of headers means the gateway does not send them
   * (a 401 has none anyway).
   */
  recordHeaders(headers: HeaderSource, success = true): boolean {
    const report = readRateLimitHeaders(headers, this.ledger.configured.tokensPerMinute, this.windowMs);
    if (report === undefined) {
      if (success && this.ledger.noteHeaderless()) this.changed();
      return false;
    }
    this.ledger.record(report);
    this.changed();
    return true;
  }

  recordRateLimited(retryAfterMs: number): void {
    // A Gateway that reports no limits tells them only this way: what it admitted this window is what it admits.
    const now = this.clock.now();
    this.ledger.prune(now);
    this.ledger.noteRefused(now, now + retryAfterMs);
    this.recordRateLimitedUntil(now + retryAfterMs);
  }

  /** The gateway answered 429: nothing is sent before `at` (epoch ms). */
  recordRateLimitedUntil(at: number): void {
    if (this.rateLimitedUntil === at) return;
    this.rateLimitedUntil = at;
    this.changed();
  }

  recordBalance(state: BalanceState): void {
    if (this.balance === state) return;
    this.balance = state;
    this.changed();
  }

  /** What a request learned of the Gateway (see GatewayReach); `problem` is the failure's message. */
  recordReach(state: GatewayReach, problem?: string): void {
    if (this.reach.state === state && this.reach.problem === problem) return;
    this.reach = problem !== undefined ? { state, problem } : { state };
    this.changed();
  }

  /** A success ends any 429 wait early and proves the balance is not empty and the Gateway reachable. */
  recordSuccess(): void {
    if (this.rateLimitedUntil === undefined && this.balance === 'ok' && this.reach.state === 'ok') return;
    this.rateLimitedUntil = undefined;
    this.balance = 'ok';
    this.reach = { state: 'ok' };
    this.changed();
  }

  /** A request's slot of the window at its rate: the window over the request limit, or the request's share of the TPM when longer. */
  private slotMs(tokens: number, now: number): number {
    const perRequest = this.windowMs / Math.max(1, this.ledger.requestLimit(now));
    const perTokens = (this.windowMs * Math.max(0, tokens)) / Math.max(1, this.ledger.tokenLimit(now));
    return Math.max(perRequest, Math.min(this.windowMs, perTokens));
  }

  /** The first time from `now` at which one more request of `tokens` fits, after any 429 wait. */
  private readyAtFor(tokens: number, now: number, use: WindowUse): number {
    return this.ledger.fitsAt(tokens, Math.max(now, this.rateLimitedUntil ?? now), use);
  }

  /**
   * Something changed: waiting requests may go, and listeners hear of it when what they see differs.
   * With a shared window, a request waiting or a reservation grown goes to the shared file at once;
   * anything else (an answer's time, a share released, headers) only makes this window's entries
   * count less than the file says, so it is written a moment later, several together and after
   * the answer's first events rather than before them.
   */
  private changed(urgent = true): void {
    if (!this.sharedSync) this.queue.pump();
    else if (urgent || this.queue.length > 0) this.sharedSync.sync();
    else this.sharedSync.syncSoon();
    this.emit();
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const snap = this.snapshot();
    // A wait re-checked or a count that moved nothing visible is not news (a flood of events would re-render the status bar for nothing).
    const seen = JSON.stringify(snap);
    if (seen === this.lastEmitted) return;
    this.lastEmitted = seen;
    for (const listener of this.listeners) listener(snap);
  }
}

function future(at: number, now: number): number | undefined {
  return at > now ? at : undefined;
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}
