// Agent sessions in a real VS Code: /agent in the chat, approvals, the terminal, undo, the palette.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string; turns: number; statusReason?: string; compacted?: string; context?: string }[]>;
}

const api = async () => vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
const root = () => vscode.workspace.workspaceFolders![0].uri;
const readDisk = async (path: string) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), path)));
const ORIGINAL_HELLO = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

async function approveNext(gateway: AgentApi, expected: RegExp): Promise<void> {
  const pending = await waitFor(`an approval matching ${expected}`, () => gateway.pendingApprovals().find((p) => expected.test(p.summary)), 30_000);
  const answered = await vscode.commands.executeCommand<boolean>('gateway.agent.approve', pending.sessionId, pending.callId);
  assert(answered, `approval ${pending.summary} was not waiting`);
}

test(
  '/agent in the chat: read, approved edit (undoable), approved command in the terminal',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/hello.ts', old_text: 'Hello, ', new_text: 'Hi there, ' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo agent-ran-here && (exit 3)' } }] },
      { text: 'Greeting updated and checked.' },
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent make the greeting friendlier' });
    await approveNext(gateway, /src\/hello\.ts/);
    await waitFor('the edit on disk', async () => (await readDisk('src/hello.ts')).includes('Hi there, '));
    await approveNext(gateway, /agent-ran-here/);
    const session = await waitFor(
      'the session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'make the greeting friendlier' && s.status === 'done'),
      30_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; sessions: ${JSON.stringify(await gateway.agentSessions())}; waiting: ${JSON.stringify(gateway.pendingApprovals())}`);
    });
    assertEqual(session.turns, 4, 'turns');

    const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
    assertEqual(bodies.length, 4, 'responses requests');
    assert(bodies[1].previous_response_id && bodies[3].previous_response_id, 'the chain was used');
    const commandOutput: string = bodies[3].input[0].output;
    assert(/agent-ran-here/.test(commandOutput) && /3/.test(commandOutput), `the command's output and exit code reach the model: ${commandOutput}`);

    // Undo restores the file: the edit was one WorkspaceEdit.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root(), 'src/hello.ts'));
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to restore the original', () => document.getText() === ORIGINAL_HELLO);
    await document.save();
  },
  { timeoutMs: 90_000 },
);

test(
  'a denied command is not run, and the model is told',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo should-not-run > denied.txt' } }] },
      { text: 'Understood.' },
    ]);
    // A new conversation: in the same one, /agent would continue the previous session.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent try a command' });
    const pending = await waitFor('the command approval', () => gateway.pendingApprovals().find((p) => /should-not-run/.test(p.summary)), 30_000);
    await vscode.commands.executeCommand('gateway.agent.deny', pending.sessionId, pending.callId);
    await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === 'try a command' && s.status === 'done'), 30_000);
    const exists = await vscode.workspace.fs.stat(vscode.Uri.joinPath(root(), 'denied.txt')).then(
      () => true,
      () => false,
    );
    assertEqual(exists, false, 'denied.txt exists');
    const last = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').at(-1)!;
    assert(/denied/.test(last.body.input[0].output), `the model was told: ${last.body.input[0].output}`);
  },
  { timeoutMs: 60_000 },
);

test(
  'a command that pages its output (git log, less) finishes in the terminal instead of waiting for a key',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'run_command', arguments: { command: "printf 'row%s\\n' $(seq 1 300) | ${PAGER:-less}", timeout: 20 } }] },
      { text: 'Paged.' },
    ]);
    const run = vscode.commands.executeCommand('gateway.agent.start', 'page some output');
    await approveNext(gateway, /PAGER/);
    await run;
    await waitFor(
      'the session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'page some output' && s.status === 'done'),
      40_000,
    );
    const output = String((await emulatorRequests()).filter((r) => r.path === '/v1/responses').at(-1)!.body.input[0].output);
    assert(
      /row300/.test(output) && /exit code 0/i.test(output) && !/timed out|killed/i.test(output),
      `the model got the whole output and exit code 0: ${output.slice(-300)}`,
    );
  },
  { timeoutMs: 60_000 },
);

test(
  'the same task from the palette, then revert',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/agent.md', content: '# Written by the agent\n' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'Line two', new_text: 'Line 2' } }] },
      { text: 'Wrote the doc.' },
    ]);
    const run = vscode.commands.executeCommand('gateway.agent.start', 'write the agent doc');
    await approveNext(gateway, /docs\/agent\.md/);
    await approveNext(gateway, /notes\.txt/);
    await run;
    const session = await waitFor(
      'the palette session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'write the agent doc' && s.status === 'done'),
      30_000,
    );
    assertEqual(await readDisk('docs/agent.md'), '# Written by the agent\n', 'created file');
    assertEqual(await readDisk('notes.txt'), 'Line one\nLine 2\n', 'edited file');

    await vscode.commands.executeCommand('gateway.agent.revert', session.id).then(undefined, () => undefined);
  },
  { timeoutMs: 60_000 },
);

test(
  'stop in the middle, then continue finishes the session',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'later.txt', content: 'later\n' } }] },
      { text: 'Finished after continuing.' },
    ]);
    const run = vscode.commands.executeCommand('gateway.agent.start', 'stop and go');
    const pending = await waitFor('the write approval', () => gateway.pendingApprovals().find((p) => /later\.txt/.test(p.summary)), 30_000);
    await vscode.commands.executeCommand('gateway.agent.stop', pending.sessionId);
    await run;
    const paused = await waitFor('the paused session', async () =>
      (await gateway.agentSessions()).find((s) => s.id === pending.sessionId && s.status === 'paused'),
    );
    assertEqual(paused.statusReason, 'Stopped by the user.', 'reason');
    const resumed = vscode.commands.executeCommand('gateway.agent.continue', pending.sessionId);
    await approveNext(gateway, /later\.txt/);
    await resumed;
    await waitFor(
      'the continued session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.id === pending.sessionId && s.status === 'done'),
      30_000,
    );
    assertEqual(await readDisk('later.txt'), 'later\n', 'written after continuing');
  },
  { timeoutMs: 60_000 },
);

test(
  'Delete Session refuses a running session (no modal): the session stays, and stays listed',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [{ toolCalls: [{ name: 'write_file', arguments: { path: 'kept.txt', content: 'kept\n' } }] }, { text: 'Done.' }]);
    const run = vscode.commands.executeCommand('gateway.agent.start', 'do not delete me while I run');
    const pending = await waitFor('the write approval', () => gateway.pendingApprovals().find((p) => /kept\.txt/.test(p.summary)), 30_000);
    const deleted = await vscode.commands.executeCommand<boolean>('gateway.agent.deleteSession', pending.sessionId);
    assertEqual(deleted, false, 'the command refused');
    assert(
      (await gateway.agentSessions()).some((s) => s.id === pending.sessionId),
      'the running session is still listed',
    );
    await vscode.commands.executeCommand('gateway.agent.deny', pending.sessionId, pending.callId);
    await vscode.commands.executeCommand('gateway.agent.stop', pending.sessionId);
    await run;
  },
  { timeoutMs: 60_000 },
);

// Issue 10, item 8: in `auto` commands run unasked, but in a sandbox (bubblewrap), not after a deny list.
test(
  'auto: commands run in the sandbox; a write outside and the network (even approved) fail with a readable message, work inside succeeds',
  async () => {
    const gateway = await api();
    await resetEmulator();
    const settings = vscode.workspace.getConfiguration('gateway');
    await settings.update('agent.approval', 'auto', vscode.ConfigurationTarget.Global);
    const emulatorRoot = EMULATOR_BASE_URL.replace(/\/v1\/?$/, '');
    try {
      await scriptTurns('demo-key', [
        // `..` is the sandbox's throw-away /tmp or home folder (issue 21): the write that must fail is the one to /usr.
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ../outside-from-sandbox.txt /usr/outside-from-sandbox.txt' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: `curl -sS --max-time 5 ${emulatorRoot}/_emulator/requests` } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: "node -e \"require('fs').writeFileSync('sandbox-ok.txt', 'ok')\" && echo inside-ok" } }] },
        { text: 'Checked the sandbox.' },
      ]);
      const run = vscode.commands.executeCommand('gateway.agent.start', 'sandbox check');
      // curl is on the deny list, which stays a second line in auto: it asks. Approved, it still runs in the sandbox.
      await approveNext(gateway, /curl/);
      await waitFor(
        'the session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'sandbox check' && s.status === 'done'),
        60_000,
      ).catch(async (error: Error) => {
        const sent = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body.input?.[0]?.output);
        throw new Error(
          `${error.message}; sessions: ${JSON.stringify(await gateway.agentSessions())}; waiting: ${JSON.stringify(gateway.pendingApprovals())}; sent: ${JSON.stringify(sent)}`,
        );
      });
      await run;
      assertEqual(gateway.pendingApprovals().length, 0, 'approvals waiting');

      const outputs = (await emulatorRequests())
        .filter((r) => r.path === '/v1/responses')
        .slice(1)
        .map((r) => String(r.body.input[0].output));
      assertEqual(outputs.length, 3, 'tool results sent back');
      assert(/Read-only file system/.test(outputs[0]) && /Ran in the sandbox/.test(outputs[0]), `the model reads why the write failed: ${outputs[0]}`);
      assert(/Failed to connect|Couldn't connect|Connection refused/.test(outputs[1]) && !/"path"/.test(outputs[1]), `the network is closed: ${outputs[1]}`);
      assert(/^Exit code 0\./.test(outputs[2]) && /inside-ok/.test(outputs[2]), `work inside succeeds: ${outputs[2]}`);
      const outside = await vscode.workspace.fs.stat(vscode.Uri.joinPath(root(), '..', 'outside-from-sandbox.txt')).then(
        () => true,
        () => false,
      );
      assertEqual(outside, false, 'a file was created outside the workspace');
      assertEqual(await readDisk('sandbox-ok.txt'), 'ok', 'file written inside');
    } finally {
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
    }
  },
  { timeoutMs: 90_000 },
);

// Issue 11: a session on a model with a small window (gateway.models) compacts in the chat and goes on.
test(
  '/agent on a small window compacts: the summary request continues the chain, a new chain starts, the session finishes',
  async () => {
    const gateway = await api();
    await resetEmulator();
    const settings = vscode.workspace.getConfiguration('gateway');
    await settings.update('agent.approval', 'auto-edit', vscode.ConfigurationTarget.Global);
    await settings.update('models', { 'gw-code': { contextWindow: 4_000 } }, vscode.ConfigurationTarget.Global);
    const read = (startLine: number) => ({ toolCalls: [{ name: 'read_file', arguments: { path: 'compaction-e2e.txt', startLine } }] });
    try {
      await scriptTurns('demo-key', [
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'compaction-e2e.txt', content: 'a long line of the file to read again and again\n'.repeat(60) } },
          ],
        },
        read(1),
        read(2),
        read(3),
        read(4),
        { text: 'Read it all.' },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent read the long file a few times' });
      const session = await waitFor(
        'the session to finish after compacting',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'read the long file a few times' && s.status === 'done'),
        60_000,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}; sessions: ${JSON.stringify(await gateway.agentSessions())}`);
      });
      assert(session.compacted !== undefined && /^Compacted: [\d,]+ → [\d,]+ tokens$/.test(session.compacted), `the compaction notice: ${session.compacted}`);
      assert(/^context [\d.]+k? \/ 4k$/.test(session.context ?? ''), `context usage: ${session.context}`);
      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses');
      assert(
        bodies.every((r) => r.status === 200),
        `no request failed: ${bodies.map((r) => r.status).join(', ')}`,
      );
      const summary = bodies.findIndex((r) => r.body.tools === undefined);
      assert(summary > 0 && typeof bodies[summary].body.previous_response_id === 'string', 'the summary request continues the chain');
      assert(
        bodies[summary + 1].body.previous_response_id === undefined && /^\[This session was compacted/.test(bodies[summary + 1].body.input[0].content),
        'the next request starts a new chain from the summary',
      );
    } finally {
      await settings.update('models', undefined, vscode.ConfigurationTarget.Global);
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root(), 'compaction-e2e.txt')).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 90_000 },
);
