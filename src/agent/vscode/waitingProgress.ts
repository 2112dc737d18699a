/**
 * The progress notification of a session run from the palette or the Sessions
 * view, while an approval waits: it says which one, with Approve and Deny as
 * links in it. A progress notification stays until its run ends; the plain one
 * with buttons, shown too for a quick answer, hides itself after some seconds,
 * and the approval was lost to anyone who had looked away.
 */
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../sessionModel/common';
import { unlinked, waitingLine } from '../common/approvals/approvalText';
import { notificationPresenter, soleFolderName, type ApprovalBroker, type ApprovalPresenter } from './approvalBroker';
import { commandPlace } from '../common/approvals/commandDisplay';

export interface WaitingProgress extends vscode.Disposable {
  /** The run's approval presenter: each approval shows in the progress message until it ends. */
  presenter: ApprovalPresenter;
}

export function waitingProgress(approvals: ApprovalBroker, progress: vscode.Progress<{ message?: string }>, doing: string): WaitingProgress {
  const shown = new Map<string, ApprovalRequest>();
  const update = () => {
    const [first] = shown.values();
    progress.report({ message: first ? waitingMessage(first, shown.size - 1) : doing });
  };
  update();
  const subscription = approvals.onDidEnd(({ request }) => {
    if (shown.delete(`${request.sessionId}:${request.callId}`)) update();
  });
  const toast = notificationPresenter(approvals);
  return {
    presenter: (request) => {
      shown.set(`${request.sessionId}:${request.callId}`, request);
      update();
      toast(request);
    },
    dispose: () => subscription.dispose(),
  };
}

/** "waiting for your approval: curl … — Approve · Deny · Show Diff", the choices as command links. */
export function waitingMessage(request: ApprovalRequest, more: number): string {
  const args = [request.sessionId, request.callId];
  const links = [link('Approve', 'gateway.agent.approve', args), link('Deny', 'gateway.agent.deny', args)];
  if (request.preview) links.push(link('Show Diff', 'gateway.agent.showDiff', args));
  if (request.input) links.push(link('Show Full Input', 'gateway.agent.showInput', args));
  const where = commandPlace(request, soleFolderName());
  const others = more > 0 ? ` (${more} more waiting: see the Agent Sessions view)` : '';
  return `${unlinked(waitingLine(request))}${unlinked(where)} — ${links.join(' · ')}${others}`;
}

/** A `[title](command:…)` link: VS Code runs the command with these arguments when it is clicked. */
function link(title: string, command: string, args: readonly string[]): string {
  // Parentheses would end the link's target early; encodeURIComponent leaves them as they are.
  const query = encodeURIComponent(JSON.stringify(args)).replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${title}](command:${command}?${query})`;
}
