// Reservations leave the window a window after their own answer, whatever order the answers came in, and the
// other windows' entries stop counting at their own times too: what the ledger's early return in `prune` must
// keep (it skips the walk until the earliest of those times).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { WindowLedger, type OthersReserved } from '../../../src/rateLimits/common/windowLedger';
import { VirtualClock } from '../helpers/clock';

const WINDOW_MS = 60_000;
const signal = new AbortController().signal;

describe('leaving the window', () => {
  test('answers out of order: each reservation leaves a window after its own answer', async () => {
    const clock = new VirtualClock({ start: 1_000_000, manual: true });
    const tracker = new LimitTracker(clock, { requestsPerMinute: 3, tokensPerMinute: 1_000_000 }, WINDOW_MS);
    tracker.recordHeaders(new Headers()); // the gateway sends no headers: the tracker counts alone
    const first = await tracker.acquire(10, signal);
    const second = await tracker.acquire(10, signal);
    const third = await tracker.acquire(10, signal);
    clock.advance(1_000);
    second.answered(); // answered first, at +1 s
    clock.advance(9_000);
    third.answered(); // at +10 s
    clock.advance(20_000);
    first.answered(); // last, at +30 s
    assert.equal(tracker.snapshot().requestsRemaining, 0);
    clock.advance(WINDOW_MS - 30_000 + 1_000 - 1); // 1 ms before the second leaves
    assert.equal(tracker.snapshot().requestsRemaining, 0);
    clock.advance(1);
    assert.equal(tracker.snapshot().requestsRemaining, 1, 'the second left a window after its answer');
    clock.advance(9_000);
    assert.equal(tracker.snapshot().requestsRemaining, 2, 'then the third');
    clock.advance(20_000 - 1);
    assert.equal(tracker.snapshot().requestsRemaining, 2);
    clock.advance(1);
    assert.equal(tracker.snapshot().requestsRemaining, 3, 'the first, answered last, leaves last');
  });

  test('a reservation still in flight never leaves; one answered later leaves a window after that', async () => {
    const clock = new VirtualClock({ start: 1_000_000, manual: true });
    const tracker = new LimitTracker(clock, { requestsPerMinute: 2, tokensPerMinute: 1_000_000 }, WINDOW_MS);
    tracker.recordHeaders(new Headers());
    const slow = await tracker.acquire(10, signal);
    const quick = await tracker.acquire(10, signal);
    quick.answered();
    clock.advance(5 * WINDOW_MS);
    assert.equal(tracker.snapshot().requestsRemaining, 1, 'the quick one left; the slow one is still in flight');
    slow.settle(20);
    clock.advance(WINDOW_MS - 1);
    assert.equal(tracker.snapshot().requestsRemaining, 1);
    clock.advance(1);
    assert.equal(tracker.snapshot().requestsRemaining, 2);
  });

  test("the other windows' entries stop counting at their own times (answered: a window on; in flight: two)", () => {
    const clock = new VirtualClock({ start: 1_000_000, manual: true });
    const ledger = new WindowLedger(clock, { requestsPerMinute: 10, tokensPerMinute: 1_000_000 }, WINDOW_MS, () => undefined);
    const now = clock.now();
    const entry = (answeredAt: number | undefined, sentAt = now): OthersReserved => ({
      owner: 'w2',
      requests: 1,
      tokens: 0,
      sentAt,
      answeredAt,
      inHeaders: false,
    });
    ledger.replaceOthers([entry(now + 5_000), entry(undefined), entry(now + 1_000)]);
    const counted = () => {
      ledger.prune(clock.now());
      return ledger.othersReserved.length;
    };
    assert.equal(counted(), 3);
    clock.advance(WINDOW_MS + 1_000 - 1);
    assert.equal(counted(), 3);
    clock.advance(1);
    assert.equal(counted(), 2, 'the one answered at +1 s');
    clock.advance(4_000);
    assert.equal(counted(), 1, 'the one answered at +5 s');
    clock.advance(2 * WINDOW_MS - (WINDOW_MS + 5_000) - 1);
    assert.equal(counted(), 1);
    clock.advance(1);
    assert.equal(counted(), 0, 'the one in flight, two windows after it was sent');
  });
});
