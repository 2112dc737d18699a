// An output the model sends unasked (a call to a custom tool nobody offered) in a real VS Code:
// @gateway's answer still arrives, the note is shown beside it, and the follow-up's history, which
// VS Code builds from the answer's markdown, carries the answer without the note.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface NotesApi {
  lastChatAnswer(): string | undefined;
  lastChatNotes(): string[];
}

test(
  'unasked output: @gateway shows a note on a custom tool call, answers, and the follow-up history leaves the note out',
  async () => {
    const gateway = await vscode.extensions.getExtension<NotesApi>(EXTENSION_ID)!.activate();
    const config = vscode.workspace.getConfiguration('gateway');
    await resetEmulator();
    await config.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the demo key was not stored');
    await resetEmulator();
    const answer = 'Patch it by hand: change line 3.';
    await scriptTurns('demo-key', [
      { endpoint: 'chat', text: answer, customToolCalls: [{ name: 'apply_patch', input: '*** Begin Patch' }] },
      { endpoint: 'chat', text: 'Line 3 holds the typo.' },
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway how do I fix it?' });
    await waitFor('the answer', () => gateway.lastChatAnswer() === answer, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}: the last answer is ${JSON.stringify(gateway.lastChatAnswer())}`);
    });
    assertEqual(
      gateway.lastChatNotes().join(' | '),
      'The model sent `custom_tool_call` (`apply_patch`), which the extension did not ask for; it is not shown or acted on.',
      'the note shown',
    );

    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway where?' });
    await waitFor('the follow-up', () => gateway.lastChatAnswer() === 'Line 3 holds the typo.', 20_000);
    assertEqual(gateway.lastChatNotes().length, 0, 'notes of the follow-up');
    const chats = (await emulatorRequests()).filter((r) => r.path === '/v1/chat/completions');
    assertEqual(chats.map((r) => r.status).join(', '), '200, 200', 'the two requests');
    const history = chats[1].body.messages as { role: string; content: unknown }[];
    assert(
      history.some((m) => m.role === 'assistant' && m.content === answer),
      `the first answer, without its note, is in the follow-up's history: ${JSON.stringify(history)}`,
    );
    const sent = JSON.stringify(chats[1].body);
    assert(!sent.includes('did not ask for') && !sent.includes('apply_patch'), `the note was sent back: ${sent}`);
  },
  { timeoutMs: 75_000 },
);
