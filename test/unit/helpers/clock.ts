/**
 * Virtual time for tests: the one Clock tests hand the code under test (and the emulator, through its
 * `clock` or `now` option), so waits of minutes pass in milliseconds and nothing sleeps in real time.
 *
 * `sleep` is a wait the code asked for: it is recorded (`sleeps`) and, unless the clock is manual, passes
 * by itself as soon as nothing is under way (no request on its way through `fetch`, no work in `hold`),
 * waking sleepers in the order real time would. `after` timers (watchdogs, deadlines) never move time
 * themselves: they fire only when time passes them, through a sleep or `advance`. A manual clock moves
 * only through `advance`: a test moves an emulator's stream on delta by delta, or a budget past its end.
 */
import { timerDelay, type Clock } from '../../../src/base/common/ports';
import type { FetchLike } from '../../../src/gateway/common/gatewayPorts';
import { createNodeHttpFetch } from '../../../src/gateway/node';

/** The extension's own HTTP exchange (gateway/node), shared by every test's clock: its idle connections never hold the process open. */
const extensionFetch = createNodeHttpFetch().fetch;

export interface VirtualClockOptions {
  /** Where time starts, in ms since the epoch. Default: the real time now, so timestamps look real. */
  start?: number;
  /** Waits pass only through `advance`. */
  manual?: boolean;
  /**
   * Sleepers due at the same instant wake together, as concurrent callers woken by one window's end do
   * (the burst tests need them to meet the gateway at once); otherwise one at a time, each once the
   * request the one before sent is answered.
   */
  wakeTogether?: boolean;
}

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
  /** Every wait asked for, in ms, in the order asked. */
  readonly sleeps: number[] = [];
  /** Called as each sleep starts, before it can pass: a test may abort here, or move a manual clock on. */
  onSleep: (ms: number) => void = () => undefined;
  /** Waits pass only through `advance` (a test may switch this for a step and back). */
  manual: boolean;
  private readonly wakeTogether: boolean;
  private time: number;
  private sleepers: Sleeper[] = [];
  private timers: Timer[] = [];
  private inFlight = 0;
  private passScheduled = false;

  constructor(options: VirtualClockOptions = {}) {
    this.time = options.start ?? Date.now();
    this.manual = options.manual ?? false;
    this.wakeTogether = options.wakeTogether ?? false;
  }

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
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        at: this.time + timerDelay(ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.schedulePass();
    });
  }

  after(ms: number, onFire: () => void, signal: AbortSignal): void {
    if (!signal.aborted) this.timers.push({ at: this.time + timerDelay(ms), onFire, signal });
  }

  /** Moves time on by `ms`, firing the timers and waking the sleepers due on the way, in time order. */
  advance(ms: number): void {
    this.passTo(this.time + Math.max(0, ms));
  }

  /** How many sleeps and timers are waiting. */
  get waiting(): number {
    return this.sleepers.length + this.timers.filter((t) => !t.signal.aborted).length;
  }

  /** Time stands still while `work` (real I/O such as a shared file's update) runs. */
  async hold<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work;
    } finally {
      this.inFlight--;
      this.schedulePass();
    }
  }

  /**
   * The extension's real HTTP exchange, time standing still until the answer's headers are in (an emulator given
   * this clock counts its windows in this time; its stream's delays may need time to move, so the body is not waited for).
   */
  readonly fetch: FetchLike = (url, init) => this.hold(extensionFetch(url, init));

  /**
   * Real fetch, time standing still until the whole answer is in. (Holding only until the headers let time
   * move while a loaded machine was still reading the body, so a request settled a window late.) Not for
   * streams whose delays run on this clock.
   */
  readonly fetchWhole = (url: string, init: RequestInit): Promise<Response> =>
    this.hold(
      fetch(url, init).then(async (response) => {
        const body = await response.arrayBuffer();
        return new Response(body.byteLength > 0 ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
      }),
    );

  /** Fires the timers and wakes the sleepers due by `target`, in time order; `oneSleeper` stops after the first sleeper. */
  private passTo(target: number, oneSleeper = false): void {
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
        if (oneSleeper) return;
      }
    }
    this.time = Math.max(this.time, target);
  }

  /**
   * Lets time pass to the earliest sleeper once nothing is under way, two macrotask turns on: as with real
   * timers, a woken waiter has sent its request (and counted it) before the next one wakes and looks at the
   * limits.
   */
  private schedulePass(): void {
    if (this.passScheduled || this.manual) return;
    this.passScheduled = true;
    setImmediate(() =>
      setImmediate(() => {
        this.passScheduled = false;
        const next = earliest(this.sleepers);
        if (!next || this.inFlight > 0) return;
        this.passTo(next.at, !this.wakeTogether);
        if (this.sleepers.length > 0) this.schedulePass();
      }),
    );
  }
}

function earliest<T extends { at: number }>(items: readonly T[]): T | undefined {
  let found: T | undefined;
  for (const item of items) if (!found || item.at < found.at) found = item;
  return found;
}
