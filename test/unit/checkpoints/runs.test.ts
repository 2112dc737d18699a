// Each run of a session on its own budget, the loop guard after steering, and what "Revert" may restore.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { KeepOriginal } from '../../../src/checkpoints/common/originals';
import { CheckpointStore } from '../../../src/checkpoints/common/checkpoints';
import { revertSession } from '../../../src/checkpoints/common/sessionRevert';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';
import { addUserMessage, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import type { Clock } from '../../../src/base/common/ports';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { parseSavedSessionText } from '../../../src/sessionModel/common/savedSession';
import type { WorkspaceRestore } from '../../../src/checkpoints/common/checkpointPorts';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { VirtualClock } from '../helpers/clock';

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
  let storage: string;
  let checkpoints: CheckpointStore;
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'gateway-revert-checkpoints-'));
    checkpoints = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 10_000_000, now: () => 0, nonce: () => 'n1' });
  });
  afterEach(() => rmSync(storage, { recursive: true, force: true }));
  const keepOriginal: KeepOriginal = (path, before, signal) => checkpoints.keepOriginal(path, before, signal);
  const engine = (options: Partial<Parameters<typeof makeEngine>[0]> = {}) =>
    makeEngine({ baseUrl: emulator.baseUrl, workspace, keepOriginal, ...options }).engine;
  const revert = (state: AgentSessionState, restore: WorkspaceRestore = new NodeWorkspaceRestore(workspace.root)) =>
    revertSession(
      {
        state,
        checkpoints,
        workspace: { files: new NodeWorkspaceFiles(workspace.root), protectedFiles: defaultProtectedFiles },
        restore,
        save: () => Promise.resolve(),
      },
      new AbortController().signal,
    );
  const baselineText = async (path: string) => {
    const version = (await checkpoints.baseline(new AbortController().signal)).get(path);
    return version === null || version === undefined ? version : checkpoints.blob(version, new AbortController().signal);
  };

  test('an edit refused because the user changed the file meanwhile is not recorded; revert keeps their work', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'v0', new_text: 'agent' } }] }, { text: 'ok' }]);
    const approve = () => {
      writeFileSync(join(workspace.root, 'a.txt'), 'user work\n');
      return true;
    };
    const state = startSession('task');
    const events = await runToEnd(engine({ policy: askPolicy, approve }), state);
    const finished = events.find((e) => e.type === 'tool_finished');
    assert.ok(finished?.type === 'tool_finished' && !finished.outcome.ok);
    assert.deepEqual(state.originals, []);
    await revert(state);
    assert.equal(fileText('a.txt'), 'user work\n');
  });

  test('a create refused because the user created the file meanwhile is not recorded; revert keeps their file', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'agent\n' } }] }, { text: 'ok' }]);
    const approve = () => {
      writeFileSync(join(workspace.root, 'notes.md'), 'my notes\n');
      return true;
    };
    const state = startSession('task');
    await runToEnd(engine({ policy: askPolicy, approve }), state);
    assert.deepEqual(state.originals, []);
    await revert(state);
    assert.equal(fileText('notes.md'), 'my notes\n');
  });

  test('a write that happened records the content from before it, in the checkpoint baseline; the session lists only the path', async () => {
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
    await runToEnd(engine(), state);
    assert.deepEqual(state.originals, [
      { path: 'new/b.txt', existed: false },
      { path: 'a.txt', existed: true },
    ]);
    assert.equal(await baselineText('a.txt'), 'v0\n');
    assert.equal(await baselineText('new/b.txt'), null);
    await revert(state);
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
    await runToEnd(engine(), state);
    assert.equal(fileText('a.txt'), 'v2\n');
    assert.deepEqual(state.originals, [{ path: 'a.txt', existed: true }]);
    await revert(state);
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
      const recording: WorkspaceRestore = {
        stage: (path) => Promise.resolve(void writes.push(path)),
        commit: (path) => Promise.resolve(void writes.push(path)),
        remove: (path) => Promise.resolve(void writes.push(path)),
        discard: () => Promise.resolve(),
      };
      await assert.rejects(revert(doctored, recording), /Revert refused, nothing was changed/, bad);
      assert.deepEqual(writes, [], bad);
    }
    assert.equal(fileText('a.txt'), 'v0\n');
  });

  test('a file an older saved session recorded twice ends at its first version', async () => {
    writeFileSync(join(workspace.root, 'a.txt'), 'v2\n');
    const older = parseSavedSessionText(
      JSON.stringify({
        ...startSession('task'),
        originals: [{ path: 'a.txt', before: 'v0\n' }, { path: 'A-alias.txt' }, { path: 'a.txt', before: 'v1\n' }],
      }),
    )!;
    assert.deepEqual(await revert(older), ['a.txt', 'A-alias.txt']);
    assert.equal(fileText('a.txt'), 'v0\n');
  });

  test('a removal the disk refuses fails the revert instead of reporting it done', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'n\n' } }] }, { text: 'ok' }]);
    const state = startSession('task');
    await runToEnd(engine(), state);
    const inner = new NodeWorkspaceRestore(workspace.root);
    const refusing: WorkspaceRestore = {
      stage: (p, n, c, s) => inner.stage(p, n, c, s),
      commit: (p, n, s) => inner.commit(p, n, s),
      remove: () => Promise.reject(new Error('EACCES: permission denied')),
      discard: (p, n, s) => inner.discard(p, n, s),
    };
    await assert.rejects(revert(state, refusing), /EACCES/);
    assert.notEqual(state.statusReason?.startsWith('Reverted'), true);
    assert.equal(state.originals.length, 1, 'the session still offers the revert');
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
