// activate()'s timed steps and the work it leaves for later: deferred tasks start only once activate() has
// returned, in the order queued; a failure is logged, the others still run; closing the
// window stops what has not run yet and aborts what is running.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { ActivationSteps } from '../../src/composeActivation';
import { MemoryLogger } from './helpers/clients';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

/** Lets the promises a task started settle (no timers run). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('deferred work', () => {
  test('runs after activate() returned, not during it, in the order it was queued', async () => {
    const steps = new ActivationSteps();
    const ran: string[] = [];
    steps.defer('first', async () => void ran.push('first'));
    steps.defer('second', async () => void ran.push(`second after ${ran.join(',')}`));
    steps.step('registrations', () => ran.push('step'));
    steps.finish(new MemoryLogger());
    assert.deepEqual(ran, ['step'], 'a deferred task ran before activate() returned');
    mock.timers.tick(0);
    await settle();
    assert.deepEqual(ran, ['step', 'first', 'second after step,first']);
  });

  test('a task that fails is logged by name, and the others still run', async () => {
    const steps = new ActivationSteps();
    const logger = new MemoryLogger();
    let after = false;
    steps.defer('refused settings', async () => {
      throw new Error('no configuration');
    });
    steps.defer('usage roll-up', async () => void (after = true));
    steps.finish(logger);
    mock.timers.tick(0);
    await settle();
    assert.deepEqual(logger.lines, ['warn after activation: refused settings failed: no configuration']);
    assert.equal(after, true);
  });

  test('closing the window before the tasks ran: none runs', async () => {
    const steps = new ActivationSteps();
    let ran = false;
    steps.defer('usage roll-up', async () => void (ran = true));
    steps.finish(new MemoryLogger()).dispose();
    mock.timers.tick(0);
    await settle();
    assert.equal(ran, false);
  });

  test('closing the window while a task runs aborts its signal; its rejection is not logged as a failure', async () => {
    const steps = new ActivationSteps();
    const logger = new MemoryLogger();
    let running: AbortSignal | undefined;
    steps.defer('retention pass', (signal) => {
      running = signal;
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const closing = steps.finish(logger);
    mock.timers.tick(0);
    await settle();
    assert.ok(running, 'the task did not start');
    assert.equal(running.aborted, false);
    closing.dispose();
    await settle();
    assert.equal(running.aborted, true);
    assert.deepEqual(logger.lines, []);
  });
});
