/**
 * The requests waiting for room in the key's rate window, and the order they go in.
 * Apart from the tracker (limitTracker.ts), which owns the window's counts, because the
 * waiting has its own rules and timer.
 *
 * Fairness: first come, first served, with one exception (conservative
 * backfilling). The first waiting request's start time is protected: a later
 * request may go ahead of it only when it fits now and does not move that time.
 * A big request is never starved by small ones, and small ones are held back by
 * a big one only until it goes, which is at most one window after the requests
 * before it were answered (a request larger than the whole TPM goes when the
 * window is empty). Everything behind a second request that cannot go waits its turn.
 *
 * Background requests (the key check, model-list refreshes) never wait in line:
 * the user did not ask for them, so they must not spend a slot a user request
 * waits for. One goes only when nobody waits and it fits now; otherwise it is
 * skipped at once (BackgroundSkipped) and its caller makes do without it.
 */
import { TIMER_STOPPED, type Clock } from '../../base/common';
import type { AcquireOptions, Reservation } from './limitTypes';
import type { Reserved } from './windowLedger';

/** What the queue asks of the window it paces. */
export interface PacedWindow {
  /** Drops what has left the window by `now`. */
  prune(now: number): void;
  /** The first time a request of `tokens` fits, with `extra` counted as sent too. */
  readyAt(tokens: number, now: number, extra?: readonly Reserved[]): number;
  /** Takes a request's share of the window as it is sent. */
  reserve(tokens: number): Reservation;
}

/** A background request was not sent, so as not to spend the key's limits before the user's own requests. */
export class BackgroundSkipped extends Error {
  constructor(
    readonly why: string,
    /** The epoch ms it might fit, when known. */
    readonly until: number | undefined,
  ) {
    super(`Skipped a background request: ${why}.`);
    this.name = 'BackgroundSkipped';
  }
}

interface Waiter {
  tokens: number;
  grant(reservation: Reservation): void;
  onWait: ((until: number) => void) | undefined;
  announced: number;
}

export class PacingQueue {
  private waiters: Waiter[] = [];
  /** When the first waiting request may go (finite waits only). */
  private pacedUntil: number | undefined;
  private timer: AbortController | undefined;
  private timerAt: number | undefined;
  private pumping = false;
  private pumpAgain = false;

  constructor(
    private readonly clock: Clock,
    private readonly window: PacedWindow,
    /** Told when a request joins or leaves the queue, or its wait ends. */
    private readonly changed: () => void,
    /** While requests wait, how often to look again for room others made (the other windows' answers); undefined: only at the next free time. */
    private readonly pollMs: number | undefined,
  ) {}

  get length(): number {
    return this.waiters.length;
  }

  /** When the first waiting request may go, if that is still ahead of `now`. */
  pacedAfter(now: number): number | undefined {
    return this.pacedUntil !== undefined && this.pacedUntil > now ? this.pacedUntil : undefined;
  }

  /** Queues a request of `tokens`; resolves with its reservation when it may go, rejects with the signal's reason when it aborts first. */
  wait(tokens: number, signal: AbortSignal, options: AcquireOptions): Promise<Reservation> {
    return new Promise<Reservation>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      if (options.background) {
        this.goNowOrSkip(tokens, resolve, reject);
        return;
      }
      const onAbort = () => {
        this.waiters = this.waiters.filter((queued) => queued !== waiter);
        reject(signal.reason);
        this.changed();
      };
      const waiter: Waiter = {
        tokens: Math.max(0, tokens),
        grant: (reservation) => {
          signal.removeEventListener('abort', onAbort);
          resolve(reservation);
        },
        onWait: options.onWait,
        announced: 0,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (options.front) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
      this.changed();
    });
  }

  /** A background request: its reservation when nobody waits and it fits now, else BackgroundSkipped with when it might fit. */
  private goNowOrSkip(tokens: number, resolve: (reservation: Reservation) => void, reject: (reason: unknown) => void): void {
    const now = this.clock.now();
    this.window.prune(now);
    const readyAt = this.window.readyAt(Math.max(0, tokens), now);
    if (this.waiters.length > 0) reject(new BackgroundSkipped('a request you made is waiting for the rate limit', this.pacedAfter(now)));
    else if (readyAt > now) reject(new BackgroundSkipped("the key's rate limit window is full", Number.isFinite(readyAt) ? readyAt : undefined));
    else {
      resolve(this.window.reserve(Math.max(0, tokens)));
      this.changed();
    }
  }

  /** Lets waiting requests go as far as the window allows, in their order; then sets the timer for the next. */
  pump(): void {
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
    this.window.prune(now);
    let head: { tokens: number; readyAt: number } | undefined;
    let secondWaits = false;
    const waiting: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (!secondWaits) {
        const readyAt = this.window.readyAt(waiter.tokens, now);
        if (readyAt <= now && (head === undefined || this.keepsTime(head, waiter.tokens, now))) {
          waiter.grant(this.window.reserve(waiter.tokens));
          continue;
        }
        if (head === undefined) head = { tokens: waiter.tokens, readyAt };
        else secondWaits = true;
      }
      waiting.push(waiter);
    }
    this.waiters = waiting;
    this.pacedUntil = head && Number.isFinite(head.readyAt) ? head.readyAt : undefined;
    this.announce(now);
    // Other windows' answers are not pushed here: while requests wait, they are looked for now and then.
    const poll = this.pollMs !== undefined && this.waiters.length > 0 ? now + this.pollMs : undefined;
    this.setTimer(poll === undefined ? this.pacedUntil : Math.min(poll, this.pacedUntil ?? Infinity));
  }

  /** Whether one more request of `tokens` sent now leaves the first waiting request's time where it is. */
  private keepsTime(head: { tokens: number; readyAt: number }, tokens: number, now: number): boolean {
    if (!Number.isFinite(head.readyAt)) return false;
    const candidate: Reserved = { requests: 1, tokens, sentAt: now, answeredAt: now, inHeaders: false };
    return this.window.readyAt(head.tokens, now, [candidate]) <= head.readyAt;
  }

  /**
   * Tells each waiting request when it should go: the time it would fit if every
   * request before it went at its own time (counted from now, so a little late rather than early).
   */
  private announce(now: number): void {
    const planned: Reserved[] = [];
    for (const waiter of this.waiters) {
      const until = this.window.readyAt(waiter.tokens, now, planned);
      if (!Number.isFinite(until)) break;
      planned.push({ requests: 1, tokens: waiter.tokens, sentAt: until, answeredAt: until, inHeaders: false });
      if (until > waiter.announced && until > now) {
        waiter.announced = until;
        waiter.onWait?.(until);
      }
    }
  }

  private setTimer(at: number | undefined): void {
    if (at === this.timerAt) return;
    this.timer?.abort(TIMER_STOPPED);
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
}
