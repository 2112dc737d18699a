// Sessions at once share the key fairly (issue 40): the user's requests go first, the background sessions take
// turns, none starves, a wait ends on its abort, and the queue is bounded. On a manual virtual clock: every
// request's grant time is exact, so the order and the shares are counted, never timed.
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { describe, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import type { PacingTag } from '../../../src/rateLimits/common/limitTypes';
import { DEFAULT_MAX_WAITING, PacingQueueFull } from '../../../src/rateLimits/common/pacingQueue';
import { VirtualClock } from '../helpers/clock';

const WINDOW_MS = 3_000;
/** 6 requests a 3 s window: a slot is 500 ms. */
const RPM = 6;
const SLOT_MS = WINDOW_MS / RPM;
const never = new AbortController().signal;

const background = (key: string): PacingTag => ({ foreground: false, key });
const CHAT: PacingTag = { foreground: true, key: 'chat' };

function setup(): { clock: VirtualClock; tracker: LimitTracker } {
  const clock = new VirtualClock({ start: 1_000_000, manual: true });
  const tracker = new LimitTracker(clock, { requestsPerMinute: RPM, tokensPerMinute: 1_000_000 }, WINDOW_MS);
  tracker.recordHeaders(new Headers()); // no headers: the tracker counts alone, and requests need not wait for a first answer
  return { clock, tracker };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves the manual clock on in steps, letting granted requests run between them. */
async function pass(clock: VirtualClock, ms: number, stepMs = 50): Promise<void> {
  for (let passed = 0; passed < ms; passed += stepMs) {
    clock.advance(Math.min(stepMs, ms - passed));
    await settle();
  }
}

/** Fills the window with answered foreground requests, so whatever comes next waits. */
async function fillWindow(tracker: LimitTracker): Promise<void> {
  for (let i = 0; i < RPM; i++) (await tracker.acquire(10, never)).answered();
}

interface Grant {
  key: string;
  at: number;
}

/**
 * A session's loop: asks for its turn, is answered `latencyMs` later, works `thinkMs`, asks again, until `until`.
 * The grants are written to `log`.
 */
async function stream(options: {
  tracker: LimitTracker;
  clock: VirtualClock;
  tag: PacingTag;
  until: number;
  log: Grant[];
  latencyMs: number;
  thinkMs: number;
}) {
  const { tracker, clock, tag, until, log, latencyMs, thinkMs } = options;
  while (clock.now() < until) {
    const reservation = await tracker.acquire(100, never, { tag });
    log.push({ key: tag.key, at: clock.now() });
    await clock.sleep(latencyMs);
    reservation.settle(100);
    await clock.sleep(thinkMs);
  }
}

function sharesOf(log: readonly Grant[], keys: readonly string[]): number[] {
  return keys.map((key) => log.filter((grant) => grant.key === key).length);
}

describe('sessions at once share the key', () => {
  test('a foreground request goes before the background ones that waited longer', async () => {
    const { clock, tracker } = setup();
    await fillWindow(tracker);
    const order: string[] = [];
    const ask = (name: string, tag: PacingTag) => void tracker.acquire(10, never, { tag }).then(() => order.push(name));
    ask('a1', background('a'));
    ask('b1', background('b'));
    ask('c1', background('c'));
    await pass(clock, 100);
    ask('chat', CHAT);
    await pass(clock, 2 * WINDOW_MS);
    assert.deepEqual(order, ['chat', 'a1', 'b1', 'c1']);
  });

  test('background sessions take turns: one request of each a round, the greedy one included', async () => {
    const { clock, tracker } = setup();
    await fillWindow(tracker);
    const order: string[] = [];
    const ask = (key: string, n: number) =>
      void tracker.acquire(10, never, { tag: background(key) }).then((reservation) => {
        order.push(`${key}${n}`);
        reservation.answered();
      });
    for (let n = 1; n <= 4; n++) ask('a', n); // a greedy session queues four
    ask('b', 1);
    ask('c', 1);
    ask('b', 2);
    await pass(clock, 4 * WINDOW_MS);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  test('three background sessions of different paces get equal shares (±20 %) of a saturated key', async () => {
    const { clock, tracker } = setup();
    const log: Grant[] = [];
    const until = clock.now() + 20 * WINDOW_MS;
    const sessions = [
      { key: 'quick', latencyMs: 50, thinkMs: 0 },
      { key: 'middle', latencyMs: 300, thinkMs: 100 },
      { key: 'slow', latencyMs: 700, thinkMs: 200 },
    ];
    const runs = sessions.map(({ key, latencyMs, thinkMs }) => stream({ tracker, clock, tag: background(key), until, log, latencyMs, thinkMs }));
    await pass(clock, 21 * WINDOW_MS);
    await Promise.all(runs);
    const shares = sharesOf(log, ['quick', 'middle', 'slow']);
    const mean = shares.reduce((sum, n) => sum + n, 0) / shares.length;
    for (const share of shares) assert.ok(Math.abs(share - mean) <= 0.2 * mean, `shares ${shares.join(', ')} (mean ${mean.toFixed(1)})`);
    // A request counts from its send to a window after its answer: with these latencies about 85 % of 20 × RPM is the most that fits.
    assert.ok(log.length >= 0.8 * 20 * RPM, `the key stays used: ${log.length} requests in 20 windows of ${RPM}`);
  });

  test('with three sessions saturating the key, a chat question waits at most one slot', async () => {
    const { clock, tracker } = setup();
    const log: Grant[] = [];
    const until = clock.now() + 12 * WINDOW_MS;
    const runs = ['a', 'b', 'c'].map((key) => stream({ tracker, clock, tag: background(key), until, log, latencyMs: 100, thinkMs: 0 }));
    const waits: number[] = [];
    for (let question = 0; question < 8; question++) {
      await pass(clock, WINDOW_MS + 170); // questions at odd times against the sessions' slots
      const asked = clock.now();
      void tracker.acquire(500, never, { tag: CHAT }).then((reservation) => {
        waits.push(clock.now() - asked);
        reservation.answered();
      });
    }
    await pass(clock, until - clock.now() + 2 * WINDOW_MS);
    await Promise.all(runs);
    assert.equal(waits.length, 8);
    for (const wait of waits) assert.ok(wait <= SLOT_MS, `waits ${waits.join(', ')} ms against a ${SLOT_MS} ms slot`);
  });

  test('no starvation: under a stream of foreground requests a background session still goes, once every two windows', async () => {
    const { clock, tracker } = setup();
    const log: Grant[] = [];
    const until = clock.now() + 10 * WINDOW_MS;
    // Two foreground streams that alone would fill every slot.
    const foreground = [0, 1].map((i) => stream({ tracker, clock, tag: { foreground: true, key: `user${i}` }, until, log, latencyMs: 50, thinkMs: 0 }));
    const session = stream({ tracker, clock, tag: background('s'), until, log, latencyMs: 50, thinkMs: 0 });
    await pass(clock, 11 * WINDOW_MS);
    await Promise.all([...foreground, session]);
    const sessionGrants = log.filter((grant) => grant.key === 's').length;
    assert.ok(sessionGrants >= 4, `the background session went ${sessionGrants} times in 10 windows`);
    assert.ok(sessionGrants <= 6, `and no more than about once every two windows (${sessionGrants}): the foreground keeps its priority`);
  });

  test('a session waiting only for its slot (the window has room) is not told of it, nor is the status bar', async () => {
    const { clock, tracker } = setup();
    const waits: number[] = [];
    const first = await tracker.acquire(10, never, { tag: background('a'), onWait: (until) => waits.push(until) });
    first.answered();
    let second = false;
    void tracker.acquire(10, never, { tag: background('a'), onWait: (until) => waits.push(until) }).then(() => (second = true));
    await settle();
    assert.equal(second, false, 'it waits for its slot');
    assert.equal(tracker.snapshot().rateLimitedUntil, undefined);
    await pass(clock, SLOT_MS);
    assert.equal(second, true, 'and goes a slot after the first');
    assert.deepEqual(waits, []);
  });

  test('an aborted wait is released at once, and its turn goes to the next', async () => {
    const { clock, tracker } = setup();
    await fillWindow(tracker);
    const stop = new AbortController();
    const order: string[] = [];
    const aborted = tracker.acquire(10, stop.signal, { tag: background('a') });
    void tracker.acquire(10, never, { tag: background('b') }).then(() => order.push('b'));
    await settle();
    assert.equal(tracker.snapshot().requestsWaiting, 2);
    stop.abort(new Error('stopped'));
    await assert.rejects(aborted, /stopped/);
    assert.equal(tracker.snapshot().requestsWaiting, 1, 'the aborted wait left the queue');
    await pass(clock, 2 * WINDOW_MS);
    assert.deepEqual(order, ['b']);
    assert.equal(tracker.snapshot().requestsWaiting, 0);
  });

  test(`the queue holds at most ${DEFAULT_MAX_WAITING} requests: one more is refused with PacingQueueFull, nothing reserved`, async () => {
    const { tracker } = setup();
    await fillWindow(tracker);
    const stop = new AbortController();
    setMaxListeners(DEFAULT_MAX_WAITING + 1, stop.signal);
    const waiting = Array.from({ length: DEFAULT_MAX_WAITING }, (_, i) => tracker.acquire(10, stop.signal, { tag: background(`s${i % 3}`) }));
    await settle();
    assert.equal(tracker.snapshot().requestsWaiting, DEFAULT_MAX_WAITING);
    await assert.rejects(tracker.acquire(10, never, { tag: CHAT }), PacingQueueFull);
    assert.equal(tracker.snapshot().requestsWaiting, DEFAULT_MAX_WAITING);
    stop.abort(new Error('stopped'));
    await Promise.allSettled(waiting);
    assert.equal(tracker.snapshot().requestsWaiting, 0, 'every wait released on its abort');
  });
});
