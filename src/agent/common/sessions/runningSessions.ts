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

  /**
   * Runs `work` holding the session's claim. The claim is taken synchronously,
   * before any await, so a second call for the same session fails with `busy`
   * instead of racing the first; it is released only if it is still this call's.
   */
  async exclusively<T>(id: string, busy: string, work: (controller: AbortController) => Promise<T>): Promise<T> {
    const controller = this.claim(id);
    if (!controller) throw new Error(busy);
    try {
      return await work(controller);
    } finally {
      this.release(id, controller);
    }
  }

  /** Stops every run; `reason` becomes each session's status reason (the engine reads a string abort reason). */
  stopAll(reason?: string): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }
}

/** A session a closed window left running or waiting, paused at startup. */
export interface InterruptedSession {
  id: string;
  title: string;
  /** It waited for the user's approval when the window closed. */
  wasWaiting: boolean;
  /** When it was saved paused: a session is told about once per interruption. */
  updatedAt: number;
}

/**
 * Of the sessions paused as interrupted, those not told about yet (`told`: the id → updatedAt of each told before), and
 * what to remember after telling them (bounded: the newest 100).
 */
export function untoldInterrupted(
  paused: readonly InterruptedSession[],
  told: Readonly<Record<string, number>>,
): { untold: InterruptedSession[]; remember: Record<string, number> } {
  const untold = paused.filter((session) => told[session.id] !== session.updatedAt);
  const entries = [...Object.entries(told).filter(([id]) => paused.some((session) => session.id === id)), ...untold.map((s) => [s.id, s.updatedAt] as const)];
  return { untold, remember: Object.fromEntries(entries.slice(-100)) };
}

/**
 * What the reopened window says about the sessions it paused (issue 39, item 6): without it the session sat paused in
 * the Sessions view, with no badge, no toast and an empty Chat view. Undefined when none was.
 */
export function interruptedNotice(paused: readonly InterruptedSession[]): { message: string; continueId?: string } | undefined {
  if (paused.length === 0) return undefined;
  if (paused.length === 1) {
    const [one] = paused;
    const was = one.wasWaiting ? 'was waiting for your approval' : 'was running';
    return { message: `Gateway agent: "${one.title}" ${was} when the window closed. It is paused; Continue resumes it where it was.`, continueId: one.id };
  }
  const waiting = paused.filter((session) => session.wasWaiting).length;
  const which = waiting > 0 ? ` (${waiting} waiting for your approval)` : '';
  return {
    message: `Gateway agent: ${paused.length} sessions${which} were interrupted when the window closed. They are paused: continue them from the Sessions view.`,
  };
}
