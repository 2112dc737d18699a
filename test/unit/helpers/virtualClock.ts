/**
 * Virtual time for pacing tests and the pacing bench: `sleep` does not wait in real
 * time; once nothing is in flight, time jumps to the earliest sleeper's end. The
 * emulator's rate window reads the same clock (its `now` option), so windows of
 * seconds pass in milliseconds, and a request's answer arrives at the virtual
 * instant it was sent.
 */
import { timerDelay, type Clock, type FetchLike } from '../../../src/core/ports';

interface Sleeper {
  at: number;
  resolve(): void;
}

export class VirtualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  /** `after` timers: they fire as time passes them, and never move time themselves. */
  private timers: { at: number; onFire: () => void; signal: AbortSignal }[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Every delay asked of `sleep`, in order. */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
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
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.schedule();
    });
  }

  after(ms: number, onFire: () => void, signal: AbortSignal): void {
    if (!signal.aborted) this.timers.push({ at: this.time + timerDelay(ms), onFire, signal });
  }

  /**
   * Real fetch; virtual time stands still until the whole answer is in. (Holding only until the
   * headers let time move while a loaded machine was still reading the body, so a request settled
   * a window late.) The tests that use this clock make no streaming requests.
   */
  readonly fetch: FetchLike = (url, init) =>
    this.hold(
      fetch(url, init).then(async (response) => {
        const body = await response.arrayBuffer();
        return new Response(body.byteLength > 0 ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
      }),
    );

  /** Virtual time stands still while `work` (real I/O such as a shared file's update) runs. */
  async hold<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work;
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A few real milliseconds let answers that just arrived be read and settled before time moves.
    setTimeout(() => this.advance(), 3);
  }

  private advance(): void {
    this.scheduled = false;
    if (this.inFlight > 0 || this.sleepers.length === 0) return;
    const next = Math.min(...this.sleepers.map((s) => s.at));
    if (next > this.time) this.time = next;
    const firing = this.timers.filter((t) => t.at <= this.time && !t.signal.aborted);
    this.timers = this.timers.filter((t) => t.at > this.time && !t.signal.aborted);
    for (const timer of firing) timer.onFire();
    const due = this.sleepers.filter((s) => s.at <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.at > this.time);
    for (const sleeper of due) sleeper.resolve();
    if (this.sleepers.length > 0) this.schedule();
  }
}
