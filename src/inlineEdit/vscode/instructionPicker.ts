/** The instruction for an inline edit: typed, or picked from the recent ones. */
import * as vscode from 'vscode';

const RECENT = 'gateway.recentEditInstructions';
const MAX_RECENT = 10;

export async function pickInstruction(state: vscode.Memento): Promise<string | undefined> {
  const recent = state.get<string[]>(RECENT, []);
  const quickPick = vscode.window.createQuickPick();
  quickPick.title = 'Gateway: Edit Selection';
  quickPick.placeholder = 'How should the selected code change? (Enter to send)';
  quickPick.items = recent.map((label) => ({ label, description: 'recent' }));
  quickPick.ignoreFocusOut = true;
  const instruction = await new Promise<string | undefined>((resolve) => {
    quickPick.onDidChangeValue((value) => {
      // What is typed is always the first choice, above the recent ones.
      quickPick.items = [...(value.trim() ? [{ label: value }] : []), ...recent.filter((r) => r !== value).map((label) => ({ label, description: 'recent' }))];
    });
    quickPick.onDidAccept(() => {
      resolve((quickPick.selectedItems[0]?.label ?? quickPick.value).trim() || undefined);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
  if (instruction) await state.update(RECENT, [instruction, ...recent.filter((r) => r !== instruction)].slice(0, MAX_RECENT));
  return instruction;
}
