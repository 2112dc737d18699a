/**
 * Wherever the user looks, a session waiting for them shows: a status bar item
 * (only while an approval waits; clicking it shows the approval again with
 * Approve and Deny) and the count on the Agent Sessions view's badge.
 */
import * as vscode from 'vscode';
import { waitingLine } from '../common/approvals/approvalText';
import { notificationPresenter, type ApprovalBroker } from './approvalBroker';

export const SHOW_WAITING_COMMAND = 'gateway.agent.showWaiting';

export function showWaiting(approvals: ApprovalBroker, treeView: Pick<vscode.TreeView<unknown>, 'badge'>): vscode.Disposable {
  // Made when an approval first waits, not while the extension activates (most windows never need it).
  let item: vscode.StatusBarItem | undefined;
  const update = () => {
    const waiting = approvals.waiting();
    treeView.badge =
      waiting.length > 0 ? { value: waiting.length, tooltip: `${waiting.length} agent approval${waiting.length === 1 ? '' : 's'} waiting for you` } : undefined;
    if (waiting.length === 0) return item?.hide();
    item ??= waitingItem();
    item.text = `$(bell-dot) Agent ${waiting.length === 1 ? 'waits' : `waits (${waiting.length})`} for your approval`;
    item.tooltip = `${waiting.map((request) => `Gateway agent is ${waitingLine(request)}`).join('\n')}\n\nClick to answer it.`;
    item.accessibilityInformation = { label: item.tooltip, role: 'button' };
    item.show();
  };
  // Nothing waits while the extension activates: the badge and the item are set at the first change, not sent empty now.
  if (approvals.waiting().length > 0) update();
  return vscode.Disposable.from(
    { dispose: () => item?.dispose() },
    approvals.onDidChangePending(update),
    vscode.commands.registerCommand(SHOW_WAITING_COMMAND, () => {
      const [oldest] = approvals.waiting();
      if (!oldest) return void vscode.window.showInformationMessage('No agent session is waiting for your approval.');
      notificationPresenter(approvals)(oldest);
    }),
  );
}

function waitingItem(): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('gateway.agentWaiting', vscode.StatusBarAlignment.Right, 101);
  item.name = 'Gateway agent: waiting for you';
  item.command = SHOW_WAITING_COMMAND;
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  return item;
}
