/**
 * Several VS Code windows on one key each have a tracker; measured, two bursting
 * together meet 429s with the gateway's headers or without (the headers only tell
 * each window what the gateway had counted when it last answered). So with a
 * `SharedWindow` (a file in the extension's global storage, src/rateLimits/node/fileSharedWindow.ts)
 * the trackers also see each other's reservations: every decision to send is
 * taken under its lock, with the other windows' entries read fresh, or within a
 * lease such a round wrote to the file for the others to count (takeLease), which
 * spares a request of about a second's burst the lock and the file I/O. This is
 * that exchange, apart from the tracker (limitTracker.ts) that asks for it.
 */
import { TIMER_STOPPED, type Clock } from '../../base/common';
import type { OthersReserved, Reserved, WindowLedger } from './windowLedger';

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

/** Entries the shared window holds at most: one per request in a window, of every window on the machine. */
export const MAX_SHARED_ENTRIES = 5_000;
/**
 * How far ahead of now another window's entry may be dated. The windows share
 * this machine's clock, so only the moments between one's write and another's
 * read separate them; an entry dated further ahead (a clock set back, a broken
 * or hostile file) would count until that date, holding back every request of
 * every window, and is ignored instead.
 */
export const SHARED_FUTURE_SKEW_MS = 5_000;
/** An entry is one request (or tokens spent outside one); more is no entry a window writes. */
const MAX_ENTRY_REQUESTS = 1;
/** One request's tokens: above any model's context window and output together. */
export const MAX_ENTRY_TOKENS = 10_000_000;

/** Whether another window's entry can be one a window wrote by `now`: small, finite, and not dated ahead. */
export function plausibleEntry(entry: SharedWindowEntry, now: number): boolean {
  const latest = now + SHARED_FUTURE_SKEW_MS;
  const dated = (at: number) => Number.isFinite(at) && at >= 0 && at <= latest;
  return (
    Number.isInteger(entry.requests) &&
    entry.requests >= 0 &&
    entry.requests <= MAX_ENTRY_REQUESTS &&
    Number.isFinite(entry.tokens) &&
    entry.tokens >= 0 &&
    entry.tokens <= MAX_ENTRY_TOKENS &&
    dated(entry.sentAt) &&
    (entry.answeredAt === null || dated(entry.answeredAt))
  );
}

/** While requests wait on a shared window, how often the other windows' answers are looked for (at most; a twentieth of a short window). */
export function sharedPollMs(windowMs: number): number {
  return Math.min(250, windowMs / 20);
}

/** How long a change that only makes this window count less waits to be written with others (see LimitTracker.changed). */
export const PUBLISH_DELAY_MS = 20;

/**
 * How long a lease may be drawn on after the locked round that wrote it, and how recent a send must be
 * for a round to write one: a second, at most a sixtieth of the window (what a lease holds from the
 * other windows is back to them that soon).
 */
export function leaseMs(windowMs: number): number {
  return Math.min(1_000, windowMs / 60);
}
/** Requests a lease holds at most: few entries in the file, and little room held from the other windows. */
export const MAX_LEASE_REQUESTS = 16;

/** Room this window may spend without the lock (see SharedWindowSync.takeLease). */
interface Lease {
  requests: number;
  tokens: number;
  until: number;
}

export class SharedWindowSync {
  /** A change is handed to the shared window and not yet applied: it will see everything up to its turn, so another is not needed. */
  private queued = false;
  private soon: AbortController | undefined;
  /**
   * The lease this window may draw on, from the round that sized it on: the lock is held until that
   * round's write is done, so no other window reads the file before it holds the lease.
   */
  private lease: Lease | undefined;
  private leaseEnd: AbortController | undefined;

  constructor(
    private readonly shared: SharedWindow,
    private readonly clock: Clock,
    private readonly ledger: WindowLedger,
    /** Lets waiting requests go as far as the window allows (run under the lock). */
    private readonly pump: () => void,
    /** Tells the listeners, once a round is over. */
    private readonly emit: () => void,
    /** Whether requests wait in line (after the pump): then no lease is written. */
    private readonly waiting: () => boolean,
  ) {}

  /**
   * Under the shared lock: reads the other windows' entries, lets waiting requests go
   * as far as the window allows, and writes this window's entries back. At most one
   * change waits its turn: a change meanwhile is seen by it, or brings another
   * (which the shared window may apply under the lock it holds, see fileSharedWindow.ts).
   */
  sync(): void {
    this.soon?.abort(TIMER_STOPPED);
    this.soon = undefined;
    if (this.queued) return;
    this.queued = true;
    this.shared
      .update((stored) => {
        this.queued = false;
        return this.exchange(stored);
      })
      .catch(() => {
        this.queued = false;
        // The file may not hold the lease: none is drawn on until a round is written.
        this.lease = undefined;
        // The storage failed (full disk, no permission): pace on what this window knows.
        this.pump();
      })
      .finally(() => this.emit())
      .catch(() => undefined);
  }

  /** A sync within PUBLISH_DELAY_MS, unless one comes sooner. */
  syncSoon(): void {
    if (this.queued || this.soon) return;
    const timer = new AbortController();
    this.soon = timer;
    this.clock.sleep(PUBLISH_DELAY_MS, timer.signal).then(
      () => {
        if (this.soon === timer) this.sync();
      },
      () => undefined,
    );
  }

  /** Spends no more of the lease (the key or the limits changed: the next locked round sizes a new one). */
  dropLease(): void {
    this.lease = undefined;
  }

  /**
   * The fast path: spends `tokens` and one request of the lease the last locked round wrote, when it
   * is still in date and holds that much; false (and nothing spent) otherwise, and the request takes
   * the locked path. The tracker checks the window itself too (its limits, 429 waits, the first request).
   *
   * Why no sum of windows can pass the limit this way: a lease is written to the file, as entries in
   * flight, in the same locked round that sized it, so every other window's locked decision from then
   * on counts it as sent; it is at most the room that round left (a part of it: room / (other windows + 2),
   * the +2 being this window and one part left for a window that has not written yet). What this
   * window spends without the lock stays within the lease, so what it really holds never exceeds what
   * the file says it holds, and the file's total never exceeds the limit. Other windows' fast paths are
   * bounded by their own leases the same way; a new window has no lease, so its first request takes the
   * lock and counts everyone's. (A settle above its estimate is written at once, as before.)
   */
  takeLease(tokens: number, now: number): boolean {
    const lease = this.lease;
    if (lease === undefined || now >= lease.until || lease.requests < 1 || tokens > lease.tokens) return false;
    lease.requests -= 1;
    lease.tokens -= tokens;
    return true;
  }

  private exchange(stored: SharedWindowEntry[]): SharedWindowEntry[] {
    const owner = this.shared.owner;
    const now = this.clock.now();
    // The lease the file holds is replaced by this round's: the pump below counts only what was really sent.
    this.lease = undefined;
    // An implausible entry is left out here, so it is also gone from the file once this round writes it back.
    const others = stored.filter((entry) => entry.owner !== owner && plausibleEntry(entry, now)).slice(-MAX_SHARED_ENTRIES);
    this.ledger.replaceOthers(others.map(fromShared));
    this.pump();
    const kept = this.ledger.othersReserved.map((entry) => toShared(entry, entry.owner));
    const own = this.ledger.own.map((entry) => toShared(entry, owner));
    const live = [...kept, ...own].filter((entry) => entry.owner === owner || this.ledger.othersLive(fromShared(entry), now));
    return [...live, ...this.grantLease(now, owner)];
  }

  /**
   * Sizes this window's lease from the room left after this round (see takeLease), and returns the entries
   * that hold it in the file. Only for a window that sent within a lease's time (an idle one holds no room from
   * the others), and only when no request waits (those go through the lock in order). A round after the
   * lease's end takes it out of the file again.
   */
  private grantLease(now: number, owner: string): SharedWindowEntry[] {
    this.leaseEnd?.abort(TIMER_STOPPED);
    this.leaseEnd = undefined;
    const lasts = leaseMs(this.ledger.windowMs);
    const active = this.ledger.own.some((entry) => entry.sentAt > now - lasts);
    if (!active || this.waiting()) return [];
    const use = this.ledger.use(now);
    const windows = new Set(this.ledger.othersReserved.map((entry) => entry.owner)).size + 2;
    const requests = Math.min(MAX_LEASE_REQUESTS, Math.floor((use.requestLimit - use.requests) / windows));
    const tokens = Math.min(Math.floor((use.tokenLimit - use.tokens) / windows), requests * MAX_ENTRY_TOKENS);
    if (!(requests >= 1) || !(tokens >= 0)) return [];
    this.lease = { requests, tokens, until: now + lasts };
    const end = new AbortController();
    this.leaseEnd = end;
    this.clock.after(lasts, () => this.sync(), end.signal);
    return Array.from({ length: requests }, () => ({ owner, requests: 1, tokens: tokens / requests, sentAt: now, answeredAt: null }));
  }
}

function fromShared(entry: SharedWindowEntry): OthersReserved {
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
