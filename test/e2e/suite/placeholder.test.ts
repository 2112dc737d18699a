// Issue 39, item 1, the part that was left: with no key VS Code's model picker had nothing of the Gateway's, so a
// question in the Chat view got VS Code's bare "Language model unavailable" and never reached @gateway. The provider
// now lists one placeholder ("Gateway — set your API key"): a request to it through vscode.lm is refused with what to
// do and never reaches the Gateway, and once the key is set the real models replace it and the Chat view, left on the
// placeholder, answers with a real model. (The reason in the chat with its button: the UI scenario i39-never-listed.)
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface PlaceholderApi {
  hasApiKey(): Promise<boolean>;
  lastChatAnswer(): string | undefined;
  recentLog(): string[];
}

const PLACEHOLDER_NAME = 'Gateway — set your API key';
const gatewayModels = () => vscode.lm.selectChatModels({ vendor: 'gateway' });

test(
  'no key: one placeholder in vscode.lm, refused with what to do; the key set, the real models replace it and the Chat view answers',
  async () => {
    const gateway = await vscode.extensions.getExtension<PlaceholderApi>(EXTENSION_ID)!.activate();
    await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('gateway.clearApiKey');
    assertEqual(await gateway.hasApiKey(), false, 'key stored');
    await resetEmulator();

    const [placeholder] = await waitFor('the placeholder alone in vscode.lm', async () => {
      const models = await gatewayModels();
      return models.length === 1 && models[0].name === PLACEHOLDER_NAME ? models : undefined;
    });
    let refusal = '';
    try {
      const response = await placeholder.sendRequest(
        [vscode.LanguageModelChatMessage.User('hello placeholder')],
        {},
        new vscode.CancellationTokenSource().token,
      );
      for await (const chunk of response.text) refusal += `(answered: ${chunk})`;
    } catch (error) {
      refusal = error instanceof Error ? error.message : String(error);
    }
    assert(/not a model/.test(refusal) && /"Gateway: Set API Key"/.test(refusal), `refused with what to do: ${JSON.stringify(refusal)}`);
    const sent = (await emulatorRequests()).filter((r) => r.path !== '/v1/models');
    assertEqual(sent.length, 0, `requests that reached the Gateway: ${JSON.stringify(sent.map((r) => [r.path, r.body?.model]))}`);

    // The Chat view on the placeholder, as a new user's is; then the key is set.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.changeModel', { vendor: 'gateway', id: placeholder.id, family: placeholder.family });
    const moves = () => gateway.recentLog().filter((line) => /model picker moved to gw-/.test(line)).length;
    const movesBefore = moves();
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
    const models = await waitFor('the real models in place of the placeholder', async () => {
      const listed = await gatewayModels();
      return listed.length >= 4 ? listed : undefined;
    });
    assert(
      models.every((m) => m.id !== placeholder.id),
      `no placeholder once the key is set: ${models.map((m) => m.id).join(', ')}`,
    );

    // VS Code keeps a vanished model selected (then "Language model unavailable"): the extension moves the picker.
    await waitFor('the Chat view moved off the placeholder', () => moves() > movesBefore);
    await resetEmulator();
    await scriptTurns('demo-key', [{ text: 'answered after the key' }]);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway am I set up now?' });
    await waitFor('the answer', () => gateway.lastChatAnswer()?.includes('answered after the key'), 30_000);
    const asked = (await emulatorRequests()).filter((r) => r.path === '/v1/chat/completions');
    assert(
      asked.length > 0 && asked.every((r) => /^gw-/.test(String(r.body?.model))),
      `sent with a Gateway model: ${JSON.stringify(asked.map((r) => r.body?.model))}`,
    );
    const written = vscode.workspace.getConfiguration('gateway').get<string>('chatModel') ?? '';
    assert(written !== placeholder.id, `gateway.chatModel never holds the placeholder (${JSON.stringify(written)})`);
  },
  { timeoutMs: 90_000 },
);
