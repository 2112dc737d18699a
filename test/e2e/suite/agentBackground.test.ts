// Issue 23, commands that do not end, in a real VS Code: under `auto` the scripted model starts a small HTTP
// server with `node -e` in the background (sandboxed, like any auto command), reads its output, stops it, and
// starts a second one it leaves running; the run's end stops that one. Both are looked for in the host's
// process table, not in the extension's bookkeeping.
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

/** Host processes whose command line holds `marker` (a child PID namespace's processes are visible from the host). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** A server that says where it listens, then that it is alive every 3 s (longer than the wait for quiet output). */
const server = (marker: string) =>
  `node -e "require('http').createServer((q, s) => s.end('pong')).listen(0, '127.0.0.1', function () { console.log('listening on ' + this.address().port) }); ` +
  `setInterval(() => console.log('alive'), 3000)" ${marker}`;

test(
  'auto: a server started in the background is read, stopped, and one left running is stopped when the run ends',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const first = `bg-e2e-${process.pid}-${Date.now()}-a`;
    const second = `bg-e2e-${process.pid}-${Date.now()}-b`;
    await resetEmulator();
    // Set here too, so the test also runs alone (E2E_GREP).
    const settings = vscode.workspace.getConfiguration('gateway');
    await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
    await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
    await settings.update('agent.approval', 'auto', vscode.ConfigurationTarget.Global);
    await scriptTurns('demo-key', [
      { toolCalls: [{ name: 'run_command', arguments: { command: server(first), background: true } }] },
      { toolCalls: [{ name: 'command_output', arguments: { id: 'bg1' } }] },
      { toolCalls: [{ name: 'command_output', arguments: { id: 'bg1', stop: true } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: server(second), background: true } }] },
      { text: 'The server started and answered; I stopped it.' },
    ]);
    const title = 'start the dev server in the background';
    const run = vscode.commands.executeCommand('gateway.agent.start', title);
    // The second server runs until the run ends: seen here before the end, gone after it.
    await waitFor('the second server to run', () => processesWith(second).length > 0 || undefined, 60_000);
    await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === title && s.status === 'done'), 60_000);
    await run;

    const outputs = (await emulatorRequests())
      .filter((r) => r.path === '/v1/responses')
      .slice(1)
      .map((r) => String(r.body.input[0].output));
    assertEqual(outputs.length, 4, 'tool results sent back');
    assert(/^Started in the background as bg1\.\n/.test(outputs[0]), `the start: ${outputs[0]}`);
    assert(/listening on \d+/.test(outputs[0]), `the first output: ${outputs[0]}`);
    assert(/Ran in the sandbox of the auto approval mode/.test(outputs[0]), `sandboxed like any auto command: ${outputs[0]}`);
    assert(/^Background command bg1, output so far:\n(alive\n)*alive\nStill running/.test(outputs[1]), `a later read: ${outputs[1]}`);
    assert(/^Background command bg1 was stopped/.test(outputs[2]), `the stop: ${outputs[2]}`);
    assert(/^Started in the background as bg2\./.test(outputs[3]), `the second start: ${outputs[3]}`);
    assertEqual(processesWith(first).length, 0, 'the stopped server is gone');
    await waitFor('the server left running to be gone after the run', () => processesWith(second).length === 0 || undefined, 10_000);
  },
  { timeoutMs: 120_000 },
);
