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
 * Fairness: first come, first served, with one exception (conservative
 * backfilling). The first waiting request's start time is protected: a later
 * request may go ahead of it only when it fits now and does not move that time.
 * A big request is never starved by small ones, and small ones are held back by
 * a big one only until it goes, which is at most one window after the requests
 * before it were answered (a request larger than the whole TPM goes when the
 * window is empty). Everything behind a second request that cannot go waits its turn.
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
  /** Tokens this client spent or reserved in the current window. */
  tokensSpentThisWindow: number;
  /**
   * Set while a request waits for the limits, the gateway's 429 or the client's own
   * pacing alike: the epoch ms the wait ends (the status bar counts down to it).
   */
  rateLimitedUntil: number | undefined;
  /** Requests waiting for room in the window. */
  requestsWaiting: number;
  balance: BalanceState;
}

export interface ConfiguredLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

export const DEFAULT_LIMITS: ConfiguredLimits = { requestsPerMinute: 60, tokensPerMinute: 200_000 };

/** A request's share of the window, taken when it is sent. */
export interface Reservation {
  /** The gateway answered (its headers arrived): the request is counted from now. */
  answered(): void;
  /**
   * The real usage arrived. The gateway subtracts a request's prompt from
   * x-ratelimit-remaining-tokens when it admits it, so when the answer carried
   * headers they already hold `countedByHeaders` (the prompt) and only the rest
   * (the completion) is still to come off them.
   */
  settle(totalTokens: number, countedByHeaders?: number): void;
  /** The gateway did not count the request: its share goes back to the window. */
  release(): void;
}

export interface AcquireOptions {
  /** A retry of a request already admitted to the queue once: it goes before the others. */
  front?: boolean;
  /** Told when the request has to wait, with the epoch ms it should go (again only when that moves later). */
  onWait?: (until: number) => void;
}

interface HeaderLimits {
  requestLimit: number;
  requestsRemaining: number;
  requestsResetAt: number;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetAt: number;
  receivedAt: number;
}

interface Reserved {
  requests: number;
  tokens: number;
  /** When the answer arrived; undefined while in flight (a request in flight never leaves the window). */
  answeredAt: number | undefined;
  /** Answered before the latest header snapshot, so counted in it. */
  inHeaders: boolean;
}

interface Waiter {
  tokens: number;
  grant(reservation: Reservation): void;
  onWait: ((until: number) => void) | undefined;
  announced: number;
}

/** What the window holds now and when parts of it free up (ascending), in one model for headers and local counts. */
interface WindowUse {
  requestLimit: number;
  tokenLimit: number;
  requests: number;
  tokens: number;
  frees: { at: number; requests: number; tokens: number }[];
}

export class LimitTracker {
  private entries: Reserved[] = [];
  private fromHeaders: HeaderLimits | undefined;
  /** The limits the gateway last reported, which outlive the snapshot they came with. */
  private learned: ConfiguredLimits | undefined;
  /** An answer came without x-ratelimit-* headers: this gateway does not send them. */
  private headerless = false;
  private rateLimitedUntil: number | undefined;
  private balance: BalanceState = 'unknown';
  private queue: Waiter[] = [];
  /** When the first waiting request may go (finite waits only). */
  private pacedUntil: number | undefined;
  private timer: AbortController | undefined;
  private timerAt: number | undefined;
  private pumping = false;
  private pumpAgain = false;
  private readonly listeners = new Set<(snapshot: LimitSnapshot) => void>();
  private lastEmitted = '';

  constructor(
    private readonly clock: Clock,
    private configured: ConfiguredLimits = DEFAULT_LIMITS,
    /** The limits' window: a minute, as the spec says; shorter only in tests. */
    private readonly windowMs = 60_000,
  ) {}

  /** Forgets everything learned about the key (another key has other limits and another balance). */
  reset(): void {
    this.entries = [];
    this.fromHeaders = undefined;
    this.learned = undefined;
    this.headerless = false;
    this.rateLimitedUntil = undefined;
    this.balance = 'unknown';
    this.changed();
  }

  setConfiguredLimits(limits: ConfiguredLimits): void {
    this.configured = limits;
    this.changed();
  }

  onChange(listener: (snapshot: LimitSnapshot) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  snapshot(): LimitSnapshot {
    const now = this.clock.now();
    this.prune(now);
    const use = this.windowUse(now);
    const headers = this.freshHeaders(now);
    const firstFree = (part: 'requests' | 'tokens') => use.frees.find((free) => free[part] > 0)?.at;
    const rateLimited = this.rateLimitedUntil !== undefined && this.rateLimitedUntil > now ? this.rateLimitedUntil : undefined;
    const paced = this.pacedUntil !== undefined && this.pacedUntil > now ? this.pacedUntil : undefined;
    return {
      source: headers ? 'headers' : 'local',
      requestLimit: use.requestLimit,
      requestsRemaining: Math.max(0, use.requestLimit - use.requests),
      requestsResetAt: headers ? future(headers.requestsResetAt, now) : firstFree('requests'),
      tokenLimit: use.tokenLimit,
      tokensRemaining: Math.max(0, use.tokenLimit - use.tokens),
      tokensResetAt: headers ? future(headers.tokensResetAt, now) : firstFree('tokens'),
      tokensSpentThisWindow: this.entries.reduce((sum, entry) => sum + entry.tokens, 0),
      rateLimitedUntil: maxDefined(rateLimited, paced),
      requestsWaiting: this.queue.length,
      balance: this.balance,
    };
  }

  /**
   * The epoch ms a request of about `estimatedTokens` would fit the window, not
   * counting the requests waiting before it: `now` when it fits at once,
   * Infinity when only an answer to a request in flight can make room.
   */
  readyAt(estimatedTokens: number): number {
    const now = this.clock.now();
    this.prune(now);
    return this.readyAtFor(estimatedTokens, now, this.windowUse(now));
  }

  /**
   * Waits for the request's turn and room in the window, then reserves its share.
   * Rejects with the signal's reason when it aborts first.
   */
  acquire(estimatedTokens: number, signal: AbortSignal, options: AcquireOptions = {}): Promise<Reservation> {
    return new Promise<Reservation>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.queue = this.queue.filter((queued) => queued !== waiter);
        reject(signal.reason);
        this.changed();
      };
      const waiter: Waiter = {
        tokens: Math.max(0, estimatedTokens),
        grant: (reservation) => {
          signal.removeEventListener('abort', onAbort);
          resolve(reservation);
        },
        onWait: options.onWait,
        announced: 0,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (options.front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.changed();
    });
  }

  /**
   * Reads `x-ratelimit-*`; returns false when the gateway sent none (local counting stays in charge).
   * `success`: the answer was a 2xx, whose lack of headers means the gateway does not send them
   * (a 401 has none anyway).
   */
  recordHeaders(headers: Headers, success = true): boolean {
    const requestLimit = numberHeader(headers, 'x-ratelimit-limit-requests');
    const requestsRemaining = numberHeader(headers, 'x-ratelimit-remaining-requests');
    const tokenLimit = numberHeader(headers, 'x-ratelimit-limit-tokens') ?? this.configured.tokensPerMinute;
    const tokensRemaining = numberHeader(headers, 'x-ratelimit-remaining-tokens') ?? tokenLimit;
    if (requestLimit === undefined || requestsRemaining === undefined) {
      if (success && !this.headerless) {
        this.headerless = true;
        this.changed();
      }
      return false;
    }
    const now = this.clock.now();
    this.fromHeaders = {
      requestLimit,
      requestsRemaining,
      requestsResetAt: now + this.resetDelay(headers.get('x-ratelimit-reset-requests')),
      tokenLimit,
      tokensRemaining,
      tokensResetAt: now + this.resetDelay(headers.get('x-ratelimit-reset-tokens')),
      receivedAt: now,
    };
    this.learned = { requestsPerMinute: requestLimit, tokensPerMinute: tokenLimit };
    // Whatever was answered before these headers left is in their count.
    for (const entry of this.entries) if (entry.answeredAt !== undefined) entry.inHeaders = true;
    this.changed();
    return true;
  }

  recordRateLimited(retryAfterMs: number): void {
    this.recordRateLimitedUntil(this.clock.now() + retryAfterMs);
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

  /** A success ends any 429 wait early and proves the balance is not empty. */
  recordSuccess(): void {
    if (this.rateLimitedUntil === undefined && this.balance === 'ok') return;
    this.rateLimitedUntil = undefined;
    this.balance = 'ok';
    this.changed();
  }

  /**
   * A reset later than the window is not believed: the limits are per window, so
   * the window refills within one (a hostile or broken `reset` of years must not
   * stall every later request). Missing or unreadable: a whole window.
   */
  private resetDelay(text: string | null): number {
    const ms = parseDuration(text);
    return ms === undefined ? this.windowMs : Math.min(ms, this.windowMs);
  }

  private freshHeaders(now: number): HeaderLimits | undefined {
    const headers = this.fromHeaders;
    return headers && now - headers.receivedAt < this.windowMs ? headers : undefined;
  }

  private limits(): ConfiguredLimits {
    return this.learned ?? this.configured;
  }

  /** The window now: the latest headers plus what they cannot know yet, or the client's own count. */
  private windowUse(now: number, extra?: Reserved): WindowUse {
    const headers = this.freshHeaders(now);
    const limits = this.limits();
    const use: WindowUse = {
      requestLimit: headers?.requestLimit ?? limits.requestsPerMinute,
      tokenLimit: headers?.tokenLimit ?? limits.tokensPerMinute,
      requests: 0,
      tokens: 0,
      frees: [],
    };
    const add = (entry: Reserved) => {
      use.requests += entry.requests;
      use.tokens += entry.tokens;
      if (entry.answeredAt !== undefined) use.frees.push({ at: entry.answeredAt + this.windowMs, requests: entry.requests, tokens: entry.tokens });
    };
    for (const entry of this.entries) if (!headers || !entry.inHeaders) add(entry);
    if (extra) add(extra);
    if (headers) {
      // The gateway's count, which frees all at once at the reported reset (a full refill, as the interface means it).
      if (headers.requestsResetAt > now) {
        const used = Math.max(0, headers.requestLimit - headers.requestsRemaining);
        use.requests += used;
        use.frees.push({ at: headers.requestsResetAt, requests: used, tokens: 0 });
      }
      if (headers.tokensResetAt > now) {
        const used = Math.max(0, headers.tokenLimit - headers.tokensRemaining);
        use.tokens += used;
        use.frees.push({ at: headers.tokensResetAt, requests: 0, tokens: used });
      }
    }
    use.frees.sort((a, b) => a.at - b.at);
    return use;
  }

  /** The first time from `now` at which one more request of `tokens` fits (a request larger than the limit: an empty window). */
  private readyAtFor(tokens: number, now: number, use: WindowUse): number {
    const notBefore = Math.max(now, this.rateLimitedUntil ?? now);
    // Until the first answer says whether the gateway reports its limits, one request goes alone:
    // a burst then waits one round trip instead of meeting 429s under limits lower than configured.
    if (this.learned === undefined && !this.headerless && this.entries.some((entry) => entry.answeredAt === undefined)) return Infinity;
    const needed = Math.min(tokens, use.tokenLimit);
    let { requests, tokens: used } = use;
    const fits = () => requests + 1 <= use.requestLimit && used + needed <= use.tokenLimit;
    if (fits()) return notBefore;
    for (const free of use.frees) {
      requests -= free.requests;
      used -= free.tokens;
      if (fits()) return Math.max(notBefore, free.at);
    }
    return Infinity;
  }

  /** Lets waiting requests go as far as the window allows, in their order; then sets the timer for the next. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    const now = this.clock.now();
    this.prune(now);
    let head: { tokens: number; readyAt: number } | undefined;
    let secondWaits = false;
    const waiting: Waiter[] = [];
    for (const waiter of this.queue) {
      if (!secondWaits) {
        const readyAt = this.readyAtFor(waiter.tokens, now, this.windowUse(now));
        if (readyAt <= now && (head === undefined || this.keepsTime(head, waiter.tokens, now))) {
          waiter.grant(this.reserve(waiter.tokens));
          continue;
        }
        if (head === undefined) head = { tokens: waiter.tokens, readyAt };
        else secondWaits = true;
      }
      waiting.push(waiter);
    }
    this.queue = waiting;
    this.pacedUntil = head && Number.isFinite(head.readyAt) ? head.readyAt : undefined;
    this.announce(now);
    this.setTimer(this.pacedUntil);
  }

  /** Whether one more request of `tokens` sent now leaves the first waiting request's time where it is. */
  private keepsTime(head: { tokens: number; readyAt: number }, tokens: number, now: number): boolean {
    if (!Number.isFinite(head.readyAt)) return false;
    const candidate: Reserved = { requests: 1, tokens, answeredAt: now, inHeaders: false };
    return this.readyAtFor(head.tokens, now, this.windowUse(now, candidate)) <= head.readyAt;
  }

  /**
   * Tells each waiting request when it should go: the time it would fit if every
   * request before it went at its own time (counted from now, so a little late rather than early).
   */
  private announce(now: number): void {
    const planned: Reserved[] = [];
    for (const waiter of this.queue) {
      const until = this.readyAtFor(waiter.tokens, now, this.windowUseWith(now, planned));
      if (!Number.isFinite(until)) break;
      planned.push({ requests: 1, tokens: waiter.tokens, answeredAt: until, inHeaders: false });
      if (until > waiter.announced && until > now) {
        waiter.announced = until;
        waiter.onWait?.(until);
      }
    }
  }

  private windowUseWith(now: number, planned: Reserved[]): WindowUse {
    const use = this.windowUse(now);
    for (const entry of planned) {
      use.requests += entry.requests;
      use.tokens += entry.tokens;
      use.frees.push({ at: (entry.answeredAt ?? now) + this.windowMs, requests: entry.requests, tokens: entry.tokens });
    }
    use.frees.sort((a, b) => a.at - b.at);
    return use;
  }

  private reserve(tokens: number): Reservation {
    const entry: Reserved = { requests: 1, tokens, answeredAt: undefined, inHeaders: false };
    this.entries.push(entry);
    let released = false;
    return {
      answered: () => {
        if (released || entry.answeredAt !== undefined) return;
        entry.answeredAt = this.clock.now();
        this.changed();
      },
      settle: (totalTokens, countedByHeaders = 0) => {
        if (released) return;
        entry.answeredAt ??= this.clock.now();
        const notInHeaders = totalTokens - Math.max(0, countedByHeaders);
        if (entry.inHeaders && this.fromHeaders && notInHeaders > 0) {
          this.fromHeaders.tokensRemaining = Math.max(0, this.fromHeaders.tokensRemaining - notInHeaders);
        }
        entry.tokens = Math.max(0, totalTokens);
        this.changed();
      },
      release: () => {
        if (released) return;
        released = true;
        this.entries = this.entries.filter((other) => other !== entry);
        this.changed();
      },
    };
  }

  private setTimer(at: number | undefined): void {
    if (at === this.timerAt) return;
    this.timer?.abort();
    this.timer = undefined;
    this.timerAt = at;
    if (at === undefined) return;
    const timer = new AbortController();
    this.timer = timer;
    // The clock clamps the delay to what a timer can hold, so a far time wakes late rather than at once.
    this.clock.sleep(at - this.clock.now(), timer.signal).then(
      () => {
        if (this.timer !== timer) return;
        this.timer = undefined;
        this.timerAt = undefined;
        this.changed();
      },
      () => undefined,
    );
  }

  private prune(now: number): void {
    // Entries are few (one per request in a window), so filtering is cheap and keeps out-of-order dates right.
    const cutoff = now - this.windowMs;
    if (this.entries.some((entry) => entry.answeredAt !== undefined && entry.answeredAt <= cutoff)) {
      this.entries = this.entries.filter((entry) => entry.answeredAt === undefined || entry.answeredAt > cutoff);
    }
  }

  /** Something changed: waiting requests may go, and listeners hear of it when what they see differs. */
  private changed(): void {
    this.pump();
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

function numberHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw == null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

function future(at: number, now: number): number | undefined {
  return at > now ? at : undefined;
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}
