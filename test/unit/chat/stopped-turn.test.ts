// A stopped chat turn says so (issue 39, item 5): VS Code keeps only the result given within a second of the Stop, so a
// stopped agent turn waits for its run that long at most, and its line says what the Sessions view says.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, RecordingStore, startSession, TempWorkspace } from '../helpers/agent';
import { VirtualClock } from '../helpers/clock';
import { sessionRow } from '../../../src/agent/common/sessions/sessionRow';
import { settledWithinStop, STOP_GRACE_MS, stoppedRunText } from '../../../src/chat/common/stoppedTurn';

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

describe('a stopped agent turn', () => {
  test('stopped mid-stream after a step that wrote a file: paused, its real turn count and file, as the Sessions view says', async () => {
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'created\n' } }] },
      { text: 'slow '.repeat(200), chunkChars: 5, delayMs: 10 },
    ]);
    const store = new RecordingStore();
    const state = startSession('task');
    const stop = new AbortController();
    const clock = new VirtualClock({ manual: true });
    const run = makeEngine({ baseUrl: emulator.baseUrl, workspace, store }).engine.run(state, stop.signal, (event) => {
      if (event.type === 'text') stop.abort();
    });
    const outcome = await settledWithinStop(run, stop.signal, clock, STOP_GRACE_MS);
    assert.ok(outcome.settled, 'the engine pauses at once on a Stop mid-stream');
    const text = stoppedRunText(outcome.value, outcome.settled);
    assert.equal(text, 'Stopped: the session is paused after 1 turn; files changed: new.txt. Continue (below) goes on from here.');
    const saved = (await store.load(state.id))!;
    assert.match(sessionRow(saved, Date.now()).description, /^paused · 1 turn · /);
    assert.ok(text.includes(`${saved.status} after 1 turn`));
  });

  test('a run that does not settle within the grace after the Stop gives way, on virtual time', async () => {
    const clock = new VirtualClock({ manual: true });
    const stop = new AbortController();
    const never = new Promise<string>(() => undefined);
    const outcome = settledWithinStop(never, stop.signal, clock, STOP_GRACE_MS);
    clock.advance(STOP_GRACE_MS * 10);
    stop.abort();
    clock.advance(STOP_GRACE_MS - 1);
    let done = false;
    void outcome.then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false, 'not before the grace has passed since the Stop');
    clock.advance(1);
    assert.deepEqual(await outcome, { settled: false });
    assert.match(
      stoppedRunText({ status: 'running', turns: 3, originals: [], commandsRun: ['npm test'] }, false),
      /^Stopping: .*3 turns; files changed: none; commands run: 1\)/,
    );
  });

  test('a run that ends without a Stop is its result; one that fails rejects', async () => {
    const clock = new VirtualClock({ manual: true });
    assert.deepEqual(await settledWithinStop(Promise.resolve(7), new AbortController().signal, clock, STOP_GRACE_MS), { settled: true, value: 7 });
    await assert.rejects(settledWithinStop(Promise.reject(new Error('402')), new AbortController().signal, clock, STOP_GRACE_MS), /402/);
  });
});
