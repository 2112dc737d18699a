/** Virtual time: `sleep` resolves only when the test moves the clock past it with `advance`. */
import type { Clock } from '../../../src/core/ports';

export class ManualClock implements Clock {
  private time = 0;
  private sleepers: { until: number; resolve: () => void }[] = [];

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
      signal?.addEventListener('abort', () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal.reason);
      }, { once: true });
    });
  }

  /** Moves time on, waking every sleep that is due. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const sleeper of due) sleeper.resolve();
  }

  /** How many sleeps are waiting. */
  get waiting(): number {
    return this.sleepers.length;
  }
}
