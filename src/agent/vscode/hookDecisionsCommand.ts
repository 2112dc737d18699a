/** "Forget Hook Approvals and Denials": the way back from a hook approved or denied by mistake (issue 38). */
import * as vscode from 'vscode';
import { counted } from '../../base/common';
import { countHookDecisions, forgetHookDecisions } from '../../customization/common';

export const FORGET_HOOK_DECISIONS_COMMAND = 'gateway.agent.forgetHookDecisions';

/** Asks first (modal, with the counts); the decisions of every workspace go, as they are kept by content, not by folder. */
export function registerForgetHookDecisions(globalState: vscode.Memento): vscode.Disposable {
  return vscode.commands.registerCommand(FORGET_HOOK_DECISIONS_COMMAND, async () => {
    const { approvals, denials } = countHookDecisions(globalState);
    if (approvals + denials === 0)
      return vscode.window.showInformationMessage('No hook approvals or denials are kept: each hook asks when a session first finds it.');
    const what = `${counted(approvals, 'approval')} and ${counted(denials, 'denial')}`;
    const forget = 'Forget';
    const choice = await vscode.window.showWarningMessage(
      `Forget ${what} of hooks, in every workspace?`,
      { modal: true, detail: 'Each hook asks again at the next agent session that finds it. Sessions running now keep the hooks they started with.' },
      forget,
    );
    if (choice !== forget) return undefined;
    const forgotten = await forgetHookDecisions(globalState);
    return vscode.window.showInformationMessage(`Forgot ${counted(forgotten.approvals, 'approval')} and ${counted(forgotten.denials, 'denial')} of hooks.`);
  });
}
