// Issue 39, item 2: a key limited to one request a minute, set and then asked one question. The key check is the
// model list (one call), and the question waits in the client's own pacing, counting down, never meeting a 429
// the client could have foreseen. The emulator over HTTP, the extension's flow (check on a client of its own, its
// window adopted, its list seeded), in virtual time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAndStoreKey, type ModelInfo, type RetryNotice } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { SharedListing } from '../../../src/models/common/sharedListing';
import { formatStatus } from '../../../src/status/common/statusView';
import type { ConfiguredLimits } from '../../../src/settings/common';
import { makeClient, signal } from '../helpers/clients';
import { clockedEmulator } from '../helpers/clockedEmulator';
import { VirtualClock } from '../helpers/clock';

const MINUTE = 60_000;
const time = new VirtualClock({ manual: true });
const emulator = clockedEmulator({
  clock: time,
  windowMs: MINUTE,
  keys: [
    { key: 'limited-key', rpm: 1 },
    { key: 'limited-blind-key', rpm: 1, rateLimitHeaders: false },
  ],
  beforeEachTest: () => time.advance(10 * MINUTE),
});
const sent = () => emulator().requests.map((r) => `${r.method} ${r.path} ${r.status}`);

/** Lets the promises and the loopback HTTP in flight run, time standing still, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(done(), 'the expected state was never reached');
}

/** Set API Key, then one question `afterMs` later, as the extension wires them (composeGateway, extension.ts). */
async function setKeyThenAsk(key: string, configured: ConfiguredLimits | undefined, afterMs: number) {
  const limits = new LimitTracker(time, configured);
  const keyCheckClient = makeClient(emulator().baseUrl, key, { clock: time, limits: new LimitTracker(time, configured) });
  const outcome = await checkAndStoreKey(key, { client: keyCheckClient, limits, store: async () => undefined }, signal());
  assert.equal(outcome.kind, 'accepted');
  // The check's list is the model list: seeded, so the picker, the status bar and @gateway ask for no other.
  const client = makeClient(emulator().baseUrl, key, { clock: time, limits });
  const listing = new SharedListing<ModelInfo[]>(
    (s) => client.listModels({ signal: s, background: true }),
    () => undefined,
    time,
    15_000,
  );
  if (outcome.kind === 'accepted') listing.seed(outcome.models);
  assert.ok((await listing.get(signal())).some((m) => m.id === 'gw-chat'));

  time.advance(afterMs);
  const notices: RetryNotice[] = [];
  const statuses: string[] = [];
  const status = () => formatStatus({ model: 'gw-chat', hasKey: true, snapshot: limits.snapshot(), siteUrl: undefined, now: time.now() }).text;
  const answer = client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello' }] }, { signal: signal(), onRetry: (n) => notices.push(n) });
  await until(() => notices.length > 0);
  statuses.push(status());
  time.advance(20_000);
  statuses.push(status());
  time.advance(MINUTE);
  assert.match((await answer).text, /hello/);
  return { notices, statuses };
}

describe('a key limited to one request a minute: set, then one question', () => {
  test('limits reported in headers: the key check is the only request before the question, which waits in the pacing (no 429)', async () => {
    const { notices, statuses } = await setKeyThenAsk('limited-key', undefined, 16_000);
    assert.deepEqual(sent(), ['GET /v1/models 200', 'POST /v1/chat/completions 200'], 'one request before the question, no 429');
    assert.deepEqual(
      notices.map((n) => n.reason),
      ['pacing'],
    );
    assert.ok(Math.abs(notices[0]!.delayMs - 44_000) <= 1000, `waits out the rest of the minute (${notices[0]!.delayMs} ms)`);
    assert.deepEqual(statuses, ['$(watch) gw-chat · rate limited, 44s', '$(watch) gw-chat · rate limited, 24s'], 'the status bar counts down');
  });

  test('no limit headers, the limit configured (gateway.limits.requestsPerMinute: 1): the same, no 429', async () => {
    const { notices, statuses } = await setKeyThenAsk('limited-blind-key', { requestsPerMinute: 1, tokensPerMinute: 200_000 }, 16_000);
    assert.deepEqual(sent(), ['GET /v1/models 200', 'POST /v1/chat/completions 200'], 'one request before the question, no 429');
    assert.deepEqual(
      notices.map((n) => n.reason),
      ['pacing'],
    );
    assert.deepEqual(statuses, ['$(watch) gw-chat · rate limited, 44s', '$(watch) gw-chat · rate limited, 24s']);
  });

  test('no limit headers, nothing configured: the first 429 cannot be foreseen, but it teaches the limit; the next question waits in the pacing', async () => {
    const limits = new LimitTracker(time);
    const keyCheckClient = makeClient(emulator().baseUrl, 'limited-blind-key', { clock: time, limits: new LimitTracker(time) });
    assert.equal((await checkAndStoreKey('limited-blind-key', { client: keyCheckClient, limits, store: async () => undefined }, signal())).kind, 'accepted');
    const client = makeClient(emulator().baseUrl, 'limited-blind-key', { clock: time, limits });
    const ask = (content: string, notices: RetryNotice[]) =>
      client.chat({ model: 'gw-chat', messages: [{ role: 'user', content }] }, { signal: signal(), onRetry: (n) => notices.push(n) });

    time.advance(16_000);
    const first: RetryNotice[] = [];
    const firstAnswer = ask('first', first);
    await until(() => first.length > 0);
    assert.equal(first[0]!.reason, 'rate_limit', 'the Gateway said nothing of its limits: its 429 is the first the client hears of them');
    time.advance(MINUTE);
    await firstAnswer;

    const second: RetryNotice[] = [];
    const secondAnswer = ask('second', second);
    await until(() => second.length > 0);
    assert.equal(second[0]!.reason, 'pacing', 'the client knows now that the key gets one request a window');
    const status = formatStatus({ model: 'gw-chat', hasKey: true, snapshot: limits.snapshot(), siteUrl: undefined, now: time.now() }).text;
    assert.match(status, /rate limited, (59|60)s/, 'the status bar counts down');
    time.advance(MINUTE);
    await secondAnswer;
    assert.deepEqual(
      sent(),
      ['GET /v1/models 200', 'POST /v1/chat/completions 429', 'POST /v1/chat/completions 200', 'POST /v1/chat/completions 200'],
      'one 429, not one a question',
    );
  });
});
