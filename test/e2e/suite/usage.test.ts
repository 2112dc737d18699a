// Issue 16 in a real VS Code: requests from the chat, an agent session, an inline edit and
// VS Code's language-model API are recorded, and "Gateway: Show Usage" shows them per
// surface and per model with the very sums the emulator's request log holds.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor, type RecordedRequest } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface Totals {
  requests: number;
  tokens: number;
  input: number;
}
interface UsageViewState {
  html: string;
  today: Totals;
  bySurface: Record<string, Totals | undefined>;
  byModel: Record<string, Totals | undefined>;
  sessions: { sessionId: string; tokens: number }[];
}
interface UsageApi {
  usageView(): UsageViewState | undefined;
  lastChatAnswer(): string | undefined;
  inlineEdit(): { streaming: boolean; proposal: string } | undefined;
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

const api = async () => vscode.extensions.getExtension<UsageApi>(EXTENSION_ID)!.activate();

/** The answered requests of the emulator's log from index `from` on: count and total tokens, per model too. */
function billed(requests: RecordedRequest[], from: number) {
  const answered = requests.slice(from).filter((r) => r.status === 200 && typeof r.totalTokens === 'number' && r.path !== '/v1/models');
  const byModel: Record<string, { requests: number; tokens: number }> = {};
  for (const r of answered) {
    const model = String(r.body.model);
    byModel[model] = { requests: (byModel[model]?.requests ?? 0) + 1, tokens: (byModel[model]?.tokens ?? 0) + r.totalTokens! };
  }
  return { requests: answered.length, tokens: answered.reduce((sum, r) => sum + r.totalTokens!, 0), byModel };
}

async function viewNow(gateway: UsageApi): Promise<UsageViewState> {
  await vscode.commands.executeCommand('gateway.showUsage');
  const state = gateway.usageView();
  assert(state, 'Show Usage rendered nothing');
  return state;
}

const delta = (after: Totals | undefined, before: Totals | undefined) => ({
  requests: (after?.requests ?? 0) - (before?.requests ?? 0),
  tokens: (after?.tokens ?? 0) - (before?.tokens ?? 0),
});

test(
  'Show Usage: the requests of chat, agent, inline edit and the language-model API, summed per surface and model as the emulator counted them',
  async () => {
    const gateway = await api();
    await resetEmulator();
    // On its own too (E2E_GREP): the emulator and its funded key.
    await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key was not stored');
    await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('gateway').update('chatModel', 'gw-chat', vscode.ConfigurationTarget.Global);
    const before = await viewNow(gateway);
    const marks: Record<string, number> = {};

    marks.chat = (await emulatorRequests()).length;
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway how much does this cost?' });
    await waitFor('the @gateway answer', () => gateway.lastChatAnswer()?.includes('how much does this cost?'), 30_000);

    marks.agent = (await emulatorRequests()).length;
    await scriptTurns('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'Read the README.' }]);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent count the usage of a session' });
    const session = await waitFor(
      'the agent session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'count the usage of a session' && s.status === 'done'),
      45_000,
    );

    marks.inline = (await emulatorRequests()).length;
    await scriptTurns('demo-key', [{ text: '```ts\nexport const notes = 1;\n```' }]);
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'export const notes = 0;\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    await vscode.commands.executeCommand('gateway.editSelection', 'set it to one');
    await waitFor('the inline proposal', () => gateway.inlineEdit()?.streaming === false, 30_000);
    await vscode.commands.executeCommand('gateway.inlineEdit.reject');

    marks.lm = (await emulatorRequests()).length;
    const [model] = await vscode.lm.selectChatModels({ vendor: 'gateway', id: 'gw-chat-mini' });
    const response = await model!.sendRequest(
      [vscode.LanguageModelChatMessage.User('usage from another extension')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    for await (const _ of response.text) void _;
    marks.end = (await emulatorRequests()).length;

    const log = await emulatorRequests();
    const expected = {
      chat: billed(log.slice(0, marks.agent), marks.chat),
      agent: billed(log.slice(0, marks.inline), marks.agent),
      inline: billed(log.slice(0, marks.lm), marks.inline),
      lm: billed(log.slice(0, marks.end), marks.lm),
    };
    for (const [surface, sums] of Object.entries(expected)) assert(sums.requests > 0, `no ${surface} request reached the emulator`);
    const all = billed(log, 0);

    // Recording is a file append after the answer: wait until the view has all of them.
    const after = await waitFor(
      'the usage view to show the run’s requests',
      async () => {
        const state = await viewNow(gateway);
        return delta(state.today, before.today).requests >= all.requests ? state : undefined;
      },
      15_000,
    );
    assertEqual(
      JSON.stringify(delta(after.today, before.today)),
      JSON.stringify({ requests: all.requests, tokens: all.tokens }),
      'today, against the emulator',
    );
    for (const [surface, sums] of Object.entries(expected)) {
      assertEqual(
        JSON.stringify(delta(after.bySurface[surface], before.bySurface[surface])),
        JSON.stringify({ requests: sums.requests, tokens: sums.tokens }),
        `${surface}, against the emulator`,
      );
    }
    for (const [name, sums] of Object.entries(all.byModel)) {
      assertEqual(JSON.stringify(delta(after.byModel[name], before.byModel[name])), JSON.stringify(sums), `${name}, against the emulator`);
    }
    const listed = after.sessions.find((s) => s.sessionId === session.id);
    assert(listed, `the session ${session.id} is among the largest sessions`);
    assertEqual(listed.tokens, expected.agent.tokens, 'the session’s tokens');
    for (const label of ['@gateway chat', 'Agent sessions', 'Inline edit', 'Language model provider', 'gw-code', 'gw-chat-mini']) {
      assert(after.html.includes(label), `the page names ${label}`);
    }
    assert(/Content-Security-Policy/.test(after.html), 'the page has a CSP');
  },
  { timeoutMs: 120_000 },
);
