/**
 * Virtual time for tests. `sleep` is a wait the code asked for: it is recorded
 * and passes as soon as nothing else is under way (no request on its way to the
 * server), waking sleepers in the order real time would. `after` timers
 * (watchdogs, deadlines) never move time themselves: they fire only when time
 * passes them, through a sleep or `advance`. Time starts at the real time, so
 * timestamps look real, and moves only as said here.
 */
import type { Clock, FetchLike } from '../../../src/core/ports';

interface Sleeper {
  at: number;
  wake: () => void;
}

interface Timer {
  at: number;
  onFire: () => void;
  signal: AbortSignal;
}

/** More would mean a timer re-arming itself without time moving: a bug in the code under test. */
const MAX_WAKES_PER_STEP = 10_000;

export class VirtualClock implements Clock {
  /** Sleeps too pass only through `advance`: a test moves an emulator's stream on delta by delta. */
  manual = false;

  /** Every wait asked for, in ms, in the order asked. */
  readonly sleeps: number[] = [];
  /** Called as each sleep starts, before it can pass: a test may abort here. */
  onSleep: (ms: number) => void = () => undefined;
  private time = Date.now();
  private readonly sleepers: Sleeper[] = [];
  private timers: Timer[] = [];
  private inFlight = 0;
  private drainScheduled = false;

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.onSleep(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        at: this.time + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.scheduleDrain();
    });
  }

  after(ms: number, onFire: () => void, signal: AbortSignal): void {
    if (!signal.aborted) this.timers.push({ at: this.time + Math.max(0, ms), onFire, signal });
  }

  /** Moves time on by `ms`, firing the timers and waking the sleepers due on the way, in time order. */
  advance(ms: number): void {
    this.passTo(this.time + Math.max(0, ms));
  }

  /** fetch, with time standing still while a request is on its way (an emulator given `now` counts its windows in this time). */
  readonly fetch: FetchLike = async (url, init) => {
    this.inFlight++;
    try {
      return await fetch(url, init);
    } finally {
      this.inFlight--;
      this.scheduleDrain();
    }
  };

  /** Fires the timers and wakes the sleepers due by `target`, in time order; `onlyOneSleeper` stops after the first sleeper. */
  private passTo(target: number, onlyOneSleeper = false): void {
    for (let wakes = 0; ; wakes++) {
      if (wakes >= MAX_WAKES_PER_STEP) throw new Error('VirtualClock: timers keep firing without time moving');
      this.timers = this.timers.filter((timer) => !timer.signal.aborted);
      const timer = earliest(this.timers);
      const sleeper = earliest(this.sleepers);
      const next = timer && (!sleeper || timer.at <= sleeper.at) ? timer : sleeper;
      if (!next || next.at > target) break;
      this.time = Math.max(this.time, next.at);
      if (next === timer) {
        this.timers.splice(this.timers.indexOf(timer), 1);
        timer.onFire();
      } else if (sleeper) {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        sleeper.wake();
        if (onlyOneSleeper) return;
      }
    }
    this.time = Math.max(this.time, target);
  }

  /**
   * Wakes the earliest sleeper once nothing is on its way to the server, one per
   * two macrotask turns: as with real timers, a woken waiter has sent its request
   * (and counted it) before the next one wakes and looks at the limits.
   */
  private scheduleDrain(): void {
    if (this.drainScheduled || this.manual) return;
    this.drainScheduled = true;
    setImmediate(() =>
      setImmediate(() => {
        this.drainScheduled = false;
        const next = earliest(this.sleepers);
        if (!next || this.inFlight > 0) return;
        this.passTo(next.at, true);
        if (this.sleepers.length > 0) this.scheduleDrain();
      }),
    );
  }
}

function earliest<T extends { at: number }>(items: readonly T[]): T | undefined {
  let found: T | undefined;
  for (const item of items) if (!found || item.at < found.at) found = item;
  return found;
}
