// Pacing against the emulator: concurrent waiters, the reset headers' meaning, and chained responses. The client and the
// emulator share a virtual clock: waits pass in the order real ones would, and the emulator's windows move with them.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { AbortError, type CallOptions, type GatewayClient, type RespondParams, type RetryNotice } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { collect, makeClient } from '../helpers/clients';
import { clockedEmulator } from '../helpers/clockedEmulator';
import { VirtualClock } from '../helpers/clock';

const WINDOW_MS = 1500;

const time = new VirtualClock();
const emulator = clockedEmulator({
  clock: time,
  windowMs: WINDOW_MS,
  keys: [
    { key: 'three-key', rpm: 3 },
    { key: 'three-blind-key', rpm: 3, rateLimitHeaders: false },
    { key: 'one-blind-key', rpm: 1, rateLimitHeaders: false },
    { key: 'tpm-key', tpm: 3000 },
    { key: 'tpm-blind-key', tpm: 3000, rateLimitHeaders: false },
  ],
});
afterEach(() => {
  time.onSleep = () => undefined;
});

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const tracker = (limits: { requestsPerMinute?: number; tokensPerMinute?: number } = {}) =>
  new LimitTracker(time, { requestsPerMinute: 60, tokensPerMinute: 200_000, ...limits }, WINDOW_MS);
const statuses = () => emulator().requests.map((r) => r.status);

/** Fills a 3-request window with requests 300 ms apart (so its slots free one at a time), then sends 3 at once. */
async function fillThenBurst(client: GatewayClient): Promise<void> {
  for (let i = 0; i < 3; i++) {
    if (i > 0) await time.sleep(300);
    await client.chat(chat, { signal: AbortSignal.timeout(10_000) });
  }
  await Promise.all([0, 1, 2].map(() => client.chat(chat, { signal: AbortSignal.timeout(10_000) })));
}

describe('requests waiting on pacing', () => {
  test('without headers: they take the freed slots one at a time, and none meets a 429', async () => {
    const client = makeClient(emulator().baseUrl, 'three-blind-key', { clock: time, limits: tracker({ requestsPerMinute: 3 }) });
    await fillThenBurst(client);
    assert.deepEqual(statuses(), [200, 200, 200, 200, 200, 200]);
  });

  test('paced by the reset headers (a full refill): none meets a 429', async () => {
    const client = makeClient(emulator().baseUrl, 'three-key', { clock: time, limits: tracker() });
    await fillThenBurst(client);
    assert.deepEqual(statuses(), [200, 200, 200, 200, 200, 200]);
  });

  test('a cancelled wait ends at once with AbortError, and nothing is sent', async () => {
    const limits = new LimitTracker(time, { requestsPerMinute: 1, tokensPerMinute: 200_000 }, 60_000);
    const client = makeClient(emulator().baseUrl, 'one-blind-key', { clock: time, limits });
    await client.chat(chat, { signal: AbortSignal.timeout(10_000) });
    const cancel = new AbortController();
    const waits = time.sleeps.length;
    time.onSleep = () => setImmediate(() => cancel.abort());
    const started = time.now();
    await assert.rejects(client.chat(chat, { signal: cancel.signal }), AbortError);
    assert.ok(time.sleeps.length > waits, 'it was waiting');
    assert.equal(time.now(), started, 'and it ended before any of the wait passed');
    assert.deepEqual(statuses(), [200]);
  });
});

describe('a chain of responses is paced by the whole stored conversation', () => {
  const big = 'lorem ipsum '.repeat(400); // about 1200 tokens: the stored conversation outgrows a 3000 TPM key by turn 3
  type Turn = (client: GatewayClient, params: RespondParams, call: CallOptions) => Promise<string>;
  const cases: [string, string, Turn][] = [
    ['responses, with headers', 'tpm-key', async (client, params, call) => (await client.respond(params, call)).id],
    [
      'responses stream, without headers',
      'tpm-blind-key',
      async (client, params, call) => {
        const created = (await collect(client.respondStream(params, call))).find((event) => event.type === 'response');
        return created?.type === 'response' ? created.id : '';
      },
    ],
  ];
  for (const [name, key, turn] of cases) {
    test(`${name}: three chained turns meet no 429`, async () => {
      const client = makeClient(emulator().baseUrl, key, { clock: time, limits: tracker({ tokensPerMinute: 3000 }) });
      const notices: RetryNotice[] = [];
      const call = { signal: AbortSignal.timeout(10_000), onRetry: (notice: RetryNotice) => notices.push(notice) };
      let previousResponseId: string | undefined;
      for (const input of [big, 'turn 2', 'turn 3']) previousResponseId = await turn(client, { model: 'gw-code', input, previousResponseId }, call);
      assert.deepEqual(statuses(), [200, 200, 200]);
      // The third turn's own few tokens fit what is left; only the conversation behind it makes the client wait.
      assert.deepEqual(
        notices.map((notice) => notice.reason),
        ['pacing'],
      );
    });
  }
});
