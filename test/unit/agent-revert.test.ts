// "Revert session changes" on real files: what a session changed, created (and, through a command,
// deleted) is put back or left as before; a user's later edit, a protected or doctored path, a file
// reached through a symlink; and what the user is told.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../src/checkpoints/common/checkpoints';
import { revertSession } from '../../src/checkpoints/common/sessionRevert';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../src/checkpoints/node/nodeCheckpoints';
import { parseSavedSessionText } from '../../src/agent/common/savedSession';
import { addUserMessage, type AgentSessionState } from '../../src/agent/common/sessionState';
import { defaultProtectedFiles } from '../../src/tools/common/tool';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from './helpers/agent';

const signal = new AbortController().signal;
let emulator: Emulator;
let workspace: TempWorkspace;
let storage: string;
let checkpoints: CheckpointStore;
let saved: AgentSessionState[];

before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  storage = join(workspace.root, '..', `${workspace.root.split('/').pop()}-checkpoints`);
  checkpoints = newStore();
  saved = [];
  workspace.write('a.txt', 'v0\n');
  workspace.write('c.txt', 'c0\n');
});
afterEach(() => {
  workspace.dispose();
  rmSync(storage, { recursive: true, force: true });
});

const newStore = () => new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 10_000_000, now: () => 1_000, nonce: () => 'n1' });
const text = (path: string) => (existsSync(join(workspace.root, path)) ? readFileSync(join(workspace.root, path), 'utf8') : undefined);
const edit = (path: string, from: string, to: string) => ({ name: 'edit_file', arguments: { path, old_text: from, new_text: to } });
const create = (path: string, content: string) => ({ name: 'write_file', arguments: { path, content } });
const command = (line: string) => ({ name: 'run_command', arguments: { command: line } });

/** Runs a session whose steps make these calls, with its checkpoints recorded as the extension records them. */
async function runSession(steps: { name: string; arguments: Record<string, unknown> }[][], state = startSession('task')): Promise<AgentSessionState> {
  emulator.script('demo-key', [...steps.map((toolCalls) => ({ toolCalls })), { text: 'done' }]);
  const { engine } = makeEngine({
    baseUrl: emulator.baseUrl,
    workspace,
    checkpoint: async (current, changed, inner) => {
      const { checkpoint } = await checkpoints.capture(current, changed, new NodeWorkspaceFiles(workspace.root), inner);
      return { checkpoint: { id: checkpoint.id, label: checkpoint.label }, dropped: [] };
    },
    keepOriginal: (path, before, inner) => checkpoints.keepOriginal(path, before, inner),
  });
  await runToEnd(engine, state);
  return state;
}

function revert(state: AgentSessionState, store = checkpoints): Promise<string[]> {
  return revertSession(
    {
      state,
      checkpoints: store,
      workspace: { files: new NodeWorkspaceFiles(workspace.root), protectedFiles: defaultProtectedFiles },
      restore: new NodeWorkspaceRestore(workspace.root),
      save: async (state) => void saved.push(structuredClone(state)),
    },
    signal,
  );
}

describe('Revert session changes', () => {
  test('files the session changed go back, files it created go, a file a command deleted stays deleted; the user is told which', async () => {
    const state = await runSession([
      [edit('a.txt', 'v0', 'v1'), create('new/b.txt', 'b\n')],
      [edit('a.txt', 'v1', 'v2'), command('rm c.txt')],
    ]);
    assert.equal(text('a.txt'), 'v2\n');
    assert.equal(text('c.txt'), undefined);

    const reverted = await revert(state);

    assert.deepEqual(reverted, ['a.txt', 'new/b.txt'], 'in the order the session first changed them');
    assert.equal(text('a.txt'), 'v0\n');
    assert.equal(existsSync(join(workspace.root, 'new', 'b.txt')), false);
    assert.equal(text('c.txt'), undefined, 'a command is not undone by Revert');
    assert.equal(saved.length, 1);
    assert.equal(saved[0].statusReason, 'Reverted: a.txt, new/b.txt.');
    assert.deepEqual(saved[0].originals, [], 'nothing left to revert: the Sessions view no longer offers it');
    assert.deepEqual(await revert(saved[0]), []);
    assert.equal(saved[1].statusReason, 'Reverted: nothing to revert.');
  });

  test('a file the user changed after the session is put back all the same (the confirmation names it)', async () => {
    const state = await runSession([[edit('a.txt', 'v0', 'v1'), create('b.txt', 'b\n')]]);
    writeFileSync(join(workspace.root, 'a.txt'), 'user\n');
    writeFileSync(join(workspace.root, 'b.txt'), 'user b\n');
    assert.deepEqual(await revert(state), ['a.txt', 'b.txt']);
    assert.equal(text('a.txt'), 'v0\n');
    assert.equal(text('b.txt'), undefined);
  });

  test('a file the user deleted after the session is put back', async () => {
    const state = await runSession([[edit('a.txt', 'v0', 'v1')]]);
    rmSync(join(workspace.root, 'a.txt'));
    await revert(state);
    assert.equal(text('a.txt'), 'v0\n');
  });

  test('one file changed through a symlink and by its own path is put back once, by its real path; the link stays a link', async () => {
    symlinkSync('a.txt', join(workspace.root, 'alias.txt'));
    const state = await runSession([[edit('alias.txt', 'v0', 'v1')], [edit('a.txt', 'v1', 'v2')]]);
    assert.deepEqual(await revert(state), ['a.txt']);
    assert.equal(text('a.txt'), 'v0\n');
    assert.ok(lstatSync(join(workspace.root, 'alias.txt')).isSymbolicLink());
  });

  test('after a revert, what the session changes next is reverted to how it was then (a user edit in between stays)', async () => {
    const state = await runSession([[edit('a.txt', 'v0', 'v1')]]);
    await revert(state);
    writeFileSync(join(workspace.root, 'a.txt'), 'user v0\n');
    addUserMessage(saved[0], 'once more');
    const again = await runSession([[edit('a.txt', 'user v0', 'v2')]], saved[0]);
    assert.equal(text('a.txt'), 'v2\n');
    assert.deepEqual(await revert(again), ['a.txt']);
    assert.equal(text('a.txt'), 'user v0\n');
  });

  test('a saved session listing a protected file, or a path out of the folder, reverts nothing', async () => {
    const state = await runSession([[edit('a.txt', 'v0', 'v1')]]);
    mkdirSync(join(workspace.root, '.git'), { recursive: true });
    writeFileSync(join(workspace.root, '.env'), 'KEY=mine\n');
    for (const bad of ['.env', '.git/config', '../outside.txt', '/etc/hostname']) {
      const doctored = parseSavedSessionText(JSON.stringify({ ...state, originals: [...state.originals, { path: bad, before: 'pwned\n' }] }))!;
      await assert.rejects(revert(doctored), /Revert refused, nothing was changed/, bad);
      assert.equal(text('a.txt'), 'v1\n', bad);
      assert.equal(text('.env'), 'KEY=mine\n', bad);
      assert.equal(existsSync(join(workspace.root, '..', 'outside.txt')), false, bad);
    }
    assert.deepEqual(saved, [], 'the session is not told it was reverted');
  });
});
