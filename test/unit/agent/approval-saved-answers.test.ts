// A stale Approve / Deny after a reload (issue 39, item 4): the window no longer remembers how the approval ended, so
// the click reads it from the saved session (VS Code's stable API cannot change a past chat turn's buttons).
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, RecordingStore, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { savedAnswerMessage, savedAnswerOf } from '../../../src/agent/common/approvals/approvalText';

let emulator: Emulator;
let workspace: TempWorkspace;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  workspace.write('a.txt', 'hello world\n');
});
afterEach(() => workspace.dispose());

const edit = { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'world', new_text: 'there' } };
const command = { name: 'run_command', arguments: { command: 'echo hi' } };

describe('a stale approval button after a reload', () => {
  test('approved and denied calls are told apart from the saved session', async () => {
    emulator.script('demo-key', [{ toolCalls: [edit, command] }, { text: 'done' }]);
    const store = new RecordingStore();
    const { engine, approvals } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      store,
      policy: { mode: 'ask', deniedCommands: [] },
      approve: (request) => request.toolName !== 'run_command',
    });
    const state = startSession('task');
    await runToEnd(engine, state);
    const [editCall, commandCall] = approvals.map((request) => request.callId);
    const saved = (await store.load(state.id))!;
    assert.equal(savedAnswerOf(saved, editCall), 'approved');
    assert.equal(savedAnswerOf(saved, commandCall), 'denied');
    assert.equal(savedAnswerOf(saved, 'call_unknown'), undefined);
    assert.match(savedAnswerMessage(savedAnswerOf(saved, commandCall)), /already denied; this button no longer does anything/);
  });

  test('a call whose session paused while it waited was never answered: Continue asks again', async () => {
    emulator.script('demo-key', [{ toolCalls: [command] }, { text: 'done' }]);
    const store = new RecordingStore();
    const stop = new AbortController();
    const { engine, approvals } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      store,
      policy: { mode: 'ask', deniedCommands: [] },
      // The user's Stop while the approval waits: the broker's wait ends with the signal's reason.
      approve: () => {
        stop.abort();
        return Promise.reject(stop.signal.reason as Error);
      },
    });
    const state = startSession('task');
    await runToEnd(engine, state, stop.signal);
    assert.equal(state.status, 'paused');
    const saved = (await store.load(state.id))!;
    assert.equal(savedAnswerOf(saved, approvals[0].callId), 'stopped');
    assert.match(savedAnswerMessage('stopped'), /never answered: its session paused.*Continue the session/);
  });
});
