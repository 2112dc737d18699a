/**
 * What the ledger's `use` returns (windowLedger.ts): the window's counts summed at once, and when
 * parts of it free up listed and sorted only when read, since a request that fits now never reads them.
 * Also when each reservation leaves the window, which the ledger's prune waits for.
 */
import type { HeaderLimits, Reserved, WindowUse } from './windowLedger';

export type Free = WindowUse['frees'][number];

/** A WindowUse whose `frees` are listed and sorted at their first reading. */
export class LazyWindowUse implements WindowUse {
  private sorted: Free[] | undefined;

  constructor(
    readonly requestLimit: number,
    readonly tokenLimit: number,
    public requests: number,
    public tokens: number,
    private readonly list: () => Free[],
  ) {}

  get frees(): Free[] {
    this.sorted ??= this.list().sort((a, b) => a.at - b.at);
    return this.sorted;
  }
}

/** When each answered reservation leaves the window, and the headers' uncounted part with it. */
export function freesOf(known: readonly (readonly Reserved[])[], uncounted: readonly Free[], windowMs: number): Free[] {
  const frees: Free[] = [];
  for (const list of known) {
    for (const entry of list)
      if (entry.answeredAt !== undefined) frees.push({ at: entry.answeredAt + windowMs, requests: entry.requests, tokens: entry.tokens });
  }
  return frees.concat(uncounted);
}

/**
 * What the gateway counted beyond the reservations known here (other clients of the key) frees
 * all at once at the reported reset: a full refill, as the interface means it.
 * Known ones count even once they have left: they left the gateway's window no later.
 */
export function uncountedBy(headers: HeaderLimits, now: number): Free[] {
  const known = { requests: 0, tokens: 0 };
  for (const entry of headers.counted) {
    known.requests += entry.requests;
    known.tokens += entry.tokens;
  }
  const frees: Free[] = [];
  if (headers.requestsResetAt > now) {
    const unknown = Math.max(0, headers.requestLimit - headers.requestsRemaining - known.requests);
    frees.push({ at: headers.requestsResetAt, requests: unknown, tokens: 0 });
  }
  if (headers.tokensResetAt > now) {
    const unknown = Math.max(0, headers.tokenLimit - headers.tokensRemaining - known.tokens);
    frees.push({ at: headers.tokensResetAt, requests: 0, tokens: unknown });
  }
  return frees;
}

/** When this window's reservation leaves the window: a window after its answer; never while in flight. */
export function ownLeaveTime(entry: Reserved, windowMs: number): number {
  return entry.answeredAt === undefined ? Infinity : entry.answeredAt + windowMs;
}

/**
 * When another window's entry stops counting: a window after its answer, or two windows after it was sent
 * while in flight (a window that closed mid-request does not hold the key forever).
 */
export function othersLeaveTime(entry: Reserved, windowMs: number): number {
  return entry.answeredAt !== undefined ? entry.answeredAt + windowMs : entry.sentAt + 2 * windowMs;
}

/** The first time one of `entries` leaves (Infinity: none will), so the ledger's prune can skip the walk until then. */
export function earliestLeave(entries: readonly Reserved[], leaveTime: (entry: Reserved, windowMs: number) => number, windowMs: number): number {
  let earliest = Infinity;
  for (const entry of entries) earliest = Math.min(earliest, leaveTime(entry, windowMs));
  return earliest;
}
