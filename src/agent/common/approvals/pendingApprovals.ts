/**
 * The approvals the agent is waiting for, each kept with the folder of the
 * session that asked. In a multi-root window sessions run in different
 * folders: the diff shown before an edit must compare against the file in the
 * asking session's folder, not the first folder's file of the same path.
 */
import type { ApprovalRequest, Approver } from '../../../sessionModel/common';

export interface PendingApproval {
  request: ApprovalRequest;
  /** The asking session's workspace folder (a URI string). */
  rootUri: string;
}

interface Waiting extends PendingApproval {
  answer: (approved: boolean) => void;
}

/** How an approval stopped waiting: the user's answer, or the session stopping (which denies it). */
export type ApprovalOutcome = 'approved' | 'denied' | 'stopped';

/** An approval that no longer waits, and how it ended: what a stale Approve / Deny button is told. */
export interface AnsweredApproval {
  request: ApprovalRequest;
  outcome: ApprovalOutcome;
}

/** How many ended approvals are remembered for stale buttons (the newest; older ones get the general message). */
export const REMEMBERED_ANSWERS = 200;

export class PendingApprovals {
  private readonly pending = new Map<string, Waiting>();
  private readonly answered = new Map<string, AnsweredApproval>();

  /**
   * `onChange` hears of every approval that starts or ends waiting; `onEnded` of each
   * one that ended, with how (the chat writes the answer under the approval's buttons).
   */
  constructor(
    private readonly onChange: () => void = () => undefined,
    private readonly onEnded: (ended: AnsweredApproval) => void = () => undefined,
  ) {}

  /** An Approver for one session's engine: its requests are kept with `rootUri`; `onAsked` presents each. */
  forSession(rootUri: string, onAsked: (approval: PendingApproval) => void): Approver {
    return { approve: (request, signal) => this.wait({ request, rootUri }, signal, onAsked) };
  }

  /** Answers a waiting approval; false when there is none (already answered, or the session stopped). */
  respond(sessionId: string, callId: string, approved: boolean): boolean {
    const waiting = this.pending.get(keyOf(sessionId, callId));
    if (!waiting) return false;
    this.end(waiting, approved ? 'approved' : 'denied');
    return true;
  }

  /** How an approval that no longer waits ended; undefined when it is still waiting or long forgotten. */
  ended(sessionId: string, callId: string): AnsweredApproval | undefined {
    return this.answered.get(keyOf(sessionId, callId));
  }

  waiting(sessionId?: string): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request).filter((r) => sessionId === undefined || r.sessionId === sessionId);
  }

  /** The waiting approval with the folder its file is in; undefined once answered. */
  find(sessionId: string, callId: string): PendingApproval | undefined {
    const waiting = this.pending.get(keyOf(sessionId, callId));
    return waiting && { request: waiting.request, rootUri: waiting.rootUri };
  }

  /** Denies everything still waiting (the extension is going away). */
  denyAll(): void {
    for (const waiting of [...this.pending.values()]) this.end(waiting, 'stopped');
  }

  private end(waiting: Waiting, outcome: ApprovalOutcome): void {
    const key = keyOf(waiting.request.sessionId, waiting.request.callId);
    this.answered.delete(key);
    this.answered.set(key, { request: waiting.request, outcome });
    // A Map iterates in insertion order: the first key is the oldest answer.
    const oldest = this.answered.keys().next();
    if (this.answered.size > REMEMBERED_ANSWERS && !oldest.done) this.answered.delete(oldest.value);
    waiting.answer(outcome === 'approved');
    this.onEnded({ request: waiting.request, outcome });
  }

  private wait(approval: PendingApproval, signal: AbortSignal, onAsked: (approval: PendingApproval) => void): Promise<boolean> {
    const key = keyOf(approval.request.sessionId, approval.request.callId);
    return new Promise<boolean>((resolve) => {
      const answer = (approved: boolean) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(key);
        this.onChange();
        resolve(approved);
      };
      const waiting: Waiting = { ...approval, answer };
      const onAbort = () => this.end(waiting, 'stopped');
      if (signal.aborted) {
        resolve(false);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, waiting);
      this.onChange();
      onAsked(approval);
    });
  }
}

/** The key of a pending approval; also carried in the proposed document's URI. */
export function keyOf(sessionId: string, callId: string): string {
  return `${sessionId}:${callId}`;
}
