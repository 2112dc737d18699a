/**
 * Which sessions are running in this window, each with the controller that
 * stops it. A run claims its session synchronously, before its first await, so
 * two continues of one session (a double click, the chat and the palette at
 * once) cannot both pass the check and run the same session twice.
 */
/** Why a session paused when its window closed or reloaded under it (not the user's Stop). */
export const INTERRUPTED_REASON = 'Interrupted: the window closed or reloaded while it ran. Continue it to resume where it was.';

export class RunningSessions {
  private readonly running = new Map<string, AbortController>();

  /** A controller for a new run of `id`, or undefined when the session is already running. */
  claim(id: string): AbortController | undefined {
    if (this.running.has(id)) return undefined;
    const controller = new AbortController();
    this.running.set(id, controller);
    return controller;
  }

  /** Ends the claim of the run that holds `controller`; another run's claim on the session is left alone. */
  release(id: string, controller: AbortController): void {
    if (this.running.get(id) === controller) this.running.delete(id);
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Stops the session's run; false when it is not running. */
  stop(id: string): boolean {
    const controller = this.running.get(id);
    controller?.abort();
    return controller !== undefined;
  }

  /** Stops every run; `reason` becomes each session's status reason (the engine reads a string abort reason). */
  stopAll(reason?: string): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }
}
