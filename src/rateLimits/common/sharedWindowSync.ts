/**
 * Several VS Code windows on one key each have a tracker; measured, two bursting
 * together meet 429s with the gateway's headers or without (the headers only tell
 * each window what the gateway had counted when it last answered). So with a
 * `SharedWindow` (a file in the extension's global storage, src/rateLimits/node/fileSharedWindow.ts)
 * the trackers also see each other's reservations: every decision to send is
 * taken under its lock, with the other windows' entries read fresh. This is that
 * exchange, apart from the tracker (limits.ts) that asks for it.
 */
import type { Clock } from '../../base/common';
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
const MAX_ENTRY_TOKENS = 10_000_000;

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

export class SharedWindowSync {
  /** A change is handed to the shared window and not yet applied: it will see everything up to its turn, so another is not needed. */
  private queued = false;
  private soon: AbortController | undefined;

  constructor(
    private readonly shared: SharedWindow,
    private readonly clock: Clock,
    private readonly ledger: WindowLedger,
    /** Lets waiting requests go as far as the window allows (run under the lock). */
    private readonly pump: () => void,
    /** Tells the listeners, once a round is over. */
    private readonly emit: () => void,
  ) {}

  /**
   * Under the shared lock: reads the other windows' entries, lets waiting requests go
   * as far as the window allows, and writes this window's entries back. At most one
   * change waits its turn: a change meanwhile is seen by it, or brings another
   * (which the shared window may apply under the lock it holds, see fileSharedWindow.ts).
   */
  sync(): void {
    this.soon?.abort();
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

  private exchange(stored: SharedWindowEntry[]): SharedWindowEntry[] {
    const owner = this.shared.owner;
    const now = this.clock.now();
    // An implausible entry is left out here, so it is also gone from the file once this round writes it back.
    const others = stored.filter((entry) => entry.owner !== owner && plausibleEntry(entry, now)).slice(-MAX_SHARED_ENTRIES);
    this.ledger.replaceOthers(others.map(fromShared));
    this.pump();
    const kept = this.ledger.othersReserved.map((entry) => toShared(entry, entry.owner));
    const own = this.ledger.own.map((entry) => toShared(entry, owner));
    return [...kept, ...own].filter((entry) => entry.owner === owner || this.ledger.othersLive(fromShared(entry), now));
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
