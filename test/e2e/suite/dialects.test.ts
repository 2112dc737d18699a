// A DeepSeek-style and a Mistral-style model in a real VS Code: one @gateway question with a
// follow-up and one agent step each. The answer arrives, the thinking is shown as its collapsed
// part (and opens), and the next request carries none of it.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, setDialect, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface DialectApi {
  lastChatAnswer(): string | undefined;
  thinkingParts(): { id: number; title: string; text: string; totalChars: number }[];
  agentSessions(): Promise<{ title: string; status: string; turns: number; statusReason?: string }[]>;
}

const api = async () => vscode.extensions.getExtension<DialectApi>(EXTENSION_ID)!.activate();
const config = () => vscode.workspace.getConfiguration('gateway');

/** The emulator, the key and the model, so that a test run alone (E2E_GREP=dialect) is set up too. */
async function setUp(setting: 'chatModel' | 'agentModel', model: string): Promise<void> {
  await resetEmulator();
  await config().update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
  await config().update(setting, model, vscode.ConfigurationTarget.Global);
  assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the demo key was not stored');
  await resetEmulator();
}

/** Opens a thinking part as its button does and returns the text shown, then closes it. */
async function openThinking(id: number): Promise<string> {
  await vscode.commands.executeCommand('gateway.showThinking', id);
  const document = await waitFor('the thinking document', () =>
    vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'gateway-thinking' && d.uri.query === String(id)),
  );
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
  const tab = tabs.find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === document.uri.toString());
  assert(tab, 'the thinking did not open in an editor');
  const text = document.getText();
  await vscode.window.tabGroups.close(tab);
  return text;
}

/** The chat models: whichever the Chat view's picker is on (it wins over the setting) speaks the dialect. */
const CHAT_MODELS = ['gw-chat', 'gw-chat-pro', 'gw-chat-mini'];

/** Waits for @gateway's answer; a timeout says what came instead. */
async function waitForAnswer(gateway: DialectApi, answer: string): Promise<void> {
  // 20 s: an answer that fails (a stream the client cannot decode) never arrives, and the suite's time is bounded.
  await waitFor('the answer', () => gateway.lastChatAnswer() === answer, 20_000).catch(async (error: Error) => {
    const sent = (await emulatorRequests()).map((r) => `${r.path} ${r.status} ${r.body?.model ?? ''}`);
    throw new Error(`${error.message}: the last answer is ${JSON.stringify(gateway.lastChatAnswer())}; requests: ${sent.join(', ')}`);
  });
}

const newThinking = (gateway: DialectApi, after: number) => gateway.thinkingParts().filter((part) => part.id > after);
const lastId = (gateway: DialectApi) => gateway.thinkingParts().at(-1)?.id ?? 0;

for (const dialect of ['deepseek', 'mistral']) {
  test(
    `dialect ${dialect}: @gateway answers, shows its thinking collapsed, and a follow-up sends none of it back`,
    async () => {
      const gateway = await api();
      await setUp('chatModel', 'gw-chat-pro');
      for (const model of CHAT_MODELS) await setDialect(model, dialect);
      const reasoning = `The user asks which option; ${dialect} weighs both and picks the second.`;
      const answer = `Take the second option (${dialect}).`;
      await scriptTurns('demo-key', [
        { endpoint: 'chat', reasoning, text: answer },
        { endpoint: 'chat', text: `Because it is simpler (${dialect}).` },
      ]);
      const before = lastId(gateway);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway which option?' });
      await waitForAnswer(gateway, answer);
      const [part] = newThinking(gateway, before);
      assert(part, 'no thinking part was shown');
      assertEqual(part.title, `Thinking (${reasoning.length} characters)`, 'the collapsed part');
      assertEqual((await openThinking(part.id)).trim(), reasoning, 'the thinking opened');

      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway and why?' });
      await waitForAnswer(gateway, `Because it is simpler (${dialect}).`);
      const chats = (await emulatorRequests()).filter((r) => r.path === '/v1/chat/completions');
      assertEqual(chats.map((r) => r.status).join(', '), '200, 200', 'the two requests');
      const history = chats[1].body.messages as { role: string; content: unknown }[];
      assert(
        history.some((m) => m.role === 'assistant' && m.content === answer),
        `the first answer is in the follow-up's history: ${JSON.stringify(history)}`,
      );
      const sent = JSON.stringify(chats[1].body);
      assert(!sent.includes('weighs both') && !sent.includes('reasoning_content') && !sent.includes('Thinking ('), `thinking was sent back: ${sent}`);
    },
    { timeoutMs: 75_000 },
  );

  test(
    `dialect ${dialect}: an agent step shows its thinking collapsed and the next request carries none of it`,
    async () => {
      const gateway = await api();
      await setUp('agentModel', 'gw-code');
      await setDialect('gw-code', dialect);
      const stepThinking = `First read the README (${dialect}).`;
      const finalThinking = `The README is read; say so (${dialect}).`;
      await scriptTurns('demo-key', [
        { model: 'gw-code', reasoning: stepThinking, toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { model: 'gw-code', reasoning: finalThinking, text: `Read it (${dialect}).` },
      ]);
      const before = lastId(gateway);
      const task = `read the readme as ${dialect}`;
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${task}` });
      const session = await waitFor(
        'the session to end',
        async () => (await gateway.agentSessions()).find((s) => s.title === task && ['done', 'paused', 'stopped'].includes(s.status)),
        45_000,
      );
      assertEqual(`${session.status} ${session.statusReason ?? ''}`.trim(), 'done', 'the session');
      const parts = newThinking(gateway, before);
      assertEqual(
        parts.map((p) => p.title).join(' | '),
        `Thinking (${stepThinking.length} characters) | Thinking (${finalThinking.length} characters)`,
        'the collapsed parts',
      );
      assertEqual((await openThinking(parts[0].id)).trim(), stepThinking, 'the first step’s thinking opened');

      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      assert(bodies.length >= 2, `responses requests: ${bodies.length}`);
      assert(bodies[1].previous_response_id, 'the second request continues the chain');
      const sent = JSON.stringify(bodies.slice(1).map((body) => body.input));
      assert(!sent.includes('First read the README') && !sent.includes('reasoning'), `thinking was sent back: ${sent}`);
    },
    { timeoutMs: 90_000 },
  );
}
