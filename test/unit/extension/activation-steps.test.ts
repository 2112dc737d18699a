// activate()'s timed steps and the work it leaves for later: deferred tasks start only once activate() has
// returned, each on a turn of the event loop of its own, in the order queued; a failure is logged, the others
// still run; closing the window stops what has not run yet and aborts what is running.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ActivationSteps } from '../../../src/composeActivation';
import { MemoryLogger } from '../helpers/clients';

/** Activation steps whose later turns of the event loop the test runs, one at a time. */
function stepsWithTurns() {
  const turns: (() => void)[] = [];
  const steps = new ActivationSteps((task) => turns.push(task));
  return {
    steps,
    turns,
    /** Runs the next scheduled turn, then lets the promises it started settle. */
    async nextTurn(): Promise<void> {
      const turn = turns.shift();
      assert.ok(turn, 'no turn was scheduled');
      turn();
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

describe('deferred work', () => {
  test('runs after activate() returned, not during it, in the order queued, each on a turn of its own', async () => {
    const { steps, turns, nextTurn } = stepsWithTurns();
    const ran: string[] = [];
    steps.defer('refused settings', async () => void ran.push('settings'));
    steps.defer('status bar text', async () => void ran.push('status'));
    steps.step('registrations', () => ran.push('step'));
    assert.equal(turns.length, 0, 'deferred work was scheduled before activate() finished');
    steps.finish(new MemoryLogger());
    assert.deepEqual(ran, ['step']);
    await nextTurn();
    assert.deepEqual(ran, ['step', 'settings']);
    await nextTurn();
    assert.deepEqual(ran, ['step', 'settings', 'status']);
  });

  test('a task that fails is logged by name, and the others still run', async () => {
    const { steps, nextTurn } = stepsWithTurns();
    const logger = new MemoryLogger();
    let after = false;
    steps.defer('refused settings', async () => {
      throw new Error('no configuration');
    });
    steps.defer('usage roll-up', async () => void (after = true));
    steps.finish(logger);
    await nextTurn();
    await nextTurn();
    assert.deepEqual(logger.lines, ['warn after activation: refused settings failed: no configuration']);
    assert.equal(after, true);
  });

  test('closing the window before a task ran: it never runs', async () => {
    const { steps, nextTurn } = stepsWithTurns();
    let ran = false;
    steps.defer('usage roll-up', async () => void (ran = true));
    steps.finish(new MemoryLogger()).dispose();
    await nextTurn();
    assert.equal(ran, false);
  });

  test('closing the window while a task runs aborts its signal; its rejection is not logged as a failure', async () => {
    const { steps, nextTurn } = stepsWithTurns();
    const logger = new MemoryLogger();
    let running: AbortSignal | undefined;
    steps.defer('retention pass', (signal) => {
      running = signal;
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const closing = steps.finish(logger);
    await nextTurn();
    assert.ok(running, 'the task did not start');
    assert.equal(running.aborted, false);
    closing.dispose();
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(running.aborted, true);
    assert.deepEqual(logger.lines, []);
  });
});
