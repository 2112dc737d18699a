/** Virtual time: `sleep` resolves only when the test moves the clock past it with `advance`. */
import type { Clock } from '../../../src/core/ports';

export class ManualClock implements Clock {
  private time = 0;
  private sleepers: { until: number; resolve: () => void }[] = [];
  private timers: { until: number; onFire: () => void; signal: AbortSignal }[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper = { until: this.time + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  after(ms: number, onFire: () => void, signal: AbortSignal): void {
    if (!signal.aborted) this.timers.push({ until: this.time + Math.max(0, ms), onFire, signal });
  }

  /** Moves time on, waking every sleep and firing every timer that is due (a timer re-armed while firing waits for the next advance). */
  advance(ms: number): void {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const sleeper of due) sleeper.resolve();
    const timers = this.timers.filter((t) => t.until <= this.time);
    this.timers = this.timers.filter((t) => t.until > this.time);
    for (const timer of timers) if (!timer.signal.aborted) timer.onFire();
  }

  /** How many sleeps and timers are waiting. */
  get waiting(): number {
    return this.sleepers.length + this.timers.filter((t) => !t.signal.aborted).length;
  }
}
