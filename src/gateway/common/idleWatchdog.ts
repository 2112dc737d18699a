import type { Clock } from '../../base/common';

/**
 * Fires when nothing happened for `timeoutMs`, until `until` aborts. One timer re-armed lazily instead
 * of one per chunk, so a fast stream pays only a timestamp write per chunk. It stops with the signal of
 * the exchange it watches rather than one of its own: a signal and its listener cost a request more
 * than the rest of the watchdog. Time comes from the client's Clock, so tests pass it without waiting.
 */
export interface IdleWatchdogOptions {
  clock: Clock;
  timeoutMs: number;
  onIdle: () => void;
  /** The watchdog stops when this aborts (the exchange's own signal: released, cancelled or timed out). */
  until: AbortSignal;
}

export class IdleWatchdog {
  private lastActivity: number;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly onIdle: () => void;
  private readonly until: AbortSignal;

  constructor(options: IdleWatchdogOptions) {
    ({ clock: this.clock, timeoutMs: this.timeoutMs, onIdle: this.onIdle, until: this.until } = options);
    this.lastActivity = this.clock.now();
    this.arm(this.timeoutMs);
  }

  touch(): void {
    this.lastActivity = this.clock.now();
  }

  private arm(ms: number): void {
    this.clock.after(
      ms,
      () => {
        const idleFor = this.clock.now() - this.lastActivity;
        if (idleFor >= this.timeoutMs) this.onIdle();
        else this.arm(this.timeoutMs - idleFor);
      },
      this.until,
    );
  }
}
