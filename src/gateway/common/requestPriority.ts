/**
 * Which requests the user waits for, so the pacing queue lets them go before the agent sessions nobody
 * watches (rateLimits/common/pacingQueue.ts says how sessions share the key). The watched sessions are
 * told from the top: the session a chat turn runs (while it runs), and the one last focused in the
 * Sessions view.
 */
import type { PacingTag } from '../../rateLimits/common';
import type { RequestOrigin } from '../../usage/common';

export class WatchedSessions {
  private focused: string | undefined;
  /** The sessions a chat turn shows now, with how many turns show each. */
  private readonly shown = new Map<string, number>();

  /** The user focused this session (the Sessions view's selection), or none. */
  focus(sessionId: string | undefined): void {
    this.focused = sessionId;
  }

  /** A chat turn shows this session's run until the handle is disposed. */
  show(sessionId: string): { dispose(): void } {
    this.shown.set(sessionId, (this.shown.get(sessionId) ?? 0) + 1);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        const left = (this.shown.get(sessionId) ?? 1) - 1;
        if (left > 0) this.shown.set(sessionId, left);
        else this.shown.delete(sessionId);
      },
    };
  }

  isWatched(sessionId: string): boolean {
    return sessionId === this.focused || this.shown.has(sessionId);
  }
}

/**
 * A request's class and share in the pacing queue. Without `watched` (a client nobody tells which session
 * is shown) every request is foreground, as before sessions shared the key. A chat question, an inline
 * edit and another extension's request are foreground; an agent session's is foreground while watched,
 * else background in the session's own share.
 */
export function pacingTagOf(origin: RequestOrigin | undefined, watched: WatchedSessions | undefined): PacingTag {
  const surface = origin?.surface ?? 'lm';
  const sessionId = origin?.sessionId;
  if (surface !== 'agent' || sessionId === undefined) return { foreground: true, key: surface };
  return { foreground: watched === undefined || watched.isWatched(sessionId), key: sessionId };
}
