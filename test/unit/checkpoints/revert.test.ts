// "Revert session changes" on real files: what a session changed, created (and, through a command,
// deleted) is put back or left as before; a user's later edit, a protected or doctored path, a file
// reached through a symlink; and what the user is told.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/checkpoints/common/checkpoints';
import { finishRecoveredRevert, migrateSavedOriginals, revertSession } from '../../../src/checkpoints/common/sessionRevert';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';
import { parseSavedSessionText } from '../../../src/sessionModel/common/savedSession';
import { addUserMessage, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import type { CheckpointFolder, WorkspaceRestore } from '../../../src/checkpoints/common/checkpointPorts';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';

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

/** Dies (throws, and nothing runs after) at the n-th call of `method`; a dead process discards nothing. */
class Crash extends Error {}
function crashingRestore(inner: WorkspaceRestore, method: keyof WorkspaceRestore, at: number): WorkspaceRestore {
  let calls = 0;
  const dies = (name: keyof WorkspaceRestore) => name === method && ++calls === at;
  return {
    stage: (p, n, c, s) => (dies('stage') ? Promise.reject(new Crash('stage')) : inner.stage(p, n, c, s)),
    commit: (p, n, s) => (dies('commit') ? Promise.reject(new Crash('commit')) : inner.commit(p, n, s)),
    remove: (p, s) => (dies('remove') ? Promise.reject(new Crash('remove')) : inner.remove(p, s)),
    discard: () => Promise.reject(new Crash('process gone')),
  };
}

/** A folder whose n-th write of the journal never happens (the process died just before). */
function crashingFolder(inner: CheckpointFolder, journalWrite: number): CheckpointFolder {
  let writes = 0;
  return {
    putBlob: (t, s) => inner.putBlob(t, s),
    getBlob: (h, s) => inner.getBlob(h, s),
    blobSizes: (s) => inner.blobSizes(s),
    removeBlob: (h, s) => inner.removeBlob(h, s),
    read: (n, s) => inner.read(n, s),
    append: (n, t, s) => inner.append(n, t, s),
    writeAtomic: (n, t, s) => (n === 'journal' && ++writes === journalWrite ? Promise.reject(new Crash('journal')) : inner.writeAtomic(n, t, s)),
    remove: (n, s) => (n === 'journal' ? Promise.reject(new Crash('process gone')) : inner.remove(n, s)),
  };
}

describe('a crash in the middle of a revert recovers as a restore does: every file as before the revert, or every file reverted', () => {
  const SESSION = ['v1\n', 'c1\n', 'b\n'];
  const REVERTED = ['v0\n', 'c0\n', undefined];
  const onDisk = () => [text('a.txt'), text('c.txt'), text('new/b.txt')];
  const entries = () => readdirSync(workspace.root, { recursive: true }).map(String);
  const cases: { name: string; crash: () => { restore: WorkspaceRestore; folder: CheckpointFolder }; expect: (string | undefined)[] }[] = [
    { name: 'while staging the second file', crash: () => ({ restore: crashingRestore(realRestore(), 'stage', 2), folder: realFolder() }), expect: SESSION },
    { name: 'after staging, before the commit record', crash: () => ({ restore: realRestore(), folder: crashingFolder(realFolder(), 2) }), expect: SESSION },
    { name: 'after the first rename', crash: () => ({ restore: crashingRestore(realRestore(), 'commit', 2), folder: realFolder() }), expect: REVERTED },
    {
      name: 'before the removal of a created file',
      crash: () => ({ restore: crashingRestore(realRestore(), 'remove', 1), folder: realFolder() }),
      expect: REVERTED,
    },
    { name: 'after the files and the index, before the session was saved', crash: () => ({ restore: realRestore(), folder: realFolder() }), expect: REVERTED },
  ];
  const realRestore = () => new NodeWorkspaceRestore(workspace.root);
  const realFolder = () => new NodeCheckpointFolder(storage);
  const recoveryWorkspace = () => ({ files: new NodeWorkspaceFiles(workspace.root), protectedFiles: defaultProtectedFiles });

  for (const { name, crash, expect } of cases) {
    test(name, async () => {
      const state = await runSession([[edit('a.txt', 'v0', 'v1'), edit('c.txt', 'c0', 'c1'), create('new/b.txt', 'b\n')]]);
      const sessions = savedSessions(state);
      const { restore, folder } = crash();
      const dying = new CheckpointStore(folder, { maxBytes: 10_000_000, now: () => 1_000, nonce: () => 'n1' });
      // The last case dies when the session is saved: its files and index are in place.
      const save = () => Promise.reject(new Crash('save'));
      await assert.rejects(revertSession({ state: structuredClone(state), checkpoints: dying, workspace: recoveryWorkspace(), restore, save }, signal), Crash);

      // The window reloads: startup recovery on a new store finishes or rolls back the revert, and the session follows its files.
      const reloaded = newStore();
      const recovery = await reloaded.recover(realRestore(), signal, recoveryWorkspace());
      assert.equal(recovery.recovered, true);
      if (recovery.reverted) await finishRecoveredRevert(state.id, recovery.reverted, { sessions, checkpoints: reloaded }, signal);
      assert.deepEqual(onDisk(), expect);
      assert.ok(!entries().some((e) => e.includes('gw-restore')), `no staged file left: ${entries().join(', ')}`);
      const after = (await sessions.load(state.id))!;
      if (expect === REVERTED) {
        assert.deepEqual(recovery.reverted, ['a.txt', 'c.txt', 'new/b.txt']);
        assert.deepEqual(after.originals, []);
        assert.equal(after.statusReason, 'Reverted: a.txt, c.txt, new/b.txt.');
      } else {
        assert.equal(recovery.reverted, undefined);
        assert.equal(after.originals.length, 3, 'nothing was reverted: the session still offers it');
      }
      assert.equal(existsSync(join(storage, 'journal.json')), false);
      assert.deepEqual(await reloaded.recover(realRestore(), signal, recoveryWorkspace()), { recovered: false });
      // Either way the revert can be made (again): the files end as before the session.
      checkpoints = reloaded;
      await revert(after);
      assert.deepEqual(onDisk(), REVERTED);
    });
  }
});

/** Saved sessions in memory, as the session store keeps them (each load a fresh copy). */
function savedSessions(...states: AgentSessionState[]) {
  const byId = new Map(states.map((state) => [state.id, JSON.stringify(state)]));
  return {
    load: (id: string) => Promise.resolve(byId.has(id) ? parseSavedSessionText(byId.get(id)!) : undefined),
    replace: (state: AgentSessionState) => Promise.resolve(void byId.set(state.id, JSON.stringify(state))),
    text: (id: string) => byId.get(id),
  };
}

describe('a session saved by an older version, with its originals text', () => {
  /** As versions before issue 22 saved it: each original with its full text (none for a file the session created). */
  const oldFormat = (originals: unknown[]) =>
    JSON.stringify({
      id: 'old-1',
      title: 'an old task',
      model: 'gw-code',
      createdAt: 1,
      updatedAt: 2,
      status: 'done',
      transcript: [{ role: 'user', content: 'an old task' }],
      unsent: [],
      pendingCalls: [],
      turns: 1,
      usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: 0, totalTokens: 2 },
      activeMs: 5,
      originals,
      commandsRun: [],
    });
  const BIG = `${'the original line\n'.repeat(20_000)}`;

  test('on load its originals go into the checkpoint baseline and out of the session; then it reverts', async () => {
    workspace.write('big.txt', 'rewritten\n');
    workspace.write('new/b.txt', 'b\n');
    const sessions = savedSessions();
    await sessions.replace(parseSavedSessionText(oldFormat([{ path: 'big.txt', before: BIG }, { path: 'new/b.txt' }]))!);
    assert.ok(sessions.text('old-1')!.length > BIG.length);

    assert.equal(await migrateSavedOriginals('old-1', sessions, checkpoints, signal), true);

    const migrated = (await sessions.load('old-1'))!;
    assert.deepEqual(migrated.originals, [
      { path: 'big.txt', existed: true },
      { path: 'new/b.txt', existed: false },
    ]);
    assert.ok(sessions.text('old-1')!.length < 2_000, `the saved session is ${sessions.text('old-1')!.length} characters`);
    const baseline = await checkpoints.baseline(signal);
    assert.equal(await checkpoints.blob(baseline.get('big.txt')!, signal), BIG);
    assert.equal(baseline.get('new/b.txt'), null);
    assert.equal(await migrateSavedOriginals('old-1', sessions, checkpoints, signal), false, 'once');

    assert.deepEqual(await revert(migrated), ['big.txt', 'new/b.txt']);
    assert.equal(text('big.txt'), BIG);
    assert.equal(text('new/b.txt'), undefined);
    assert.equal(saved[0].statusReason, 'Reverted: big.txt, new/b.txt.');
  });

  test('reverted straight from the file as it was saved (not migrated yet), and when its checkpoints already hold the file', async () => {
    const state = await runSession([[edit('a.txt', 'v0', 'v1')]]);
    const older = parseSavedSessionText(
      oldFormat([
        { path: 'a.txt', before: 'v0\n' },
        { path: 'c.txt', before: 'c0\n' },
      ]),
    )!;
    writeFileSync(join(workspace.root, 'c.txt'), 'c1\n');
    assert.deepEqual(await revert({ ...older, id: state.id }), ['a.txt', 'c.txt']);
    assert.deepEqual([text('a.txt'), text('c.txt')], ['v0\n', 'c0\n']);
    assert.deepEqual(saved[0].originals, []);
  });

  test('a session of today keeps only paths, whatever the size of the files it changes', async () => {
    workspace.write('big.txt', BIG);
    const state = await runSession([[edit('big.txt', 'the original line', 'a changed line')]]);
    const json = JSON.stringify(state);
    assert.ok(!json.includes('the original line\nthe original line'), 'no copy of the file in the session');
    assert.ok(json.length < 5_000, `the session is ${json.length} characters`);
    await revert(state);
    assert.equal(text('big.txt'), BIG);
  });
});
