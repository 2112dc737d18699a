/**
 * A run's clock: its working time (the time spent waiting for the user's
 * approvals left out), and the watch that ends the run when that time reaches
 * its budget. Apart from the engine because both are about time alone.
 */
import { AbortError } from '../../../gateway/common';
import type { Clock } from '../../../base/common';

/** A run's working time: the clock since it started, less the time spent waiting for the user's approvals. */
export class RunTimer {
  private readonly started: number;
  private waitedMs = 0;

  constructor(private readonly clock: Clock) {
    this.started = clock.now();
  }

  private waitingSince: number | undefined;

  activeMs(): number {
    const until = this.waitingSince ?? this.clock.now();
    return until - this.started - this.waitedMs;
  }

  /** The user is being asked: the run's time stands still. */
  get isWaiting(): boolean {
    return this.waitingSince !== undefined;
  }

  /** Runs `wait` (the user answering an approval) without charging its time to the run. */
  async waiting<T>(wait: () => Promise<T>): Promise<T> {
    const from = this.clock.now();
    this.waitingSince = from;
    try {
      return await wait();
    } finally {
      this.waitingSince = undefined;
      this.waitedMs += this.clock.now() - from;
    }
  }
}

/** How often the watch looks again while the user is being asked (the run's time stands still then). */
const WAITING_RECHECK_MS = 1_000;

/**
 * Aborts `overTime` once the run's active time reaches its budget, so a turn
 * or a command in progress ends then, not after it. Ends when `stop` aborts,
 * or when the clock does not keep time (a test clock whose sleeps return at once).
 */
export function watchTimeBudget(clock: Clock, timer: RunTimer, budgetMs: () => number, overTime: AbortController, stop: AbortSignal): void {
  // A timer beside the run (not a sleep of its own), re-armed until the budget is spent or the run ends.
  const check = () => {
    if (stop.aborted) return;
    const remaining = budgetMs() - timer.activeMs();
    if (remaining <= 0 && !timer.isWaiting) {
      overTime.abort(new AbortError('The run reached its time budget.'));
      return;
    }
    clock.after(timer.isWaiting ? Math.max(remaining, WAITING_RECHECK_MS) : Math.max(remaining, 1), check, stop);
  };
  check();
}
