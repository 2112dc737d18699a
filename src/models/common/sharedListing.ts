/**
 * One request shared by every caller that asks while it runs (the model list:
 * the status bar, the pickers and @gateway all want it at once), kept once it
 * succeeds. The request runs on its own signal, never a caller's: a caller that
 * gives up (a closed picker, the status bar's timeout) stops waiting for it,
 * and nobody else notices.
 */
import { AbortError } from '../../gateway/common';
import type { Clock } from '../../base/common';

interface Run<T> {
  result: Promise<T>;
  /** Aborted only by invalidate() and dispose(). */
  controller: AbortController;
}

export class SharedListing<T> {
  private current: Run<T> | undefined;
  private failedAt = Number.NEGATIVE_INFINITY;
  private lastFailure: unknown;
  private disposed = false;

  constructor(
    /** `asked`: a caller asked for a fresh result (a user's refresh), not just for the list. */
    private readonly request: (signal: AbortSignal, asked: boolean) => Promise<T>,
    /** Told each result that is still current when it arrives. */
    private readonly onResult: (value: T) => void,
    private readonly clock: Clock,
    /** A failed request is not made again for this long, so pickers do not hammer a refusing gateway. */
    private readonly failurePauseMs: number,
  ) {}

  /** The shared result; rejects with AbortError only when `signal` aborts (or after dispose). */
  async get(signal: AbortSignal, options: { refresh?: boolean } = {}): Promise<T> {
    let refresh = options.refresh ?? false;
    for (;;) {
      if (signal.aborted || this.disposed) throw new AbortError();
      const run = this.runFor(refresh);
      try {
        return await untilAborted(run.result, signal);
      } catch (error) {
        // invalidate() stopped the run this caller waited for: the caller still wants a list, so it asks again.
        if (!run.controller.signal.aborted || signal.aborted || this.disposed) throw error;
        refresh = false;
      }
    }
  }

  /** Takes `value` as the current result, as if a request had just given it (a key check listed the models already). */
  seed(value: T): void {
    this.invalidate();
    this.current = { controller: new AbortController(), result: Promise.resolve(value) };
    this.onResult(value);
  }

  /** Drops the result (the key or the base URL changed) and stops a request still running for the old one. */
  invalidate(): void {
    this.current?.controller.abort();
    this.current = undefined;
    this.failedAt = Number.NEGATIVE_INFINITY;
  }

  dispose(): void {
    this.disposed = true;
    this.invalidate();
  }

  private runFor(refresh: boolean): Run<T> {
    if (!refresh && this.current) return this.current;
    if (!refresh && this.clock.now() - this.failedAt < this.failurePauseMs) throw this.lastFailure;
    return this.start(refresh);
  }

  private start(refresh: boolean): Run<T> {
    const controller = new AbortController();
    const run: Run<T> = { controller, result: this.request(controller.signal, refresh) };
    this.current = run;
    run.result.then(
      (value) => {
        if (this.current !== run) return;
        this.failedAt = Number.NEGATIVE_INFINITY;
        this.onResult(value);
      },
      (error: unknown) => {
        // A failure is not kept: after the pause the next caller asks again.
        if (this.current === run) this.current = undefined;
        // Our own abort (invalidate, dispose) says nothing about the gateway: it must not pause the next callers.
        if (controller.signal.aborted) return;
        this.failedAt = this.clock.now();
        this.lastFailure = error;
      },
    );
    return run;
  }
}

/** `promise`, or AbortError as soon as `signal` aborts (the promise itself runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
