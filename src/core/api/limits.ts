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
 *
 * Several VS Code windows on one key each have a tracker; measured, two bursting
 * together meet 429s with the gateway's headers or without (the headers only tell
 * each window what the gateway had counted when it last answered). So with a
 * `SharedWindow` the trackers also see each other's reservations: every decision
 * to send is taken under its lock, with the other windows' entries read fresh.
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

/** A reservation as the other windows on the machine see it. */
export interface SharedWindowEntry {
  owner: string;
  requests: number;
  tokens: number;
  sentAt: number;
  /** null while in flight. */
  answeredAt: number | null;
}

/** The reservations of every window on this machine, behind a lock they all take (a file in the extension's global storage). */
export interface SharedWindow {
  /** This window's name among them. */
  readonly owner: string;
  /** Under the lock: hands `change` every window's entries and stores what it returns. */
  update(change: (entries: SharedWindowEntry[]) => SharedWindowEntry[]): Promise<void>;
}

/** While requests wait on a shared window, how often the other windows' answers are looked for (at most; a twentieth of a short window). */
const SHARED_POLL_MS = 250;

interface HeaderLimits {
  requestLimit: number;
  requestsRemaining: number;
  requestsResetAt: number;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetAt: number;
  receivedAt: number;
  /** The reservations known here that these headers count (answered before they came), so the rest of their count is someone else's. */
  counted: Reserved[];
}

interface Reserved {
  requests: number;
  tokens: number;
  sentAt: number;
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
  /** Other windows' reservations, as last read from the shared window. */
  private others: (Reserved & { owner: string })[] = [];
  private syncing = false;
  private syncAgain = false;
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
    /** The other windows on this machine that use the key, when they can be seen. */
    private readonly shared?: SharedWindow,
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
   * Counts tokens spent outside any reservation (the requests this client sends are
   * settled through theirs). `countedByHeaders`: as in `Reservation.settle`.
   */
  recordTokens(tokens: number, countedByHeaders = 0): void {
    if (!(tokens > 0)) return;
    const now = this.clock.now();
    const headers = this.freshHeaders(now);
    // Not marked as counted in the headers: they may count the same tokens again, which errs on the safe side.
    this.entries.push({ requests: 0, tokens, sentAt: now, answeredAt: now, inHeaders: false });
    if (headers) {
      headers.tokensRemaining = Math.max(0, headers.tokensRemaining - Math.max(0, tokens - Math.max(0, countedByHeaders)));
    }
    this.changed();
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
    // Whatever was answered before these headers left is in their count.
    const counted = [...this.entries, ...this.others].filter((entry) => entry.answeredAt !== undefined);
    for (const entry of counted) entry.inHeaders = true;
    this.fromHeaders = {
      requestLimit,
      requestsRemaining,
      requestsResetAt: now + this.resetDelay(headers.get('x-ratelimit-reset-requests')),
      tokenLimit,
      tokensRemaining,
      tokensResetAt: now + this.resetDelay(headers.get('x-ratelimit-reset-tokens')),
      receivedAt: now,
      counted,
    };
    this.learned = { requestsPerMinute: requestLimit, tokensPerMinute: tokenLimit };
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
    // Every reservation known here counts, each leaving at its own time.
    for (const entry of this.entries) add(entry);
    for (const entry of this.others) add(entry);
    if (extra) add(extra);
    if (headers) {
      // What the gateway counted beyond the reservations known here (other clients of the key) frees
      // all at once at the reported reset: a full refill, as the interface means it.
      // Known ones count even once they have left: they left the gateway's window no later.
      const known = { requests: 0, tokens: 0 };
      for (const entry of headers.counted) {
        known.requests += entry.requests;
        known.tokens += entry.tokens;
      }
      if (headers.requestsResetAt > now) {
        const unknown = Math.max(0, headers.requestLimit - headers.requestsRemaining - known.requests);
        use.requests += unknown;
        use.frees.push({ at: headers.requestsResetAt, requests: unknown, tokens: 0 });
      }
      if (headers.tokensResetAt > now) {
        const unknown = Math.max(0, headers.tokenLimit - headers.tokensRemaining - known.tokens);
        use.tokens += unknown;
        use.frees.push({ at: headers.tokensResetAt, requests: 0, tokens: unknown });
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
    // Other windows' answers are not pushed here: while requests wait, they are looked for now and then.
    const poll = this.shared && this.queue.length > 0 ? now + Math.min(SHARED_POLL_MS, this.windowMs / 20) : undefined;
    this.setTimer(poll === undefined ? this.pacedUntil : Math.min(poll, this.pacedUntil ?? Infinity));
  }

  /** Whether one more request of `tokens` sent now leaves the first waiting request's time where it is. */
  private keepsTime(head: { tokens: number; readyAt: number }, tokens: number, now: number): boolean {
    if (!Number.isFinite(head.readyAt)) return false;
    const candidate: Reserved = { requests: 1, tokens, sentAt: now, answeredAt: now, inHeaders: false };
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
      planned.push({ requests: 1, tokens: waiter.tokens, sentAt: until, answeredAt: until, inHeaders: false });
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
    const entry: Reserved = { requests: 1, tokens, sentAt: this.clock.now(), answeredAt: undefined, inHeaders: false };
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
        // The gateway did not count it, so the headers that came with its answer do not either.
        if (this.fromHeaders) this.fromHeaders.counted = this.fromHeaders.counted.filter((other) => other !== entry);
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
    if (this.others.some((entry) => !this.othersLive(entry, now))) this.others = this.others.filter((entry) => this.othersLive(entry, now));
  }

  /**
   * Another window's entry still counts: answered within the window, or in flight for
   * less than two windows (a window that closed mid-request does not hold the key forever).
   */
  private othersLive(entry: Reserved, now: number): boolean {
    return entry.answeredAt !== undefined ? entry.answeredAt + this.windowMs > now : entry.sentAt + 2 * this.windowMs > now;
  }

  /** Something changed: waiting requests may go, and listeners hear of it when what they see differs. */
  private changed(): void {
    if (this.shared) this.sync(this.shared);
    else this.pump();
    this.emit();
  }

  /**
   * Under the shared lock: reads the other windows' entries, lets waiting requests go
   * as far as the window allows, and writes this window's entries back. One at a time;
   * a change meanwhile brings another round.
   */
  private sync(shared: SharedWindow): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    this.syncAgain = false;
    const owner = shared.owner;
    void shared
      .update((stored) => {
        const now = this.clock.now();
        this.others = stored.filter((entry) => entry.owner !== owner).map(fromShared);
        this.pump();
        return [...this.others.map((entry) => toShared(entry, entry.owner)), ...this.entries.map((entry) => toShared(entry, owner))].filter(
          (entry) => entry.owner === owner || this.othersLive(fromShared(entry), now),
        );
      })
      .catch(() => {
        // The storage failed (full disk, no permission): pace on what this window knows.
        this.pump();
      })
      .finally(() => {
        this.syncing = false;
        if (this.syncAgain) this.sync(shared);
        this.emit();
      });
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

function fromShared(entry: SharedWindowEntry): Reserved & { owner: string } {
  return {
    owner: entry.owner,
    requests: entry.requests,
    tokens: entry.tokens,
    sentAt: entry.sentAt,
    answeredAt: entry.answeredAt ?? undefined,
    inHeaders: false,
  };
}

function toShared(entry: Reserved, owner: string): SharedWindowEntry {
  return { owner, requests: entry.requests, tokens: entry.tokens, sentAt: entry.sentAt, answeredAt: entry.answeredAt ?? null };
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
