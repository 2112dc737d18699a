/**
 * The ledger of the key's rate window as this VS Code window knows it: its own
 * reservations, the other windows' (as last read from the shared file), and the
 * gateway's last `x-ratelimit-*` report. `use` folds them into one picture of
 * what the window holds and when parts of it free up, and `fitsAt` says when one
 * more request would fit. Apart from the tracker (limitTracker.ts) so the counting is
 * kept from the waiting (pacingQueue.ts) and the file sync (sharedWindowSync.ts).
 */
import type { Clock } from '../../base/common';
import type { ConfiguredLimits } from '../../settings/common';
import type { Reservation } from './limitTypes';
import type { RateLimitReport } from './rateLimitHeaders';
import { LazyWindowUse, earliestLeave, freesOf, othersLeaveTime, ownLeaveTime, uncountedBy } from './windowUse';

export type LimitsOrigin = 'reported' | 'unknown' | 'not_sent';

/** A request's share of the window as the ledger counts it. */
export interface Reserved {
  requests: number;
  tokens: number;
  sentAt: number;
  /** When the answer arrived; undefined while in flight (a request in flight never leaves the window). */
  answeredAt: number | undefined;
  /** Answered before the latest header snapshot, so counted in it. */
  inHeaders: boolean;
}

/** Another window's reservation, read from the shared file. */
/** How many windows a limit taught by a 429 holds (see WindowLedger.admitted). */
const ADMITTED_WINDOWS = 10;

export interface OthersReserved extends Reserved {
  owner: string;
}

/** The gateway's last report, dated, with the reservations it counts. */
export interface HeaderLimits {
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

/** What the window holds now and when parts of it free up (ascending), in one model for headers and local counts. */
export interface WindowUse {
  requestLimit: number;
  tokenLimit: number;
  requests: number;
  tokens: number;
  frees: { at: number; requests: number; tokens: number }[];
}

export class WindowLedger {
  private entries: Reserved[] = [];
  /** Other windows' reservations, as last read from the shared window. */
  private others: OthersReserved[] = [];
  private fromHeaders: HeaderLimits | undefined;
  /** The limits the gateway last reported, which outlive the snapshot they came with. */
  private learned: ConfiguredLimits | undefined;
  /** An answer came without x-ratelimit-* headers: this gateway does not send them. */
  private headerless = false;
  /**
   * What a 429 taught of a Gateway that reports no limits: it admitted no more than `requests` of this key's
   * requests in a window, so more are not sent until `until` (a few windows: other clients of the key may
   * have taken their share that time, and the next 429 teaches it again).
   */
  private admitted: { requests: number; until: number } | undefined;
  /**
   * The earliest time one of this window's answered reservations leaves the window, and one of the other
   * windows' stops counting (Infinity: none will): until then `prune` has nothing to drop and returns at
   * once, instead of looking at every reservation of the last minute several times a request.
   */
  private ownLeaveAt = Infinity;
  private othersLeaveAt = Infinity;

  constructor(
    private readonly clock: Clock,
    private configuredLimits: ConfiguredLimits,
    readonly windowMs: number,
    /**
     * Told when a reservation changes (answered, settled, released); `grew`: it counts more than
     * before (a settle above the estimate), which the other windows must see at once.
     */
    private readonly changed: (grew: boolean) => void,
  ) {}

  /** Forgets everything learned about the key (the other windows' reservations stay: they are theirs). */
  forget(): void {
    this.entries = [];
    this.ownLeaveAt = Infinity;
    this.fromHeaders = undefined;
    this.learned = undefined;
    this.headerless = false;
    this.admitted = undefined;
  }

  /** Takes what `other` learned of the key (a key check's own ledger, whose request the gateway counted against this key). */
  adopt(other: WindowLedger): void {
    const copies = new Map(other.entries.map((entry) => [entry, { ...entry }]));
    this.entries = [...copies.values()];
    this.ownLeaveAt = earliestLeave(this.entries, ownLeaveTime, this.windowMs);
    // The headers' count keeps pointing at the same requests, so none is counted twice.
    this.fromHeaders = other.fromHeaders && { ...other.fromHeaders, counted: other.fromHeaders.counted.map((entry) => copies.get(entry) ?? entry) };
    this.learned = other.learned;
    this.headerless = other.headerless;
    this.admitted = other.admitted;
  }

  /**
   * The Gateway answered 429, asking for a retry at `retryAt`, and reports no limits (no headers now or before):
   * when the first of the requests counted in the window (pruned to `now`, the refused one already released)
   * leaves it at that time too, they are all it admits a window, as far as the client can tell. A retry time
   * that does not fit this window (another window length, other clients of the key) teaches nothing.
   */
  noteRefused(now: number, retryAt: number): void {
    if (this.learned !== undefined || this.freshHeaders(now)) return;
    const use = this.use(now);
    if (use.requests === 0 || use.requests >= this.configuredLimits.requestsPerMinute) return;
    const firstFree = use.frees.find((free) => free.requests > 0)?.at;
    if (firstFree === undefined || Math.abs(firstFree - retryAt) > Math.max(2_000, this.windowMs / 20)) return;
    this.admitted = { requests: use.requests, until: now + ADMITTED_WINDOWS * this.windowMs };
  }

  private admittedRequests(now: number): number {
    return this.admitted !== undefined && now < this.admitted.until ? this.admitted.requests : Infinity;
  }

  get configured(): ConfiguredLimits {
    return this.configuredLimits;
  }

  set configured(limits: ConfiguredLimits) {
    this.configuredLimits = limits;
  }

  /** This window's reservations. */
  get own(): readonly Reserved[] {
    return this.entries;
  }

  get othersReserved(): readonly OthersReserved[] {
    return this.others;
  }

  replaceOthers(others: OthersReserved[]): void {
    this.others = others;
    this.othersLeaveAt = earliestLeave(this.others, othersLeaveTime, this.windowMs);
  }

  /** Tokens this window spent or reserved in the current window. */
  tokensSpent(): number {
    return this.entries.reduce((sum, entry) => sum + entry.tokens, 0);
  }

  freshHeaders(now: number): HeaderLimits | undefined {
    const headers = this.fromHeaders;
    return headers && now - headers.receivedAt < this.windowMs ? headers : undefined;
  }

  /** The tokens per minute `use` measures against, without counting the window. */
  tokenLimit(now: number): number {
    return this.freshHeaders(now)?.tokenLimit ?? (this.learned ?? this.configuredLimits).tokensPerMinute;
  }

  /** The requests per minute `use` measures against, without counting the window. */
  requestLimit(now: number): number {
    return this.freshHeaders(now)?.requestLimit ?? Math.min((this.learned ?? this.configuredLimits).requestsPerMinute, this.admittedRequests(now));
  }

  /** Where the limits in use come from: the Gateway's headers (now or before), nowhere yet, or the configured ones because the Gateway sends none. */
  limitsOrigin(now: number): LimitsOrigin {
    if (this.freshHeaders(now) || this.learned) return 'reported';
    return this.headerless ? 'not_sent' : 'unknown';
  }

  /** Notes an answer without the headers; true when that is news. */
  noteHeaderless(): boolean {
    if (this.headerless) return false;
    this.headerless = true;
    return true;
  }

  record(report: RateLimitReport): void {
    const now = this.clock.now();
    // Whatever was answered before these headers left is in their count.
    const counted = [...this.entries, ...this.others].filter((entry) => entry.answeredAt !== undefined);
    for (const entry of counted) entry.inHeaders = true;
    this.fromHeaders = {
      requestLimit: report.requestLimit,
      requestsRemaining: report.requestsRemaining,
      requestsResetAt: now + report.requestsResetInMs,
      tokenLimit: report.tokenLimit,
      tokensRemaining: report.tokensRemaining,
      tokensResetAt: now + report.tokensResetInMs,
      receivedAt: now,
      counted,
    };
    this.learned = { requestsPerMinute: report.requestLimit, tokensPerMinute: report.tokenLimit };
  }

  /** Tokens spent outside any reservation; `countedByHeaders`: as in `Reservation.settle`. */
  recordTokens(tokens: number, countedByHeaders: number): void {
    const now = this.clock.now();
    const headers = this.freshHeaders(now);
    // Not marked as counted in the headers: they may count the same tokens again, which errs on the safe side.
    this.entries.push({ requests: 0, tokens, sentAt: now, answeredAt: now, inHeaders: false });
    this.noteAnswered(now);
    if (headers) {
      headers.tokensRemaining = Math.max(0, headers.tokensRemaining - Math.max(0, tokens - Math.max(0, countedByHeaders)));
    }
  }

  /**
   * The window now: the latest headers plus what they cannot know yet, or the client's own count; `extra` as if sent too.
   * Asked several times per request, over every reservation of the last minute: the counts are summed at once, the
   * sorted list of when parts free up is built only when read (a request that fits now never reads it), so it is
   * read before the ledger changes again, as every caller does at once.
   */
  use(now: number, extra: readonly Reserved[] = []): WindowUse {
    const headers = this.freshHeaders(now);
    const limits = this.learned ?? this.configuredLimits;
    // Every reservation known here counts, each leaving at its own time.
    const known = [this.entries, this.others, extra];
    let requests = 0;
    let tokens = 0;
    for (const list of known) {
      for (const entry of list) {
        requests += entry.requests;
        tokens += entry.tokens;
      }
    }
    const uncounted = headers ? uncountedBy(headers, now) : [];
    for (const free of uncounted) {
      requests += free.requests;
      tokens += free.tokens;
    }
    return new LazyWindowUse(
      headers?.requestLimit ?? Math.min(limits.requestsPerMinute, this.admittedRequests(now)),
      headers?.tokenLimit ?? limits.tokensPerMinute,
      requests,
      tokens,
      () => freesOf(known, uncounted, this.windowMs),
    );
  }

  /**
   * The first time from `notBefore` at which one more request of `tokens` fits `use`
   * (a request larger than the limit: an empty window); Infinity when only an answer
   * to a request in flight can make room.
   */
  fitsAt(tokens: number, notBefore: number, use: WindowUse): number {
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

  reserve(tokens: number): Reservation {
    const entry: Reserved = { requests: 1, tokens, sentAt: this.clock.now(), answeredAt: undefined, inHeaders: false };
    this.entries.push(entry);
    let released = false;
    return {
      answered: () => {
        if (released || entry.answeredAt !== undefined) return;
        entry.answeredAt = this.clock.now();
        this.noteAnswered(entry.answeredAt);
        this.changed(false);
      },
      settle: (totalTokens, countedByHeaders = 0) => {
        if (released) return;
        if (entry.answeredAt === undefined) {
          entry.answeredAt = this.clock.now();
          this.noteAnswered(entry.answeredAt);
        }
        const notInHeaders = totalTokens - Math.max(0, countedByHeaders);
        if (entry.inHeaders && this.fromHeaders && notInHeaders > 0) {
          this.fromHeaders.tokensRemaining = Math.max(0, this.fromHeaders.tokensRemaining - notInHeaders);
        }
        const grew = totalTokens > entry.tokens;
        entry.tokens = Math.max(0, totalTokens);
        this.changed(grew);
      },
      release: () => {
        if (released) return;
        released = true;
        this.entries = this.entries.filter((other) => other !== entry);
        // The gateway did not count it, so the headers that came with its answer do not either.
        if (this.fromHeaders) this.fromHeaders.counted = this.fromHeaders.counted.filter((other) => other !== entry);
        this.changed(false);
      },
    };
  }

  prune(now: number): void {
    // Filtering (rather than dropping from the front) keeps out-of-order answers right; it runs only once something left.
    if (now >= this.ownLeaveAt) {
      this.entries = this.entries.filter((entry) => ownLeaveTime(entry, this.windowMs) > now);
      this.ownLeaveAt = earliestLeave(this.entries, ownLeaveTime, this.windowMs);
    }
    if (now >= this.othersLeaveAt) {
      this.others = this.others.filter((entry) => this.othersLive(entry, now));
      this.othersLeaveAt = earliestLeave(this.others, othersLeaveTime, this.windowMs);
    }
  }

  /** An own reservation was answered at `at`: it leaves the window a window later. */
  private noteAnswered(at: number): void {
    this.ownLeaveAt = Math.min(this.ownLeaveAt, at + this.windowMs);
  }

  /** Another window's entry still counts (see othersLeaveTime). */
  othersLive(entry: Reserved, now: number): boolean {
    return othersLeaveTime(entry, this.windowMs) > now;
  }
}
