/**
 * The answers to a chat turn's approvals, written under each approval when it comes
 * (split out of agentTurn.ts).
 */
import * as vscode from 'vscode';
import { endedMarkdown } from '../../agent/common';
import { type ApprovalRequest } from '../../sessionModel/common';
import type { AgentSessions } from '../../agent/vscode';

/**
 * The answers to this turn's approvals, each written under its approval when it
 * comes (from these buttons, the Sessions view, the status bar or the palette):
 * the chat cannot change buttons it has rendered, so the answer is a new line.
 */
export class AnswersInTurn implements vscode.Disposable {
  private readonly asked = new Set<string>();
  private readonly written = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(sessions: AgentSessions, stream: vscode.ChatResponseStream, beforeWriting: () => void) {
    this.subscription = sessions.approvals.onDidEnd((ended) => {
      const key = `${ended.request.sessionId}:${ended.request.callId}`;
      if (!this.asked.has(key)) return;
      this.asked.delete(key);
      // Ended by a stop: the turn's "Stopped" line says it.
      if (ended.outcome === 'stopped') return;
      beforeWriting();
      stream.markdown(`\n\n${endedMarkdown(ended)}\n\n`);
      this.written.add(ended.request.callId);
    });
  }

  awaiting(approval: ApprovalRequest): void {
    this.asked.add(`${approval.sessionId}:${approval.callId}`);
  }

  wrote(callId: string): boolean {
    return this.written.has(callId);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
