// The extension in a real VS Code against the emulator: key, settings, status bar, chat, models.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, injectFault, resetEmulator, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface GatewayApi {
  statusText(): string | undefined;
  statusState(): string | undefined;
  hasApiKey(): Promise<boolean>;
  lastChatAnswer(): string | undefined;
  activationMs(): number;
  activationCpuMs(): number;
  activationSteps(): { name: string; ms: number; cpuMs: number }[];
}

async function api(): Promise<GatewayApi> {
  const extension = vscode.extensions.getExtension<GatewayApi>(EXTENSION_ID);
  assert(extension, 'extension not found');
  return extension.activate();
}

const config = () => vscode.workspace.getConfiguration('gateway');
const setKey = (key: string) => vscode.commands.executeCommand<boolean>('gateway.setApiKey', key);

test('activation is quick and reported', async () => {
  const gateway = await api();
  const ms = gateway.activationMs();
  console.log(`  activation: ${ms.toFixed(1)} ms in activate(), ${gateway.activationCpuMs().toFixed(1)} ms CPU (target ≤ 15 ms)`);
  const steps = gateway.activationSteps();
  console.log(
    `  slowest steps: ${steps
      .slice(0, 4)
      .map((s) => `${s.name} ${s.ms.toFixed(1)} ms (${s.cpuMs.toFixed(1)} CPU)`)
      .join(', ')}`,
  );
  assert(steps.length > 0, 'activate() reported no steps');
  assert(Number.isFinite(ms) && ms > 0, `activate() reported ${ms} ms`);
});

test('settings: the base URL points at the emulator', async () => {
  await resetEmulator();
  await config().update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
  await config().update('chatModel', '', vscode.ConfigurationTarget.Global);
  assertEqual(config().get('baseUrl'), EMULATOR_BASE_URL, 'gateway.baseUrl');
});

test('a wrong key is checked against GET /v1/models and not stored', async () => {
  const gateway = await api();
  await vscode.commands.executeCommand('gateway.clearApiKey');
  const stored = await setKey('wrong-key-123456');
  assertEqual(stored, false, 'setApiKey result');
  assertEqual(await gateway.hasApiKey(), false, 'key stored');
  const requests = await emulatorRequests();
  const check = requests.find((r) => r.path === '/v1/models');
  assert(check && check.status === 401, `expected a 401 GET /v1/models, saw ${JSON.stringify(requests.map((r) => [r.path, r.status]))}`);
  assertEqual(gateway.statusState(), 'no-key', 'status state');
});

test('a key with an invisible character is refused before any request', async () => {
  const gateway = await api();
  await resetEmulator();
  assertEqual(await setKey('demo\u200bkey'), false, 'setApiKey result');
  assertEqual(await gateway.hasApiKey(), false, 'key stored');
  assertEqual((await emulatorRequests()).length, 0, 'requests sent with the bad key');
});

test('a good key is stored and the status bar shows the model and the limits', async () => {
  const gateway = await api();
  assertEqual(await setKey('demo-key'), true, 'setApiKey result');
  assertEqual(await gateway.hasApiKey(), true, 'key stored');
  const text = await waitFor('the status bar to name a model', () => {
    const t = gateway.statusText();
    return t && t.includes('gw-chat') && /\d+\/60 req/.test(t) ? t : undefined;
  });
  assert(!JSON.stringify(vscode.workspace.getConfiguration('gateway')).includes('demo-key'), 'the key leaked into settings');
  console.log(`  status: ${text}`);
});

test('changing the chat model setting moves the status bar', async () => {
  const gateway = await api();
  await config().update('chatModel', 'gw-chat-pro', vscode.ConfigurationTarget.Global);
  await waitFor('the status bar to show gw-chat-pro', () => gateway.statusText()?.includes('gw-chat-pro'));
});

test("the gateway models are in VS Code's model picker and answer", async () => {
  const models = await waitFor('gateway models in vscode.lm', async () => {
    const found = await vscode.lm.selectChatModels({ vendor: 'gateway' });
    return found.length >= 4 ? found : undefined;
  });
  assertEqual(
    models
      .map((m) => m.id)
      .sort()
      .join(','),
    'gw-chat,gw-chat-mini,gw-chat-pro,gw-code',
    'model ids',
  );
  const model = models.find((m) => m.id === 'gw-chat')!;
  const response = await model.sendRequest(
    [vscode.LanguageModelChatMessage.User('hello from the model picker')],
    {},
    new vscode.CancellationTokenSource().token,
  );
  let text = '';
  for await (const chunk of response.text) text += chunk;
  assertEqual(text, 'Echo: hello from the model picker', 'answer through vscode.lm');
});

test("requests in a row share a kept-alive connection (node:http under VS Code's own patches of it)", async () => {
  const [model] = await vscode.lm.selectChatModels({ vendor: 'gateway', id: 'gw-chat' });
  for (const n of [1, 2, 3]) {
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(`in a row ${n}`)], {}, new vscode.CancellationTokenSource().token);
    for await (const _chunk of response.text) void _chunk;
  }
  const sent = (await emulatorRequests()).filter((r) => r.path === '/v1/chat/completions' && JSON.stringify(r.body).includes('in a row '));
  assertEqual(sent.length, 3, 'requests the emulator saw');
  // A background request (the model list, the status bar) may open a second connection meanwhile; without reuse there are three.
  const connections = new Set(sent.map((r) => r.connection));
  assert(connections.size < 3, `each request opened its own connection (${[...connections].join(', ')})`);
});

test("a model from VS Code's picker calls tools", async () => {
  const [model] = await vscode.lm.selectChatModels({ vendor: 'gateway', id: 'gw-chat' });
  const tools: vscode.LanguageModelChatTool[] = [
    { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  ];
  const response = await model.sendRequest(
    [vscode.LanguageModelChatMessage.User('weather?')],
    { tools, toolMode: vscode.LanguageModelChatToolMode.Required },
    new vscode.CancellationTokenSource().token,
  );
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  assertEqual(calls.length, 1, 'tool calls');
  assertEqual(calls[0].name, 'get_weather', 'tool name');
  assert(typeof (calls[0].input as { city?: unknown }).city === 'string', `arguments ${JSON.stringify(calls[0].input)}`);
});

test('@gateway answers in the Chat view with the configured model', async () => {
  const gateway = await api();
  await resetEmulator();
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway what is e2e?' });
  const answer = await waitFor('the @gateway answer', () => gateway.lastChatAnswer()?.includes('what is e2e?') && gateway.lastChatAnswer(), 30_000);
  assertEqual(answer, 'Echo: what is e2e?', 'answer');
  const chat = (await emulatorRequests()).find((r) => r.path === '/v1/chat/completions');
  assert(chat, 'no chat request reached the emulator');
  assertEqual(chat.body.model, 'gw-chat-pro', 'model sent');
  assertEqual(chat.body.stream, true, 'streamed');
  assertEqual(chat.body.messages[0].role, 'system', 'system prompt first');
});

test('an empty balance turns the status bar to the error state', async () => {
  const gateway = await api();
  assertEqual(await setKey('empty-key'), true, 'a key with an empty balance is still stored');
  await waitFor('the depleted state', () => gateway.statusState() === 'depleted');
  assert(gateway.statusText()?.includes('Top up'), `status text ${gateway.statusText()}`);
  // A mistyped replacement is refused, and what is known of the stored key stays on show.
  assertEqual(await setKey('wrong-key-123456'), false, 'a wrong key is not stored');
  assertEqual(gateway.statusState(), 'depleted', 'still depleted after the refused key');
  assert(gateway.statusText()?.includes('Top up'), `status text after the refused key: ${gateway.statusText()}`);
  assertEqual(await setKey('demo-key'), true, 'back to the funded key');
  await waitFor('the normal state after a success', () => gateway.statusState() === 'normal');
});

test(
  'a 503 is retried and the answer still arrives',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await injectFault('demo-key', { kind: '503', retryAfter: 1 });
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway after the outage' });
    await waitFor('the answer after a retry', () => gateway.lastChatAnswer() === 'Echo: after the outage', 45_000);
    const statuses = (await emulatorRequests()).filter((r) => r.path === '/v1/chat/completions').map((r) => r.status);
    assertEqual(statuses.join(','), '503,200', 'statuses');
  },
  { timeoutMs: 60_000 },
);
