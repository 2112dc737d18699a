/**
 * What a chat turn the user stopped says. Once Stop is pressed VS Code drops everything the turn
 * still writes to its stream, and keeps only the result the handler returns within a second of the
 * Stop (its `errorDetails` and `metadata`, then the followups). VS Code (1.139) does not draw a stopped
 * turn's `errorDetails` either: the followups are all it shows, so their labels say the turn stopped
 * (the UI scenario i39-stopped). The message stays in the result for the chat's history and other clients.
 */
import type { Clock } from '../../base/common';
import type { AgentSessionState } from '../../sessionModel/common';
import { counted } from '../../base/common';

/** How long a stopped turn waits for its run to settle: VS Code keeps a result returned within 1 s of the Stop. */
export const STOP_GRACE_MS = 600;

/** The last line of a `@gateway` answer stopped before its end. */
export const STOPPED_ANSWER = 'Stopped before the answer was complete. Retry (below) asks again.';

/** The followup that continues a stopped session in the same conversation (a follow-up message continues it). */
export const CONTINUE_FOLLOWUP = { prompt: 'Continue', label: 'Stopped · Continue the session', command: 'agent' } as const;

/** The followup of an answer stopped before its end: the only place VS Code shows that it stopped. */
export const RETRY_STOPPED_LABEL = 'Stopped before the end · Retry';

/** What a stopped agent turn says: the session's state as the Sessions view shows it, what it did so far, and the way on. */
export function stoppedRunText(state: Pick<AgentSessionState, 'status' | 'turns' | 'originals' | 'commandsRun'>, settled: boolean): string {
  const files = state.originals.map((original) => original.path);
  const done = `${counted(state.turns, 'turn')}; files changed: ${files.length > 0 ? files.join(', ') : 'none'}`;
  const commands = state.commandsRun.length > 0 ? `; commands run: ${state.commandsRun.length}` : '';
  if (!settled) return `Stopping: the session pauses once its current step ends (so far ${done}${commands}). Continue (below) goes on from there.`;
  const status = state.status.replace('_', ' ');
  return `Stopped: the session is ${status} after ${done}${commands}. Continue (below) goes on from here.`;
}

/** The stopped line when the session's state could not be read (its run had not yet saved it). */
export const STOPPED_RUN_UNKNOWN = 'Stopped: the session pauses once its current step ends. Continue it from the Agent Sessions view.';

/**
 * `work`'s outcome, waiting no longer than `graceMs` once `signal` aborts: `settled` false when it
 * took longer. A rejection of `work` before then rejects.
 */
export function settledWithinStop<T>(
  work: Promise<T>,
  signal: AbortSignal,
  clock: Clock,
  graceMs: number,
): Promise<{ settled: true; value: T } | { settled: false }> {
  return new Promise((resolve, reject) => {
    const stopTimer = new AbortController();
    const late = () => clock.after(graceMs, () => resolve({ settled: false }), stopTimer.signal);
    if (signal.aborted) late();
    else signal.addEventListener('abort', late, { once: true });
    work
      .then(
        (value) => resolve({ settled: true, value }),
        (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        stopTimer.abort();
        signal.removeEventListener('abort', late);
      });
  });
}
