/**
 * How long the agent waits for a command typed into its terminal, and what it
 * does when the command overruns or the user presses Stop. Ctrl-C comes first;
 * a program that ignores it (a pager such as `less`) would otherwise keep the
 * terminal and take every later command as its input, so when the command has
 * not ended shortly after Ctrl-C the terminal is abandoned. Kept free of `vscode`
 * so it can be tested; its timers go through the Clock port for the same reason.
 */

import type { Clock } from '../../base/common';

export interface ExecutionControl {
  /** Resolves when the command ends, with its exit code when known. */
  readonly ended: Promise<number | undefined>;
  /** Sends Ctrl-C to the terminal. */
  interrupt(): void;
  /** Closes and forgets the terminal; the next command gets a fresh one. */
  abandon(): void;
}

export interface SuperviseOptions {
  timeoutMs: number;
  /** How long a command may take to end after Ctrl-C before its terminal is abandoned. */
  graceMs: number;
  signal: AbortSignal;
  clock: Clock;
}

export interface ExecutionOutcome {
  exitCode: number | undefined;
  timedOut: boolean;
}

/**
 * Resolves when the command ends or, after a timeout, when it is interrupted or
 * abandoned. On abort it rejects at once with the signal's reason (the
 * CommandRunner contract for a stop), while Ctrl-C and, if needed, abandoning
 * the terminal still happen in the background.
 */
export function superviseExecution(control: ExecutionControl, { timeoutMs, graceMs, signal, clock }: SuperviseOptions): Promise<ExecutionOutcome> {
  return new Promise<ExecutionOutcome>((resolve, reject) => {
    let timedOut = false;
    let over = false;
    let interrupted = false;
    const timeoutTimer = new AbortController();
    const graceTimer = new AbortController();
    const end = (exitCode: number | undefined) => {
      if (over) return;
      over = true;
      timeoutTimer.abort();
      graceTimer.abort();
      signal.removeEventListener('abort', onAbort);
      // After a rejection for a stop this does nothing: a promise settles once.
      resolve({ exitCode, timedOut });
    };
    const interrupt = () => {
      if (over || interrupted) return;
      interrupted = true;
      control.interrupt();
      clock.after(
        graceMs,
        () => {
          control.abandon();
          end(undefined);
        },
        graceTimer.signal,
      );
    };
    const onAbort = () => {
      timeoutTimer.abort();
      interrupt();
      reject(signal.reason);
    };
    clock.after(
      timeoutMs,
      () => {
        timedOut = true;
        interrupt();
      },
      timeoutTimer.signal,
    );
    control.ended.then(end, () => end(undefined));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
