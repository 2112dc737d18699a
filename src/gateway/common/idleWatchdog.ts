import type { Clock } from '../../base/common';

/**
 * Fires when nothing happened for `timeoutMs`. One timer re-armed lazily instead
 * of one per chunk, so a fast stream pays only a timestamp write per chunk.
 * Time comes from the client's Clock, so tests pass it without waiting.
 */
export class IdleWatchdog {
  private lastActivity: number;
  private readonly stopped = new AbortController();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.lastActivity = clock.now();
    this.arm(timeoutMs);
  }

  touch(): void {
    this.lastActivity = this.clock.now();
  }

  stop(): void {
    // With a reason: abort() without one makes a DOMException, whose stack trace costs more than the rest of a stop.
    this.stopped.abort(STOPPED);
  }

  private arm(ms: number): void {
    this.clock.after(
      ms,
      () => {
        const idleFor = this.clock.now() - this.lastActivity;
        if (idleFor >= this.timeoutMs) this.onIdle();
        else this.arm(this.timeoutMs - idleFor);
      },
      this.stopped.signal,
    );
  }
}

/** The reason the watchdog's timer is cancelled with; nobody reads it. */
const STOPPED = 'stopped';
