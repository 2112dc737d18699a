/**
 * The requests waiting for room in the key's rate window, and the order they go in.
 * Apart from the tracker (limitTracker.ts), which owns the window's counts, because the
 * waiting has its own rules and timer.
 *
 * Order: sessions at once share the key fairly. A request the user waits for (foreground: a chat
 * question, an inline edit, the watched session) goes before the agent sessions nobody watches
 * (background); those take turns, one request of each session a round (sessionTurns.ts), so none
 * starves another. A retry goes first within its class and session. Within that order, first
 * come, first served, with one exception (conservative backfilling): the first waiting request's
 * start time is protected, and a later request may go ahead of it only when it fits now and does
 * not move that time. A big request is never starved by small ones, and small ones are held back
 * by a big one only until it goes, which is at most one window after the requests before it were
 * answered (a request larger than the whole TPM goes when the window is empty). Everything behind
 * a second request that cannot go waits its turn.
 *
 * Background sessions are spaced: one goes at most every slot (the window's length over its
 * request limit, or the request's share of the TPM when that is longer), counted after every
 * request sent. Otherwise sessions that start together fill the window in one burst, its slots
 * free together a window later, and a chat question asked meanwhile waits for the whole window;
 * spaced, the window frees a slot at a time and a foreground request waits at most for the next.
 * A background request that waited two windows goes before the foreground ones (one every two
 * windows), so a stream of foreground requests cannot starve the sessions either (one window's wait
 * is what a full window costs anyone).
 *
 * The queue is bounded (PacingQueueFull beyond), and every wait ends on its signal's abort.
 *
 * Background checks (the key check, model-list refreshes) never wait in line:
 * the user did not ask for them, so they must not spend a slot a user request
 * waits for. One goes only when nobody waits and it fits now; otherwise it is
 * skipped at once (BackgroundSkipped) and its caller makes do without it.
 */
import { TIMER_STOPPED, type Clock } from '../../base/common';
import type { AcquireOptions, PacingTag, Reservation } from './limitTypes';
import { SessionTurns } from './sessionTurns';
import type { Reserved } from './windowLedger';

/** What the queue asks of the window it paces. */
export interface PacedWindow {
  /** Drops what has left the window by `now`. */
  prune(now: number): void;
  /** The first time a request of `tokens` fits, with `extra` counted as sent too. */
  readyAt(tokens: number, now: number, extra?: readonly Reserved[]): number;
  /** Takes a request's share of the window as it is sent. */
  reserve(tokens: number): Reservation;
  /** How long a request of `tokens` takes of the window at its rate: its length over the request limit, or its share of the TPM when longer. */
  slotMs(tokens: number, now: number): number;
}

export interface PacingQueueOptions {
  clock: Clock;
  window: PacedWindow;
  /** Told when a request joins or leaves the queue, or its wait ends. */
  changed: () => void;
  /** While requests wait, how often to look again for room others made (the other windows' answers); undefined: only at the next free time. */
  pollMs: number | undefined;
  /** The window's length: a background request that waited two goes before the foreground (see STARVED_WINDOWS). */
  windowMs: number;
  /** At most this many requests wait; more are refused with PacingQueueFull. */
  maxWaiting?: number;
}

/** Enough for every session and chat of a window several times over; more means something sends in a loop. */
export const DEFAULT_MAX_WAITING = 64;

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

/** The queue already holds as many requests as it keeps: this one was not queued (nothing was sent). */
export class PacingQueueFull extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} requests already wait for the key's rate limit; this one was not queued.`);
    this.name = 'PacingQueueFull';
  }
}

interface Waiter {
  tokens: number;
  grant(reservation: Reservation): void;
  onWait: ((until: number) => void) | undefined;
  announced: number;
  foreground: boolean;
  key: string;
  queuedAt: number;
}

/** After this many windows of waiting a background request goes before the foreground: one window's wait is what a full window costs anyone. */
const STARVED_WINDOWS = 2;

/** An untagged request: the user (or another extension) waits for it. */
const FOREGROUND: PacingTag = { foreground: true, key: '' };

export class PacingQueue {
  /** In arrival order (a retry at the front); `inTurn` gives the order they go in. */
  private waiters: Waiter[] = [];
  private readonly turns = new SessionTurns();
  /** Before this, no background request goes (the spacing above): the last request's send time plus its slot, ever later. */
  private spacedUntil = -Infinity;
  /** When a background request last went ahead of the foreground for having waited STARVED_WINDOWS. */
  private lastAgedAt = -Infinity;
  /** When the first waiting request may go (finite waits only). */
  private pacedUntil: number | undefined;
  private timer: AbortController | undefined;
  private timerAt: number | undefined;
  private pumping = false;
  private pumpAgain = false;
  private readonly maxWaiting: number;

  constructor(private readonly options: PacingQueueOptions) {
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
  }

  get length(): number {
    return this.waiters.length;
  }

  /** When the first waiting request may go, if that is still ahead of `now`. */
  pacedAfter(now: number): number | undefined {
    return this.pacedUntil !== undefined && this.pacedUntil > now ? this.pacedUntil : undefined;
  }

  /** Whether the spacing lets a request of this tag go at `now` (foreground requests are never spaced). */
  spacingAllows(tag: PacingTag | undefined, now: number): boolean {
    return (tag ?? FOREGROUND).foreground || this.spacedUntil <= now;
  }

  /** A request went without waiting (the tracker's quick path): it counts in the spacing and the turns as a queued one would. */
  noteSent(tag: PacingTag | undefined, tokens: number, now: number): void {
    const { foreground, key } = tag ?? FOREGROUND;
    this.spaceAfter(tokens, now);
    if (!foreground) this.turns.served(key);
  }

  /** Queues a request of `tokens`; resolves with its reservation when it may go, rejects with the signal's reason when it aborts first, or PacingQueueFull. */
  wait(tokens: number, signal: AbortSignal, options: AcquireOptions): Promise<Reservation> {
    return new Promise<Reservation>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      if (options.background) return this.goNowOrSkip(tokens, resolve, reject);
      if (this.waiters.length >= this.maxWaiting) return reject(new PacingQueueFull(this.waiters.length));
      const onAbort = () => {
        this.waiters = this.waiters.filter((queued) => queued !== waiter);
        reject(signal.reason);
        this.options.changed();
      };
      const waiter = this.waiterOf(tokens, options, (reservation) => {
        signal.removeEventListener('abort', onAbort);
        resolve(reservation);
      });
      signal.addEventListener('abort', onAbort, { once: true });
      if (options.front) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
      this.options.changed();
    });
  }

  private waiterOf(tokens: number, options: AcquireOptions, grant: (reservation: Reservation) => void): Waiter {
    const { foreground, key } = options.tag ?? FOREGROUND;
    return {
      tokens: Math.max(0, tokens),
      grant,
      onWait: options.onWait,
      announced: 0,
      foreground,
      key,
      queuedAt: this.options.clock.now(),
    };
  }

  /** A background request: its reservation when nobody waits and it fits now, else BackgroundSkipped with when it might fit. */
  private goNowOrSkip(tokens: number, resolve: (reservation: Reservation) => void, reject: (reason: unknown) => void): void {
    const { clock, window } = this.options;
    const now = clock.now();
    window.prune(now);
    const readyAt = window.readyAt(Math.max(0, tokens), now);
    if (this.waiters.length > 0) reject(new BackgroundSkipped('a request you made is waiting for the rate limit', this.pacedAfter(now)));
    else if (readyAt > now) reject(new BackgroundSkipped("the key's rate limit window is full", Number.isFinite(readyAt) ? readyAt : undefined));
    else {
      resolve(window.reserve(Math.max(0, tokens)));
      this.options.changed();
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
    const now = this.options.clock.now();
    this.options.window.prune(now);
    let head: { tokens: number; readyAt: number; windowFull: boolean } | undefined;
    let secondWaits = false;
    const granted = new Set<Waiter>();
    for (const waiter of this.inTurn(now)) {
      if (secondWaits) break;
      const readyAt = this.readyAt(waiter, now);
      if (readyAt <= now && (head === undefined || this.keepsTime(head, waiter.tokens, now))) {
        this.grant(waiter, now);
        granted.add(waiter);
        continue;
      }
      if (head === undefined) head = { tokens: waiter.tokens, readyAt, windowFull: this.options.window.readyAt(waiter.tokens, now) > now };
      else secondWaits = true;
    }
    this.waiters = this.waiters.filter((waiter) => !granted.has(waiter));
    // The status bar counts down a wait for the window; a session's wait for its slot alone (at most a slot) is not shown.
    this.pacedUntil = head && head.windowFull && Number.isFinite(head.readyAt) ? head.readyAt : undefined;
    this.announce(now);
    this.setTimer(this.nextLook(now));
  }

  /** When to look again: the first waiting request's time, the spacing's end while a session waits, and the poll for other windows' answers. */
  private nextLook(now: number): number | undefined {
    if (this.waiters.length === 0) return undefined;
    const spacing = this.spacedUntil > now && this.waiters.some((waiter) => !waiter.foreground) ? this.spacedUntil : undefined;
    // Other windows' answers are not pushed here: while requests wait, they are looked for now and then.
    const poll = this.options.pollMs !== undefined ? now + this.options.pollMs : undefined;
    const times = [this.pacedUntil, spacing, poll].filter((at): at is number => at !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /**
   * The waiting requests in the order they go: a background request that waited STARVED_WINDOWS (one
   * every STARVED_WINDOWS), the foreground in arrival order (retries first), then the background sessions' turns.
   */
  private inTurn(now: number): Waiter[] {
    const foreground = this.waiters.filter((waiter) => waiter.foreground);
    const background = this.turns.order(this.waiters.filter((waiter) => !waiter.foreground));
    const aged = this.agedBackground(background, now);
    if (aged === undefined) return [...foreground, ...background];
    return [aged, ...foreground, ...background.filter((waiter) => waiter !== aged)];
  }

  /** The longest-waiting background request once it waited STARVED_WINDOWS, unless one went ahead that way within as long. */
  private agedBackground(background: readonly Waiter[], now: number): Waiter | undefined {
    const starvedMs = STARVED_WINDOWS * this.options.windowMs;
    if (now - this.lastAgedAt < starvedMs) return undefined;
    let oldest: Waiter | undefined;
    for (const waiter of background) if (!oldest || waiter.queuedAt < oldest.queuedAt) oldest = waiter;
    return oldest && now - oldest.queuedAt >= starvedMs ? oldest : undefined;
  }

  /** When `waiter` fits the window, and for a background one, the spacing too. */
  private readyAt(waiter: Waiter, now: number): number {
    const fits = this.options.window.readyAt(waiter.tokens, now);
    return waiter.foreground ? fits : Math.max(fits, this.spacedUntil);
  }

  private grant(waiter: Waiter, now: number): void {
    if (!waiter.foreground) {
      this.turns.served(waiter.key);
      if (now - waiter.queuedAt >= STARVED_WINDOWS * this.options.windowMs) this.lastAgedAt = now;
    }
    this.spaceAfter(waiter.tokens, now);
    waiter.grant(this.options.window.reserve(waiter.tokens));
  }

  /** A request of `tokens` went at `now`: the next background one goes a slot later. */
  private spaceAfter(tokens: number, now: number): void {
    this.spacedUntil = Math.max(this.spacedUntil, now) + this.options.window.slotMs(tokens, now);
  }

  /** Whether one more request of `tokens` sent now leaves the first waiting request's time where it is. */
  private keepsTime(head: { tokens: number; readyAt: number }, tokens: number, now: number): boolean {
    if (!Number.isFinite(head.readyAt)) return false;
    const candidate: Reserved = { requests: 1, tokens, sentAt: now, answeredAt: now, inHeaders: false };
    return this.options.window.readyAt(head.tokens, now, [candidate]) <= head.readyAt;
  }

  /**
   * Tells each waiting request when it should go: the time it would fit if every request before it
   * went at its own time (counted from now, so a little late rather than early), a background one
   * also a slot after the one before it. A background request that waits only for its slot (the window
   * has room) is not told: a wait of at most a slot on every request of a session would be news of nothing.
   */
  private announce(now: number): void {
    const { window } = this.options;
    const planned: Reserved[] = [];
    let spaced = this.spacedUntil;
    for (const waiter of this.inTurn(now)) {
      const fits = window.readyAt(waiter.tokens, now, planned);
      const until = waiter.foreground ? fits : Math.max(fits, spaced);
      if (!Number.isFinite(until)) break;
      planned.push({ requests: 1, tokens: waiter.tokens, sentAt: until, answeredAt: until, inHeaders: false });
      spaced = Math.max(spaced, until) + window.slotMs(waiter.tokens, now);
      const windowFull = window.readyAt(waiter.tokens, now) > now;
      if (until > waiter.announced && until > now && (waiter.foreground || windowFull)) {
        waiter.announced = until;
        waiter.onWait?.(until);
      }
    }
  }

  private setTimer(at: number | undefined): void {
    if (at === this.timerAt) return;
    const { clock } = this.options;
    this.timer?.abort(TIMER_STOPPED);
    this.timer = undefined;
    this.timerAt = at;
    if (at === undefined) return;
    const timer = new AbortController();
    this.timer = timer;
    // The clock clamps the delay to what a timer can hold, so a far time wakes late rather than at once.
    clock.sleep(at - clock.now(), timer.signal).then(
      () => {
        if (this.timer !== timer) return;
        this.timer = undefined;
        this.timerAt = undefined;
        this.options.changed();
      },
      () => undefined,
    );
  }
}
