// The checkpoint store on a real disk: blobs stored once, the size bound, restores that are all
// or nothing across a crash, the user's edits never overwritten unasked, and a store that
// survives a reload (a new instance on the same folder).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore, CheckpointUnavailable, type CheckpointStoreOptions } from '../../../src/checkpoints/common/checkpoints';
import { newSession, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import type { CheckpointFolder, WorkspaceRestore } from '../../../src/checkpoints/common/checkpointPorts';
import { KEEP_MINE, OVERWRITE, asksBeforeRestore, restoreQuestion } from '../../../src/checkpoints/common/checkpointMessages';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';

const signal = new AbortController().signal;
let dir: string;
let root: string;
let storage: string;
let nonces = 0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-checkpoints-'));
  root = join(dir, 'workspace');
  storage = join(dir, 'storage', 'session-1');
  mkdirSync(root);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (maxBytes = 10_000_000): CheckpointStoreOptions => ({ maxBytes, now: () => 1_000, nonce: () => `n${++nonces}` });
const storeOn = (folder: CheckpointFolder = new NodeCheckpointFolder(storage), maxBytes?: number) => new CheckpointStore(folder, options(maxBytes));
const files = () => new NodeWorkspaceFiles(root);
const workspace = () => ({ files: files(), protectedFiles: ['.env'] });
const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);
const blobs = () => (existsSync(join(storage, 'blobs')) ? readdirSync(join(storage, 'blobs')).filter((n) => !n.endsWith('.tmp')) : []);
const workspaceEntries = () => readdirSync(root, { recursive: true }).map(String).sort();

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** One agent step: the files written (their originals recorded as the engine does), a response and its call outputs. */
function step(state: AgentSessionState, edits: Record<string, string>, command?: string): string[] {
  state.turns++;
  state.previousResponseId = `resp_${state.turns}`;
  state.transcript.push({ type: 'function_call', call_id: `c${state.turns}`, name: 'write_file', arguments: '{}' });
  for (const [path, text] of Object.entries(edits)) {
    if (!state.originals.some((o) => o.path === path)) state.originals.push({ path, existed: read(path) !== undefined, before: read(path) });
    write(path, text);
  }
  if (command) state.commandsRun.push(command);
  const output = { type: 'function_call_output' as const, call_id: `c${state.turns}`, output: 'ok' };
  state.transcript.push(output);
  state.unsent = [output];
  return Object.keys(edits);
}

async function session(): Promise<AgentSessionState> {
  const state = newSession({ id: 'session-1', title: 'task', model: 'gw-code', now: 0 });
  state.transcript.push({ role: 'user', content: 'edit a and b' });
  return state;
}

/** Three steps: a.ts, then b.ts, then a.ts again; returns the checkpoint ids. */
async function threeSteps(store: CheckpointStore, state: AgentSessionState): Promise<number[]> {
  write('src/a.ts', 'a0');
  write('src/b.ts', 'b0');
  const ids: number[] = [];
  const steps: Record<string, string>[] = [{ 'src/a.ts': 'a1' }, { 'src/b.ts': 'b2' }, { 'src/a.ts': 'a3' }];
  for (const edits of steps) {
    ids.push((await store.capture(state, step(state, edits), files(), signal)).checkpoint.id);
  }
  return ids;
}

describe('checkpoint store', () => {
  test('a file a step did not change costs nothing: each content is one blob, shared by every checkpoint', async () => {
    const store = storeOn();
    const state = await session();
    await threeSteps(store, state);
    const before = blobs().length;
    // A step that writes a.ts back to a content already stored adds no file blob.
    await store.capture(state, step(state, { 'src/a.ts': 'a1' }), files(), signal);
    const contents = blobs().map((name) => readFileSync(join(storage, 'blobs', name), 'utf8'));
    for (const text of ['a0', 'b0', 'a1', 'b2', 'a3']) assert.equal(contents.filter((c) => c === text).length, 1, `${text} stored once`);
    // The new checkpoint added only its conversation (a transcript slice and the chain fields).
    assert.equal(blobs().length, before + 2);
    const [first, , , fourth] = await store.list(signal);
    assert.equal(first.files.get('src/b.ts'), undefined, 'step 1 had not touched b.ts');
    assert.equal(fourth.files.get('src/b.ts'), (await store.list(signal))[1].files.get('src/b.ts'), 'b.ts unchanged since step 2: the same blob');
    assert.deepEqual(workspaceEntries(), ['src', 'src/a.ts', 'src/b.ts'], 'nothing added to the workspace');
  });

  test('past the size bound the oldest checkpoints are dropped, said, and their blobs removed', async () => {
    const big = (c: string) => c.repeat(4_000);
    const store = storeOn(undefined, 13_000);
    const state = await session();
    write('big.txt', big('0'));
    const results = [];
    for (const c of ['1', '2', '3']) results.push(await store.capture(state, step(state, { 'big.txt': big(c) }), files(), signal));
    assert.deepEqual(results[0].dropped, []);
    // Baseline (4 kB) + step 1 (4 kB) + step 2 (4 kB) + transcripts fit; step 3 does not: step 1 goes.
    assert.deepEqual(
      results[2].dropped.map((d) => d.label),
      ['Step 1: big.txt'],
    );
    assert.deepEqual(
      (await store.list(signal)).map((c) => c.label),
      ['Step 2: big.txt', 'Step 3: big.txt'],
    );
    assert.deepEqual(
      (await store.dropped(signal)).map((d) => d.label),
      ['Step 1: big.txt'],
    );
    const contents = blobs().map((name) => readFileSync(join(storage, 'blobs', name), 'utf8'));
    assert.ok(!contents.includes(big('1')), 'the dropped step’s content is gone');
    assert.ok(contents.includes(big('0')), 'the state before the session is kept: the review and a full revert need it');
  });

  test('a long session stays bounded in the index too: at most maxCheckpoints, and transcript slices folded into one', async () => {
    const store = new CheckpointStore(new NodeCheckpointFolder(storage), { ...options(), maxCheckpoints: 3, maxSegments: 2 });
    const state = await session();
    write('src/a.ts', 'a0');
    for (let i = 1; i <= 5; i++) await store.capture(state, step(state, { 'src/a.ts': `a${i}` }), files(), signal);
    const kept = await store.list(signal);
    assert.deepEqual(
      kept.map((c) => c.label),
      ['Step 3: src/a.ts', 'Step 4: src/a.ts', 'Step 5: src/a.ts'],
    );
    assert.ok(
      kept.every((c) => c.conversation.segments.length <= 2),
      JSON.stringify(kept.map((c) => c.conversation.segments.length)),
    );
    // Folded or not, each checkpoint's conversation is whole.
    for (const checkpoint of kept) {
      const conversation = await store.conversationAt(state, checkpoint, signal);
      assert.equal(conversation.previousResponseId, `resp_${checkpoint.turn}`);
      assert.equal(conversation.transcript.length, 1 + 2 * checkpoint.turn);
    }
  });

  test('restore puts every touched file back as it was at that step and hands back the conversation there', async () => {
    const store = storeOn();
    const state = await session();
    const [first] = await threeSteps(store, state);
    const plan = await store.planRestore(state, first, workspace(), signal);
    assert.deepEqual(
      plan.files.map((f) => f.path),
      ['src/a.ts', 'src/b.ts'],
    );
    assert.deepEqual(plan.conflicts, []);
    const result = await store.restore(state, plan, false, new NodeWorkspaceRestore(root), signal);
    assert.deepEqual([read('src/a.ts'), read('src/b.ts')], ['a1', 'b0']);
    assert.deepEqual(result.written, ['src/a.ts', 'src/b.ts']);
    const conversation = await store.conversationAt(state, plan.target, signal);
    assert.equal(conversation.previousResponseId, 'resp_1');
    assert.equal(conversation.transcript.length, 3);
    assert.deepEqual(conversation.unsent, [{ type: 'function_call_output', call_id: 'c1', output: 'ok' }]);
    assert.equal((await store.pendingRewind(signal))?.id, first);
    assert.ok(existsSync(join(storage, 'journal.json')), 'the journal stays until the session has taken the conversation');
    await store.rewound(signal);
    assert.equal(await store.pendingRewind(signal), undefined);
    assert.equal(existsSync(join(storage, 'journal.json')), false);
    assert.deepEqual(workspaceEntries(), ['src', 'src/a.ts', 'src/b.ts'], 'no staged file left behind');
  });

  test('steps are numbered 1, 2… whatever their turns; undoing a restore, and undoing that, never nests the label (issue 27)', async () => {
    const store = storeOn();
    const state = await session();
    write('src/a.ts', 'a0');
    state.turns = 2; // turns that changed no file made no checkpoint
    const first = (await store.capture(state, step(state, { 'src/a.ts': 'a1' }), files(), signal)).checkpoint;
    state.turns = 4;
    const second = (await store.capture(state, step(state, { 'src/a.ts': 'a2' }), files(), signal)).checkpoint;
    assert.deepEqual([first.label, second.label], ['Step 1: src/a.ts', 'Step 2: src/a.ts']);
    const restored = await store.restore(state, await store.planRestore(state, first.id, workspace(), signal), false, new NodeWorkspaceRestore(root), signal);
    assert.equal(restored.undo.label, 'Before restoring to step 1');
    await store.rewound(signal);
    const undoPlan = await store.planRestore(state, restored.undo.id, workspace(), signal);
    // The undo asks nothing more (nobody changed a file since): had it asked, its button would say "Undo Restore".
    assert.equal(asksBeforeRestore(undoPlan), false);
    assert.deepEqual(restoreQuestion(undoPlan).buttons, ['Undo Restore']);
    write('src/a.ts', 'my edit');
    assert.equal(asksBeforeRestore(await store.planRestore(state, restored.undo.id, workspace(), signal)), true, 'a file changed since: asked');
    write('src/a.ts', 'a1');
    const undone = await store.restore(state, undoPlan, false, new NodeWorkspaceRestore(root), signal);
    assert.equal(undone.undo.label, 'Before undoing the restore to step 1');
    await store.rewound(signal);
    const redone = await store.restore(
      state,
      await store.planRestore(state, undone.undo.id, workspace(), signal),
      false,
      new NodeWorkspaceRestore(root),
      signal,
    );
    assert.equal(redone.undo.label, 'Before restoring to step 1');
    assert.equal(read('src/a.ts'), 'a1');
  });

  test('a file the user changed since is named and kept when asked; the restore is undone, the user edit still there', async () => {
    const store = storeOn();
    const state = await session();
    const [first] = await threeSteps(store, state);
    write('src/b.ts', 'b2 + my edit');
    const plan = await store.planRestore(state, first, { ...workspace(), isUnsaved: () => false }, signal);
    assert.deepEqual(
      plan.conflicts.map((f) => f.path),
      ['src/b.ts'],
    );
    const result = await store.restore(state, plan, true, new NodeWorkspaceRestore(root), signal);
    assert.deepEqual(result.kept, ['src/b.ts']);
    assert.deepEqual([read('src/a.ts'), read('src/b.ts')], ['a1', 'b2 + my edit']);
    // Undo: the restore's own checkpoint holds the state before it.
    const undo = await store.planRestore(state, result.undo.id, workspace(), signal);
    assert.deepEqual(undo.conflicts, [], 'the kept file is as the restore left it: no question');
    await store.restore(state, undo, false, new NodeWorkspaceRestore(root), signal);
    assert.deepEqual([read('src/a.ts'), read('src/b.ts')], ['a3', 'b2 + my edit']);
    const conversation = await store.conversationAt(state, undo.target, signal);
    assert.equal(conversation.previousResponseId, 'resp_3');
    assert.equal(conversation.transcript.length, 7);
  });

  test('an unsaved editor counts as the user’s change; commands after the checkpoint are named', async () => {
    const store = storeOn();
    const state = await session();
    write('src/a.ts', 'a0');
    const first = (await store.capture(state, step(state, { 'src/a.ts': 'a1' }), files(), signal)).checkpoint.id;
    await store.capture(state, step(state, { 'src/a.ts': 'a2' }, 'npm test'), files(), signal);
    const plan = await store.planRestore(state, first, { ...workspace(), isUnsaved: (p) => p === 'src/a.ts' }, signal);
    assert.deepEqual(
      plan.conflicts.map((f) => [f.path, f.unsaved]),
      [['src/a.ts', true]],
    );
    assert.deepEqual(plan.commandsAfter, ['npm test']);
    const question = restoreQuestion(plan);
    assert.equal(question.message, 'Restore the session to step 1?');
    assert.match(question.detail, /You changed src\/a\.ts since the agent did \(src\/a\.ts unsaved in an editor\)/);
    assert.match(question.detail, /Commands ran after that point \(npm test\): .*cannot be undone/);
    assert.deepEqual(question.buttons, [KEEP_MINE, OVERWRITE]);
  });

  test('a file created by the session is removed by a restore to before it, and comes back on undo', async () => {
    const store = storeOn();
    const state = await session();
    write('src/a.ts', 'a0');
    const first = (await store.capture(state, step(state, { 'src/a.ts': 'a1' }), files(), signal)).checkpoint.id;
    await store.capture(state, step(state, { 'src/new.ts': 'created' }), files(), signal);
    const plan = await store.planRestore(state, first, workspace(), signal);
    const result = await store.restore(state, plan, false, new NodeWorkspaceRestore(root), signal);
    assert.equal(read('src/new.ts'), undefined);
    await store.restore(state, await store.planRestore(state, result.undo.id, workspace(), signal), false, new NodeWorkspaceRestore(root), signal);
    assert.equal(read('src/new.ts'), 'created');
  });

  test('checkpoints survive a reload: a new store on the same folder lists and restores them', async () => {
    const state = await session();
    const [first] = await threeSteps(storeOn(), state);
    const reloaded = storeOn();
    assert.deepEqual(
      (await reloaded.list(signal)).map((c) => c.label),
      ['Step 1: src/a.ts', 'Step 2: src/b.ts', 'Step 3: src/a.ts'],
    );
    await reloaded.restore(state, await reloaded.planRestore(state, first, workspace(), signal), false, new NodeWorkspaceRestore(root), signal);
    assert.deepEqual([read('src/a.ts'), read('src/b.ts')], ['a1', 'b0']);
  });

  test('a restore path from a doctored index is refused before anything changes', async () => {
    const state = await session();
    const [first] = await threeSteps(storeOn(), state);
    // The index whole and every line of its log since (the last one holds the baseline now).
    const doctored = (text: string) => {
      const index = JSON.parse(text) as { baseline: [string, string | null][] };
      index.baseline.push(['../outside.txt', null]);
      return JSON.stringify(index);
    };
    writeFileSync(join(storage, 'index.json'), doctored(readFileSync(join(storage, 'index.json'), 'utf8')));
    const log = join(storage, 'index-log.json');
    if (existsSync(log))
      writeFileSync(
        log,
        readFileSync(log, 'utf8')
          .split('\n')
          .map((line) => (line ? doctored(line) : line))
          .join('\n'),
      );
    const store = storeOn();
    await assert.rejects(store.planRestore(state, first, workspace(), signal), CheckpointUnavailable);
    assert.deepEqual([read('src/a.ts'), read('src/b.ts')], ['a3', 'b2']);
  });
});

/** Dies (throws, and nothing runs after) at the n-th call of `method`. */
class Crash extends Error {}
function crashingRestore(inner: WorkspaceRestore, method: keyof WorkspaceRestore, at: number): WorkspaceRestore {
  let calls = 0;
  const wrap =
    <A extends unknown[]>(name: keyof WorkspaceRestore, run: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      if (name === method && ++calls === at) throw new Crash(`crash at ${name} #${at}`);
      return run(...args);
    };
  return {
    stage: wrap('stage', (p: string, n: string, c: string, s: AbortSignal) => inner.stage(p, n, c, s)),
    commit: wrap('commit', (p: string, n: string, s: AbortSignal) => inner.commit(p, n, s)),
    remove: wrap('remove', (p: string, s: AbortSignal) => inner.remove(p, s)),
    // A crashed process discards nothing: the staged files stay until recovery.
    discard: method === 'stage' ? () => Promise.reject(new Crash('process gone')) : (p: string, n: string, s: AbortSignal) => inner.discard(p, n, s),
  };
}

/** A folder whose n-th atomic write of the journal never happens (the process died just before). */
function crashingFolder(inner: CheckpointFolder, journalWrite: number): CheckpointFolder {
  let writes = 0;
  return {
    putBlob: (t, s) => inner.putBlob(t, s),
    getBlob: (h, s) => inner.getBlob(h, s),
    blobSizes: (s) => inner.blobSizes(s),
    removeBlob: (h, s) => inner.removeBlob(h, s),
    read: (n, s) => inner.read(n, s),
    append: (n, t, s) => inner.append(n, t, s),
    writeAtomic: (n, t, s) =>
      n === 'journal' && ++writes === journalWrite ? Promise.reject(new Crash('crash before the journal')) : inner.writeAtomic(n, t, s),
    remove: (n, s) => (n === 'journal' ? Promise.reject(new Crash('process gone')) : inner.remove(n, s)),
  };
}

describe('a crash in the middle of a restore leaves the old state or the new one, never a mix', () => {
  const OLD = ['a3', 'b2', 'created'];
  const NEW = ['a1', 'b0', undefined];
  const state3 = async () => {
    const state = await session();
    const store = storeOn();
    const ids = await threeSteps(store, state);
    await store.capture(state, step(state, { 'src/c.ts': 'created' }), files(), signal);
    return { state, first: ids[0] };
  };
  const onDisk = () => [read('src/a.ts'), read('src/b.ts'), read('src/c.ts')];

  const cases: { name: string; crash: () => { restore: WorkspaceRestore; folder: CheckpointFolder }; expect: (string | undefined)[] }[] = [
    {
      name: 'while staging the second file',
      crash: () => ({ restore: crashingRestore(new NodeWorkspaceRestore(root), 'stage', 2), folder: new NodeCheckpointFolder(storage) }),
      expect: OLD,
    },
    {
      name: 'after staging, before the commit record',
      crash: () => ({ restore: new NodeWorkspaceRestore(root), folder: crashingFolder(new NodeCheckpointFolder(storage), 2) }),
      expect: OLD,
    },
    {
      name: 'after the first rename',
      crash: () => ({ restore: crashingRestore(new NodeWorkspaceRestore(root), 'commit', 2), folder: new NodeCheckpointFolder(storage) }),
      expect: NEW,
    },
    {
      name: 'before the removal of a created file',
      crash: () => ({ restore: crashingRestore(new NodeWorkspaceRestore(root), 'remove', 1), folder: new NodeCheckpointFolder(storage) }),
      expect: NEW,
    },
  ];
  test('a write that fails while staging (a full disk) is rolled back at once: old state, nothing left over', async () => {
    const { state, first } = await state3();
    const store = storeOn();
    const inner = new NodeWorkspaceRestore(root);
    let stages = 0;
    const failing: WorkspaceRestore = {
      stage: (p, n, c, sig) => (++stages === 2 ? Promise.reject(new Error('ENOSPC')) : inner.stage(p, n, c, sig)),
      commit: (p, n, sig) => inner.commit(p, n, sig),
      remove: (p, sig) => inner.remove(p, sig),
      discard: (p, n, sig) => inner.discard(p, n, sig),
    };
    await assert.rejects(store.restore(state, await store.planRestore(state, first, workspace(), signal), false, failing, signal), /ENOSPC/);
    assert.deepEqual(onDisk(), OLD);
    assert.ok(!workspaceEntries().some((e) => e.includes('gw-restore')));
    assert.equal(existsSync(join(storage, 'journal.json')), false);
    await store.restore(state, await store.planRestore(state, first, workspace(), signal), false, inner, signal);
    assert.deepEqual(onDisk(), NEW);
  });

  for (const { name, crash, expect } of cases) {
    test(name, async () => {
      const { state, first } = await state3();
      const { restore, folder } = crash();
      const store = storeOn(folder);
      const plan = await store.planRestore(state, first, workspace(), signal);
      await assert.rejects(store.restore(state, plan, false, restore, signal), Crash);
      // The window reloads: a new store on the same folder finishes or rolls back what was under way.
      const reloaded = storeOn();
      const recovered = await reloaded.recover(new NodeWorkspaceRestore(root), signal, workspace());
      assert.equal(recovered.recovered, true);
      assert.deepEqual(onDisk(), expect);
      assert.ok(!workspaceEntries().some((e) => e.includes('gw-restore')), `no staged file left: ${workspaceEntries().join(', ')}`);
      assert.equal(recovered.rewindTo?.id, expect === NEW ? first : undefined, 'the conversation follows the files');
      assert.equal((await reloaded.pendingRewind(signal))?.id, recovered.rewindTo?.id);
      // The session takes the conversation; then the restore is complete and its journal gone.
      if (recovered.rewindTo) await reloaded.rewound(signal);
      assert.equal(existsSync(join(storage, 'journal.json')), false);
      assert.deepEqual(await reloaded.recover(new NodeWorkspaceRestore(root), signal, workspace()), { recovered: false });
      // Either way the present was recorded first: the restore can still be made, or undone.
      const undo = (await reloaded.list(signal)).find((c) => c.kind === 'restore');
      assert.ok(undo, 'the state before the restore is a checkpoint');
      await reloaded.restore(state, await reloaded.planRestore(state, undo.id, workspace(), signal), false, new NodeWorkspaceRestore(root), signal);
      assert.deepEqual(onDisk(), OLD);
    });
  }
});
