// Background requests (the key check, model-list refreshes) never spend the slot a user request waits for:
// against the emulator over HTTP, with `limited-key` (1 request a minute), in virtual time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BackgroundSkippedError, checkAndStoreKey, type GatewayClient, type RetryNotice } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { formatStatus } from '../../../src/status/common/statusView';
import { makeClient, signal } from '../helpers/clients';
import { clockedEmulator } from '../helpers/clockedEmulator';
import { VirtualClock } from '../helpers/clock';

const MINUTE = 60_000;
const time = new VirtualClock({ manual: true });
const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello again' }] };

const emulator = clockedEmulator({
  clock: time,
  windowMs: MINUTE,
  keys: [
    { key: 'limited-key', rpm: 1 },
    { key: 'limited-blind-key', rpm: 1, rateLimitHeaders: false },
  ],
  // A window or more apart, so no test inherits another's window.
  beforeEachTest: () => time.advance(10 * MINUTE),
});

const client = (key: string, limits: LimitTracker): GatewayClient => makeClient(emulator().baseUrl, key, { clock: time, limits });
const statusText = (limits: LimitTracker) =>
  formatStatus({ model: 'gw-chat', hasKey: true, snapshot: limits.snapshot(), siteUrl: undefined, now: time.now() }).text;

/** Lets the promises and the loopback HTTP in flight run, time standing still, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(done(), 'the expected state was never reached');
}

function keyCheck(key: string, limits: LimitTracker) {
  const stored: string[] = [];
  const deps = { client: client(key, new LimitTracker(time)), limits, store: async (k: string) => void stored.push(k) };
  return { stored, outcome: checkAndStoreKey(key, deps, signal()) };
}

const sent = () => emulator().requests.map((r) => `${r.method} ${r.path} ${r.status}`);

describe('background requests and a user request waiting for the key (limits reported in headers)', () => {
  test('the key check and a model refresh spend nothing while the user request waits; it goes first', async () => {
    const limits = new LimitTracker(time);
    const user = client('limited-key', limits);
    await user.chat(chat, { signal: signal() });
    assert.equal(statusText(limits), '$(sparkle) gw-chat · 0/1 req · 199k tok', "the Gateway's 1 a minute, not an assumed 60");

    const notices: RetryNotice[] = [];
    const waiting = user.chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    await until(() => limits.snapshot().requestsWaiting === 1);

    const check = keyCheck('limited-key', limits);
    assert.equal((await check.outcome).kind, 'unchecked', 'saved, checked on first use');
    assert.deepEqual(check.stored, ['limited-key']);
    await assert.rejects(user.listModels({ signal: AbortSignal.timeout(5000), background: true }), BackgroundSkippedError);
    assert.deepEqual(sent(), ['POST /v1/chat/completions 200'], 'nothing sent while the user request waits');

    time.advance(MINUTE);
    const answer = await waiting;
    assert.ok(answer.text.length > 0);
    assert.deepEqual(sent(), ['POST /v1/chat/completions 200', 'POST /v1/chat/completions 200'], 'the user request went first, and met no 429');
    assert.deepEqual(
      notices.map((n) => n.reason),
      ['pacing'],
      'one wait, announced once',
    );
  });

  test('with nobody waiting, a background request waits for no window: skipped while it is full, sent once it has room', async () => {
    const limits = new LimitTracker(time);
    const user = client('limited-key', limits);
    await user.chat(chat, { signal: signal() });
    await assert.rejects(user.listModels({ signal: AbortSignal.timeout(5000), background: true }), (error: unknown) => {
      assert.ok(error instanceof BackgroundSkippedError);
      assert.ok(error.until !== undefined && error.until > time.now(), 'says when it might fit');
      return true;
    });
    time.advance(MINUTE);
    const models = await user.listModels({ signal: AbortSignal.timeout(5000), background: true });
    assert.ok(models.some((m) => m.id === 'gw-chat'));
    assert.deepEqual(sent(), ['POST /v1/chat/completions 200', 'GET /v1/models 200']);
  });

  test("a key check that runs takes the Gateway's limits along: the status shows them, and the next request waits instead of a 429", async () => {
    const limits = new LimitTracker(time);
    assert.equal(statusText(limits), '$(sparkle) gw-chat · limits not known yet');
    const check = keyCheck('limited-key', limits);
    assert.equal((await check.outcome).kind, 'accepted');
    assert.equal(statusText(limits), '$(sparkle) gw-chat · 0/1 req · 200k tok');

    const notices: RetryNotice[] = [];
    const waiting = client('limited-key', limits).chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    await until(() => limits.snapshot().requestsWaiting === 1);
    time.advance(MINUTE);
    await waiting;
    assert.deepEqual(sent(), ['GET /v1/models 200', 'POST /v1/chat/completions 200'], 'no 429');
  });
});

describe('a Gateway that reports no limits (limited-blind-key)', () => {
  test('after the one 429 the user request meets, a model refresh is skipped, not sent for a second 429', async () => {
    const limits = new LimitTracker(time);
    const check = keyCheck('limited-blind-key', limits);
    assert.equal((await check.outcome).kind, 'accepted');
    assert.equal(statusText(limits), '$(sparkle) gw-chat · limits not reported', 'no assumed 60 a minute shown as the Gateway’s');

    const notices: RetryNotice[] = [];
    const user = client('limited-blind-key', limits);
    const waiting = user.chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    await until(() => notices.length === 1);
    assert.equal(notices[0]!.reason, 'rate_limit');
    await assert.rejects(user.listModels({ signal: AbortSignal.timeout(5000), background: true }), BackgroundSkippedError);

    time.advance(MINUTE);
    await waiting;
    assert.deepEqual(sent(), ['GET /v1/models 200', 'POST /v1/chat/completions 429', 'POST /v1/chat/completions 200'], 'one 429, no refresh in between');
  });

  test('a background request that meets a 429 is not retried', async () => {
    const limits = new LimitTracker(time);
    const user = client('limited-blind-key', limits);
    await user.chat(chat, { signal: signal() });
    await assert.rejects(user.listModels({ signal: AbortSignal.timeout(5000), background: true }), BackgroundSkippedError);
    assert.deepEqual(sent(), ['POST /v1/chat/completions 200', 'GET /v1/models 429']);
    assert.ok(limits.snapshot().rateLimitedUntil! > time.now(), 'the wait it learned holds for the requests after it');
  });
});
