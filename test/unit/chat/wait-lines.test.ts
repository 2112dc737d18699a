// One request's waits make one chat line: a paced wait and the 429 that may follow it are the
// same wait to the user (chat lines cannot be updated; the status bar counts down).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAME_WAIT_MS, WaitLines } from '../../../src/chat/common/retryText';
import type { RetryNotice } from '../../../src/gateway/common/types';

const notice = (reason: RetryNotice['reason'], delayMs: number): RetryNotice => ({ attempt: 1, delayMs, reason, message: 'm' });

describe('the chat lines of a wait', () => {
  test('a paced wait says how long and until when; the 429 ending with it adds no line', () => {
    let now = 1_000_000;
    const lines = new WaitLines(() => now);
    const first = lines.lineFor(notice('pacing', 47_000));
    assert.match(first ?? '', /^Rate limit reached — waiting 47 s \(until .+; the status bar counts down\), then the answer follows\.$/);
    now += 46_000;
    assert.equal(lines.lineFor(notice('rate_limit', 1_000 + SAME_WAIT_MS)), undefined, 'the same wait, rounded differently');
    assert.equal(lines.lineFor(notice('pacing', 500)), undefined);
  });

  test('a wait that ends later than said gets one line of its own, then nothing more for it', () => {
    let now = 0;
    const lines = new WaitLines(() => now);
    assert.ok(lines.lineFor(notice('pacing', 47_000)));
    now = 47_000;
    assert.match(lines.lineFor(notice('rate_limit', 60_000)) ?? '', /^The rate limit frees later than the Gateway said — waiting 60 s more/);
    assert.equal(lines.lineFor(notice('rate_limit', 59_000)), undefined);
  });

  test('other retries each say what failed, as before', () => {
    const lines = new WaitLines(() => 0);
    assert.match(lines.lineFor(notice('unavailable', 2_000)) ?? '', /overloaded \(503\) — retrying in 2 s \(attempt 1\)/);
    assert.match(lines.lineFor(notice('unavailable', 4_000)) ?? '', /retrying in 4 s/);
  });
});
