// One model everywhere (issue 39): a model picked in the Chat view's own picker answers the @gateway question, and
// from then on it is the chat model everywhere: gateway.chatModel (so the next window too), the status bar, and
// Edit Selection's request. Select Chat Model's pick moves the Chat view the other way (modelSelection.showInChatView).
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface ModelApi {
  lastChatAnswer(): string | undefined;
  statusText(): string | undefined;
  inlineEdit(): { streaming: boolean; proposal: string } | undefined;
}

const config = () => vscode.workspace.getConfiguration('gateway');

test(
  "a pick in the Chat view's picker becomes the chat model: setting, status bar and Edit Selection follow",
  async () => {
    const gateway = await vscode.extensions.getExtension<ModelApi>(EXTENSION_ID)!.activate();
    await config().update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
    await config().update('chatModel', 'gw-chat', vscode.ConfigurationTarget.Global);
    await waitFor('the status bar to name gw-chat', () => /gw-chat\b(?!-)/.test(gateway.statusText() ?? ''));
    await waitFor('the gateway models in vscode.lm', async () => (await vscode.lm.selectChatModels({ vendor: 'gateway', id: 'gw-chat-mini' })).length > 0);

    // The user picks gw-chat-mini in the Chat view (VS Code's own command behind its picker).
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.changeModel', { vendor: 'gateway', id: 'gw-chat-mini', family: 'gw-chat-mini' });
    await resetEmulator();
    await scriptTurns('demo-key', [{ text: 'picked-model answer' }]);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway which model answers?' });
    await waitFor('the answer', () => gateway.lastChatAnswer()?.includes('picked-model answer'), 30_000);
    const asked = (await emulatorRequests()).find((r) => r.path === '/v1/chat/completions');
    assertEqual(asked?.body.model, 'gw-chat-mini', "the Chat view's pick answered");

    await waitFor('gateway.chatModel to hold the pick', () => config().get<string>('chatModel') === 'gw-chat-mini', 5_000);
    await waitFor('the status bar to name the pick', () => gateway.statusText()?.includes('gw-chat-mini'), 5_000);

    // Edit Selection asks the same model.
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'e2e-model.ts');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('export const a = 1;\n'));
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      await resetEmulator();
      await scriptTurns('demo-key', [{ text: 'export const a = 2;\n' }]);
      await vscode.commands.executeCommand('gateway.editSelection', 'make it two');
      await waitFor('the proposal', () => (gateway.inlineEdit()?.streaming === false ? true : undefined), 30_000);
      const edit = (await emulatorRequests()).find((r) => r.path === '/v1/chat/completions');
      assertEqual(edit?.body.model, 'gw-chat-mini', "Edit Selection's model");
      await vscode.commands.executeCommand('gateway.inlineEdit.reject');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      await config().update('chatModel', 'gw-chat', vscode.ConfigurationTarget.Global);
    }
  },
  { timeoutMs: 90_000 },
);
