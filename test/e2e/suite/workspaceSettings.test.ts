// A workspace's .vscode/settings.json (written by the driver, as a cloned repository could
// carry it) points gateway.baseUrl at a second local server and sets the agent to `auto`
// with no denied commands. Neither may take effect: the key goes only where the user's own
// settings point, and every command still asks.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface Api {
  hasApiKey(): Promise<boolean>;
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

const WORKSPACE_SERVER = process.env.GATEWAY_E2E_WORKSPACE_SERVER ?? '';
const api = async () => vscode.extensions.getExtension<Api>(EXTENSION_ID)!.activate();
const root = () => vscode.workspace.workspaceFolders![0].uri;

/** What the workspace's server saw: any request at all, and whether one carried a key. */
async function workspaceServerRequests(): Promise<{ path: string; key: string | null }[]> {
  const res = await fetch(`${WORKSPACE_SERVER.replace(/\/v1$/, '')}/_emulator/requests`);
  return (await res.json()) as { path: string; key: string | null }[];
}

test('workspace settings: the workspace file sets baseUrl and approval, and neither applies', async () => {
  assert(WORKSPACE_SERVER, 'the driver did not start the workspace server');
  const file = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), '.vscode', 'settings.json')));
  const onDisk = JSON.parse(file) as Record<string, unknown>;
  assertEqual(onDisk['gateway.baseUrl'], WORKSPACE_SERVER, 'the workspace file names its server');
  assertEqual(onDisk['gateway.agent.approval'], 'auto', 'the workspace file asks for auto');
  assertEqual(JSON.stringify(onDisk['gateway.agent.allowedTools']), '["gatewayE2e_weather"]', 'the workspace file allows a tool');
  const config = vscode.workspace.getConfiguration('gateway');
  assertEqual(config.get('baseUrl'), EMULATOR_BASE_URL, "gateway.baseUrl as the extension reads it (the user's)");
  assertEqual(config.get('agent.approval'), 'ask', 'gateway.agent.approval as the extension reads it');
  assertEqual(JSON.stringify(config.get('agent.allowedTools')), '[]', 'gateway.agent.allowedTools as the extension reads it (the user sets none)');
});

test('workspace settings: the key never reaches the server the workspace names', async () => {
  const gateway = await api();
  assert(await gateway.hasApiKey(), 'the gateway tests stored a key first');
  // Everything that sends the key: the model list (status bar, picker) and a chat answer.
  const models = await vscode.lm.selectChatModels({ vendor: 'gateway' });
  assert(models.length > 0, "the models came from the user's gateway");
  const reply = await models[0].sendRequest([vscode.LanguageModelChatMessage.User('hello')], {}, new vscode.CancellationTokenSource().token);
  let text = '';
  for await (const part of reply.text) text += part;
  assert(text.length > 0, 'an answer came back');
  const seen = await workspaceServerRequests();
  assertEqual(seen.length, 0, `requests at the workspace's server: ${JSON.stringify(seen.map((r) => [r.path, r.key ? 'WITH KEY' : 'no key']))}`);
});

test(
  'workspace settings: `auto` from the workspace runs nothing unasked',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran-unasked > unasked.txt' } }] }, { text: 'Done.' }]);
    const run = vscode.commands.executeCommand('gateway.agent.start', 'workspace says auto');
    const pending = await waitFor('the command to ask for approval', () => gateway.pendingApprovals().find((p) => /ran-unasked/.test(p.summary)), 30_000);
    await vscode.commands.executeCommand('gateway.agent.deny', pending.sessionId, pending.callId);
    await run;
    await waitFor(
      'the session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'workspace says auto' && s.status === 'done'),
      30_000,
    );
    const exists = await vscode.workspace.fs.stat(vscode.Uri.joinPath(root(), 'unasked.txt')).then(
      () => true,
      () => false,
    );
    assertEqual(exists, false, 'unasked.txt exists');
    assertEqual((await workspaceServerRequests()).length, 0, "requests at the workspace's server");
  },
  { timeoutMs: 60_000 },
);
