// Each run of a session on its own budget, the loop guard after steering, and what "Revert" may restore.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { appliedOrThrow, EditRefusedError } from '../../src/agent/common/editRefusal';
import { revertOriginals } from '../../src/checkpoints/common/originals';
import { addUserMessage } from '../../src/agent/common/sessionState';
import type { Clock } from '../../src/base/common/ports';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { defaultProtectedFiles } from '../../src/tools/common/tool';
import { parseSavedSessionText } from '../../src/agent/common/savedSession';
import type { FileChanges } from '../../src/base/common/ports';
import { startEmulator, type Emulator } from '../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from './helpers/agent';
import { VirtualClock } from './helpers/clock';

let emulator: Emulator;
let workspace: TempWorkspace;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  workspace.write('a.txt', 'v0\n');
});
afterEach(() => workspace.dispose());

const responseBodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
const fileText = (path: string) => readFileSync(join(workspace.root, path), 'utf8');
const read = { name: 'read_file', arguments: { path: 'a.txt' } };
const list = { name: 'list_files', arguments: {} };
const revert = (originals: Parameters<typeof revertOriginals>[0]) =>
  revertOriginals(originals, new NodeFileChanges(workspace.root), new AbortController().signal, {
    files: new NodeWorkspaceFiles(workspace.root),
    protectedFiles: defaultProtectedFiles,
  });

describe('budgets count each run', () => {
  test('after a turn-budget stop, continuing with the same budget runs again', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { toolCalls: [list] }, { toolCalls: [read] }, { text: 'done' }]);
    const state = startSession('task');
    const engine = () => makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTurns: 2 } }).engine;
    await runToEnd(engine(), state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /This run used its 2 turns .*Continue the session to allow 2 more/);
    await runToEnd(engine(), state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(responseBodies().length, 4);
    assert.equal(state.turns, 4, 'the session total still counts every turn');
  });

  test('after a token-budget stop, continuing runs again', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { text: 'done' }]);
    const state = startSession('task');
    const engine = () => makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTokens: 5 } }).engine;
    await runToEnd(engine(), state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /This run used \d+ tokens, its budget is 5 .*Continue the session to allow 5 more/);
    const spent = state.usage.totalTokens;
    await runToEnd(engine(), state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(responseBodies().length, 2);
    assert.ok(state.usage.totalTokens > spent, 'the session total still counts every token');
  });

  test("time waiting for the user's approval is not charged to the time budget", async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async () => undefined, after: () => undefined };
    emulator.script('demo-key', [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v0', new_text: 'v1' } }] }, { text: 'done' }]);
    const state = startSession('task');
    const approve = () => {
      now += 31 * 60_000;
      return true;
    };
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, clock, policy: { mode: 'ask', deniedCommands: [] }, approve }).engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(state.activeMs, 0);
  });

  test('after a time-budget stop, continuing runs again', async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async () => undefined, after: () => undefined };
    emulator.script('demo-key', [{ toolCalls: [read] }, { toolCalls: [list] }, { text: 'done' }]);
    const state = startSession('task');
    // Every answer takes 31 minutes: over the 30-minute default, so each run stops after one turn.
    const runOnce = () =>
      makeEngine({ baseUrl: emulator.baseUrl, workspace, clock }).engine.run(state, new AbortController().signal, (event) => {
        if (event.type === 'turn') now += 31 * 60_000;
      });
    await runOnce();
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /This run ran for 31 min \(not counting waits for your approval\)/);
    await runOnce();
    assert.equal(responseBodies().length, 2);
    assert.equal(state.status, 'stopped');
    assert.equal(state.activeMs, 62 * 60_000, 'the session total still counts all the time');
  });
});

describe('the time budget during a turn', () => {
  test('a turn still streaming when the budget passes is ended then, and the run stops with the budget reason', { timeout: 20_000 }, async () => {
    const clock = new VirtualClock({ manual: true });
    emulator.script('demo-key', [{ text: 'a long answer that never finishes' }]);
    emulator.fault('demo-key', { kind: 'stall', afterDeltas: 1, endpoint: 'responses' });
    const state = startSession('task');
    const run = runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, clock, budgets: { maxWallTimeMs: 60_000 } }).engine, state);
    await waitUntil(() => emulator.requests.some((r) => r.path === '/v1/responses') && clock.waiting > 0);
    clock.advance(59_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(state.status, 'running', 'still inside the budget');
    clock.advance(1_000);
    await run;
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /This run ran for 1 min .*"gateway\.agent\.maxMinutes"/);
  });

  test('a command still running when the budget passes is stopped', { timeout: 20_000 }, async () => {
    const clock = new VirtualClock({ manual: true });
    emulator.script('demo-key', [{ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 30', timeout: 60 } }] }, { text: 'never' }]);
    const state = startSession('task');
    const run = runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, clock, budgets: { maxWallTimeMs: 60_000 } }).engine, state);
    await waitUntil(() => state.commandsRun.length > 0);
    clock.advance(60_000);
    await run;
    assert.equal(state.status, 'stopped');
    assert.equal(emulator.requests.filter((r) => r.path === '/v1/responses').length, 1, 'no turn after the budget');
  });

  test('the clock standing still while the user is asked is not charged', { timeout: 20_000 }, async () => {
    const clock = new VirtualClock({ manual: true });
    emulator.script('demo-key', [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v0', new_text: 'v1' } }] }, { text: 'done' }]);
    const state = startSession('task');
    const approve = async () => {
      clock.advance(10 * 60_000);
      await new Promise((resolve) => setImmediate(resolve));
      return true;
    };
    await runToEnd(
      makeEngine({ baseUrl: emulator.baseUrl, workspace, clock, budgets: { maxWallTimeMs: 60_000 }, policy: { mode: 'ask', deniedCommands: [] }, approve })
        .engine,
      state,
    );
    assert.equal(state.status, 'done', state.statusReason);
  });
});

/** Polls real time briefly for something the emulator or a child process does (not the clock under test). */
async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), 'timed out');
}

describe('the loop guard after the user steers', () => {
  test('the same call runs again once the user has added a message', async () => {
    workspace.write('log.txt', '');
    const append = { name: 'run_command', arguments: { command: 'echo run >> log.txt' } };
    emulator.script('demo-key', [{ toolCalls: [append] }, { toolCalls: [append] }, { toolCalls: [append] }, { toolCalls: [append] }, { text: 'fixed' }]);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, state);
    assert.equal(state.status, 'stopped');
    assert.equal(fileText('log.txt'), 'run\nrun\n');
    addUserMessage(state, 'I fixed the environment, run it again');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(fileText('log.txt'), 'run\nrun\nrun\n');
  });
});

describe('what Revert may restore', () => {
  const askPolicy = { mode: 'ask' as const, deniedCommands: [] };

  test('an edit refused because the user changed the file meanwhile is not recorded; revert keeps their work', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v0', new_text: 'agent' } }] }, { text: 'ok' }]);
    const approve = () => {
      writeFileSync(join(workspace.root, 'a.txt'), 'user work\n');
      return true;
    };
    const state = startSession('task');
    const events = await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: askPolicy, approve }).engine, state);
    const finished = events.find((e) => e.type === 'tool_finished');
    assert.ok(finished?.type === 'tool_finished' && !finished.outcome.ok);
    assert.deepEqual(state.originals, []);
    await revert(state.originals);
    assert.equal(fileText('a.txt'), 'user work\n');
  });

  test('a create refused because the user created the file meanwhile is not recorded; revert keeps their file', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'agent\n' } }] }, { text: 'ok' }]);
    const approve = () => {
      writeFileSync(join(workspace.root, 'notes.md'), 'my notes\n');
      return true;
    };
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: askPolicy, approve }).engine, state);
    assert.deepEqual(state.originals, []);
    await revert(state.originals);
    assert.equal(fileText('notes.md'), 'my notes\n');
  });

  test('a write that happened records the content from before it', async () => {
    emulator.script('demo-key', [
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'new/b.txt', content: 'b\n' } },
          { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v0', new_text: 'v1' } },
        ],
      },
      { text: 'ok' },
    ]);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, state);
    assert.deepEqual(state.originals, [
      { path: 'new/b.txt', before: undefined },
      { path: 'a.txt', before: 'v0\n' },
    ]);
    await revert(state.originals);
    assert.equal(fileText('a.txt'), 'v0\n');
    assert.equal(existsSync(join(workspace.root, 'new/b.txt')), false);
  });

  test('one file changed through a symlink and its own path is recorded once, by its real path, and reverts to the first version', async () => {
    symlinkSync('a.txt', join(workspace.root, 'alias.txt'));
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'alias.txt', old_text: 'v0', new_text: 'v1' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v1', new_text: 'v2' } }] },
      { text: 'ok' },
    ]);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, state);
    assert.equal(fileText('a.txt'), 'v2\n');
    assert.deepEqual(state.originals, [{ path: 'a.txt', before: 'v0\n' }]);
    await revert(state.originals);
    assert.equal(fileText('a.txt'), 'v0\n');
  });

  // Item 10 of issue 10: the VS Code adapter joined these with Uri.joinPath, which resolves `..`, and wrote outside.
  test('a doctored session file cannot make revert write outside the folder, or into a protected file: nothing is written', async () => {
    symlinkSync('..', join(workspace.root, 'up'));
    for (const bad of ['../outside.txt', '/etc/passwd', 'a/../../outside.txt', 'up/outside.txt', '.git/hooks/pre-commit', '.env', 'a\\..\\..\\x', './a.txt']) {
      const text = JSON.stringify({
        ...startSession('task'),
        originals: [
          { path: 'a.txt', before: 'overwritten\n' },
          { path: bad, before: 'pwned\n' },
        ],
      });
      const doctored = parseSavedSessionText(text);
      assert.ok(doctored, 'the doctored file still parses as a session');
      const writes: string[] = [];
      const recording: FileChanges = {
        write: (path) => Promise.resolve(void writes.push(path)),
        delete: (path) => Promise.resolve(void writes.push(path)),
      };
      const workspaceCheck = { files: new NodeWorkspaceFiles(workspace.root), protectedFiles: defaultProtectedFiles };
      await assert.rejects(
        revertOriginals(doctored.originals, recording, new AbortController().signal, workspaceCheck),
        /Revert refused, nothing was changed/,
        bad,
      );
      assert.deepEqual(writes, [], bad);
    }
    assert.equal(fileText('a.txt'), 'v0\n');
  });

  test('revert goes newest first, so a file recorded twice (an older saved session) ends at its first version', async () => {
    writeFileSync(join(workspace.root, 'a.txt'), 'v2\n');
    const reverted = await revert([
      { path: 'a.txt', before: 'v0\n' },
      { path: 'A-alias.txt', before: undefined },
      { path: 'a.txt', before: 'v1\n' },
    ]);
    assert.equal(fileText('a.txt'), 'v0\n');
    assert.deepEqual(reverted, ['a.txt', 'A-alias.txt', 'a.txt']);
  });

  test('a delete the host refuses (applyEdit answering false) fails the revert instead of reporting it done', async () => {
    // The host's side as VsCodeFileChanges has it: an edit API that answers false for a refusal.
    const refusingHost: FileChanges = {
      write: (path) => appliedOrThrow(Promise.resolve(true), `VS Code refused the edit of ${path}.`),
      delete: (path) => appliedOrThrow(Promise.resolve(false), `VS Code refused to delete ${path}.`),
    };
    const reverting = revertOriginals(
      [
        { path: 'a.txt', before: 'v0\n' },
        { path: 'new.txt', before: undefined },
      ],
      refusingHost,
      new AbortController().signal,
      {
        files: new NodeWorkspaceFiles(workspace.root),
        protectedFiles: defaultProtectedFiles,
      },
    );
    await assert.rejects(reverting, (error) => error instanceof EditRefusedError && error.message === 'VS Code refused to delete new.txt.');
    await appliedOrThrow(Promise.resolve(true), 'not thrown when applied');
  });
});

describe('a command line the parser cannot take apart', () => {
  test('in auto mode it asks instead of pausing the session with a stack overflow', async () => {
    const line = `echo ${'${'.repeat(5000)}`;
    emulator.script('demo-key', [{ toolCalls: [{ name: 'run_command', arguments: { command: line } }] }, { text: 'ok' }]);
    const state = startSession('task');
    const { engine, approvals } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      policy: { mode: 'auto', deniedCommands: ['rm -rf'], commandsSandboxed: true },
      approve: () => false,
    });
    await runToEnd(engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.deepEqual(
      approvals.map((a) => a.command?.line),
      [line],
    );
    assert.deepEqual(state.commandsRun, []);
  });
});
