// Checkpoints in a real session: the engine against the emulator's scripted model on a temp
// workspace, a checkpoint after each step that changed files, then a restore to step 1 that puts
// both files back and makes Continue go on from step 1's response; then the restore undone.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/checkpoints/common/checkpoints';
import { latestRestore, restoreDone, restoredHeadline, restoreQuestion, undoNoLongerApplies } from '../../../src/checkpoints/common/checkpointMessages';
import type { AgentEvent } from '../../../src/sessionModel/common/agentEvents';
import { addUserMessage, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';

const signal = new AbortController().signal;
let emulator: Emulator;
let workspace: TempWorkspace;
let storage: string;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  workspace.write('src/a.ts', 'export const a = 0;\n');
  workspace.write('src/b.ts', 'export const b = 0;\n');
  storage = mkdtempSync(join(tmpdir(), 'gateway-rewind-'));
});
afterEach(() => {
  workspace.dispose();
  rmSync(storage, { recursive: true, force: true });
});

const fileText = (path: string) => readFileSync(join(workspace.root, path), 'utf8');
const responseBodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, unknown>);
const edit = (path: string, from: string, to: string) => ({ toolCalls: [{ name: 'edit_file', arguments: { path, old_text: from, new_text: to } }] });

function engineWithCheckpoints(store: CheckpointStore) {
  return makeEngine({
    baseUrl: emulator.baseUrl,
    workspace,
    checkpoint: async (state, changed, s) => {
      const { checkpoint, dropped } = await store.capture(state, changed, new NodeWorkspaceFiles(workspace.root), s);
      return { checkpoint: { id: checkpoint.id, label: checkpoint.label }, dropped: dropped.map((d) => d.label) };
    },
    keepOriginal: (path, before, s) => store.keepOriginal(path, before, s),
  }).engine;
}

/** What AgentSessions does after a restore: the conversation taken from the checkpoint. */
async function rewind(store: CheckpointStore, state: AgentSessionState, checkpointId: number): Promise<void> {
  const target = (await store.list(signal)).find((c) => c.id === checkpointId)!;
  Object.assign(state, await store.conversationAt(state, target, signal));
  state.status = 'paused';
  await store.rewound(signal);
}

describe('rewinding a session', () => {
  test('three steps on two files, restore to step 1, continue from there, undo the restore', async () => {
    emulator.script('demo-key', [
      edit('src/a.ts', 'a = 0', 'a = 1'),
      edit('src/b.ts', 'b = 0', 'b = 2'),
      edit('src/a.ts', 'a = 1', 'a = 3'),
      { text: 'Done.' },
    ]);
    const store = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });
    const state = startSession('edit a and b');
    const events = await runToEnd(engineWithCheckpoints(store), state);
    const checkpoints = events.filter((e): e is Extract<AgentEvent, { type: 'checkpoint' }> => e.type === 'checkpoint');
    assert.deepEqual(
      checkpoints.map((e) => e.checkpoint.label),
      ['Step 1: src/a.ts', 'Step 2: src/b.ts', 'Step 3: src/a.ts'],
    );
    const step1ResponseId = responseBodies()[1].previous_response_id;

    // The user edits b.ts meanwhile; the restore names it, and keeps it when asked to.
    workspace.write('src/b.ts', 'export const b = 2; // mine\n');
    const files = new NodeWorkspaceFiles(workspace.root);
    const plan = await store.planRestore(state, checkpoints[0].checkpoint.id, { files, protectedFiles: ['.env'] }, signal);
    assert.deepEqual(
      plan.conflicts.map((f) => f.path),
      ['src/b.ts'],
    );
    assert.match(restoreQuestion(plan).detail, /You changed src\/b\.ts since the agent did/);
    const result = await store.restore(state, plan, true, new NodeWorkspaceRestore(workspace.root), signal);
    await rewind(store, state, plan.target.id);
    assert.equal(fileText('src/a.ts'), 'export const a = 1;\n');
    assert.equal(fileText('src/b.ts'), 'export const b = 2; // mine\n');
    // What the chat's new turn and the notice say: the undone steps by name, the session paused, the way back.
    const restored = latestRestore(await store.list(signal));
    assert.ok(restored);
    assert.equal(restoredHeadline(restored, 'paused'), 'Restored to step 1: session paused, step 2 and step 3 undone.');
    assert.equal(
      restoreDone(restored, 'paused', result),
      'Restored to step 1: session paused, step 2 and step 3 undone. Put back: src/a.ts. Kept your changes in src/b.ts. ' +
        'Continue goes on from step 1; Undo Restore brings the undone steps back.',
    );

    // Continue: the chain goes on from step 1's response, sending step 1's call output.
    emulator.script('demo-key', [edit('src/a.ts', 'a = 1', 'a = 10'), { text: 'Done again.' }]);
    const before = responseBodies().length;
    addUserMessage(state, 'make it 10');
    await runToEnd(engineWithCheckpoints(store), state);
    const continued = responseBodies()[before];
    assert.equal(continued.previous_response_id, step1ResponseId);
    const input = continued.input as { type?: string; role?: string }[];
    assert.deepEqual(
      input.map((item) => item.type ?? item.role),
      ['function_call_output', 'user'],
    );
    assert.equal(fileText('src/a.ts'), 'export const a = 10;\n');
    assert.equal(latestRestore(await store.list(signal)), undefined, 'a step after the restore: the restore is no longer where the session stands');

    // Undo the restore: the state before it comes back (a.ts at step 3); the user's b.ts is untouched.
    assert.equal(undoNoLongerApplies(await store.list(signal), result.undo.id), undefined, 'a step after the restore does not end its Undo');
    const undo = await store.planRestore(state, result.undo.id, { files, protectedFiles: [] }, signal);
    assert.deepEqual(
      undo.files.map((f) => f.path),
      ['src/a.ts'],
    );
    assert.deepEqual(undo.conflicts, [], 'a.ts is as the session left it after the restore');
    await store.restore(state, undo, false, new NodeWorkspaceRestore(workspace.root), signal);
    await rewind(store, state, undo.target.id);
    const undone = latestRestore(await store.list(signal));
    assert.ok(undone);
    assert.equal(restoredHeadline(undone, 'done'), 'Restore undone: the session is back where it was before restoring to step 1 (done).');
    // The chat turn's Undo Restore link, clicked again after the undo: it says so and restores nothing (issue 39, item 4).
    assert.match(undoNoLongerApplies(await store.list(signal), result.undo.id) ?? '', /already undone or followed by another one: nothing was changed/);
    assert.equal(undoNoLongerApplies(await store.list(signal), undone.undo.id), undefined, "the undo's own Undo still applies");
    assert.equal(fileText('src/a.ts'), 'export const a = 3;\n');
    assert.equal(fileText('src/b.ts'), 'export const b = 2; // mine\n');
    assert.equal(state.transcript.filter((item) => 'type' in item && item.type === 'function_call').length, 3, 'the conversation of the three steps is back');
  });

  test('checkpoints survive a compaction: a restore to before it goes back to the old chain', async () => {
    emulator.script('demo-key', [edit('src/a.ts', 'a = 0', 'a = 1'), edit('src/b.ts', 'b = 0', 'b = 2'), { text: 'Done.' }]);
    const store = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });
    const state = startSession('edit a and b');
    const engine = engineWithCheckpoints(store);
    await runToEnd(engine, state);
    const step2ResponseId = responseBodies()[2].previous_response_id;
    await engine.compact(state, signal, () => undefined);
    assert.equal(state.compactions?.length, 1);
    assert.ok(state.chainBase, 'the compaction started a new chain');
    const [, step2] = await new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n2' }).list(signal);
    const files = new NodeWorkspaceFiles(workspace.root);
    await store.restore(
      state,
      await store.planRestore(state, step2.id, { files, protectedFiles: [] }, signal),
      false,
      new NodeWorkspaceRestore(workspace.root),
      signal,
    );
    await rewind(store, state, step2.id);
    assert.equal(state.chainBase, undefined);
    assert.equal(state.compactions?.length ?? 0, 0, 'the compaction came after step 2');
    emulator.script('demo-key', [{ text: 'Back on the old chain.' }]);
    const before = responseBodies().length;
    await runToEnd(engineWithCheckpoints(store), state);
    assert.equal(responseBodies()[before].previous_response_id, step2ResponseId);
  });

  test("after Revert Session Changes, a restore does not take the reverted files for the user's", async () => {
    emulator.script('demo-key', [edit('src/a.ts', 'a = 0', 'a = 1'), edit('src/a.ts', 'a = 1', 'a = 2'), { text: 'Done.' }]);
    const store = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });
    const state = startSession('edit a twice');
    await runToEnd(engineWithCheckpoints(store), state);
    workspace.write('src/a.ts', 'export const a = 0;\n');
    const [step1] = await store.list(signal);
    const files = new NodeWorkspaceFiles(workspace.root);
    assert.deepEqual(
      (await store.planRestore(state, step1.id, { files, protectedFiles: [] }, signal)).conflicts.map((f) => f.path),
      ['src/a.ts'],
      'unannounced, the file looks changed by the user',
    );
    await store.revertToBaseline(state.originals, new NodeWorkspaceRestore(workspace.root), signal);
    await store.revertDone(signal);
    assert.deepEqual((await store.planRestore(state, step1.id, { files, protectedFiles: [] }, signal)).conflicts, []);
  });

  test('a step the user stopped is still a checkpoint', async () => {
    emulator.script('demo-key', [
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a = 0', new_text: 'a = 1' } },
          { name: 'run_command', arguments: { command: 'sleep 30' } },
        ],
      },
    ]);
    const store = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });
    const state = startSession('edit a, then wait');
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    await engineWithCheckpoints(store).run(state, controller.signal, (event) => {
      events.push(event);
      if (event.type === 'tool_started' && event.summary.includes('sleep')) controller.abort();
    });
    assert.equal(state.status, 'paused');
    assert.deepEqual(
      (await store.list(signal)).map((c) => c.label),
      ['Step 1: src/a.ts'],
    );
  });
});
