/**
 * The approvals the agent is waiting for, each kept with the folder of the
 * session that asked. In a multi-root window sessions run in different
 * folders: the diff shown before an edit must compare against the file in the
 * asking session's folder, not the first folder's file of the same path.
 */
import type { ApprovalRequest, Approver } from '../../base/common';

export interface PendingApproval {
  request: ApprovalRequest;
  /** The asking session's workspace folder (a URI string). */
  rootUri: string;
}

interface Waiting extends PendingApproval {
  answer: (approved: boolean) => void;
}

export class PendingApprovals {
  private readonly pending = new Map<string, Waiting>();

  /** `onChange` hears of every approval that starts or ends waiting. */
  constructor(private readonly onChange: () => void = () => undefined) {}

  /** An Approver for one session's engine: its requests are kept with `rootUri`; `onAsked` presents each. */
  forSession(rootUri: string, onAsked: (approval: PendingApproval) => void): Approver {
    return { approve: (request, signal) => this.wait({ request, rootUri }, signal, onAsked) };
  }

  /** Answers a waiting approval; false when there is none (already answered, or the session stopped). */
  respond(sessionId: string, callId: string, approved: boolean): boolean {
    const waiting = this.pending.get(keyOf(sessionId, callId));
    if (!waiting) return false;
    waiting.answer(approved);
    return true;
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
    for (const waiting of [...this.pending.values()]) waiting.answer(false);
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
      const onAbort = () => answer(false);
      if (signal.aborted) {
        resolve(false);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, { ...approval, answer });
      this.onChange();
      onAsked(approval);
    });
  }
}

/** The key of a pending approval; also carried in the proposed document's URI. */
export function keyOf(sessionId: string, callId: string): string {
  return `${sessionId}:${callId}`;
}
