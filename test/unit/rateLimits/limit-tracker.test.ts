// The key's limits: headers parsed, local counting without them, and pacing that avoids 429.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { parseDuration } from '../../../src/rateLimits/common/duration';
import { type GatewayClient, type RetryNotice, type StreamEvent } from '../../../src/gateway/common';
import { systemClock } from '../../../src/base/common/ports';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

/** The first emulator's time; the pacing tests wait in it, so its windows pass without real waiting. */
const time = new VirtualClock();

describe('parseDuration', () => {
  const cases: [string, number | undefined][] = [
    ['1s', 1000],
    ['6m0s', 360_000],
    ['250ms', 250],
    ['1m30s', 90_000],
    ['1h2m3.5s', 3_723_500],
    ['0.5s', 500],
    ['2', 2000],
    ['', undefined],
    ['soon', undefined],
    ['5x', undefined],
  ];
  for (const [text, expected] of cases) test(`"${text}" → ${String(expected)}`, () => assert.equal(parseDuration(text), expected));
});

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({
    port: 0,
    clock: time,
    windowMs: 1000,
    keys: [
      { key: 'five-key', rpm: 5, tpm: 100_000 },
      { key: 'two-key', rpm: 2 },
      { key: 'two-blind-key', rpm: 2, rateLimitHeaders: false },
    ],
  });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('limit state', () => {
  test('follows the x-ratelimit headers', async () => {
    const limits = new LimitTracker(systemClock);
    await makeClient(emulator.baseUrl, 'five-key', { limits }).chat(chat, { signal: signal() });
    const snap = limits.snapshot();
    assert.equal(snap.source, 'headers');
    assert.equal(snap.requestLimit, 5);
    assert.equal(snap.requestsRemaining, 4);
    assert.ok(snap.requestsResetAt !== undefined && snap.requestsResetAt > Date.now());
    assert.equal(snap.tokenLimit, 100_000);
    assert.ok(snap.tokensRemaining < 100_000);
    assert.ok(snap.tokensSpentThisWindow > 0);
    assert.equal(snap.balance, 'ok');
  });

  test('counts its own requests and tokens when the gateway sends no headers', async () => {
    const limits = new LimitTracker(systemClock, { requestsPerMinute: 7, tokensPerMinute: 1000 });
    await makeClient(emulator.baseUrl, 'two-blind-key', { limits }).chat(chat, { signal: signal() });
    const snap = limits.snapshot();
    assert.equal(snap.source, 'local');
    assert.equal(snap.requestLimit, 7);
    assert.equal(snap.requestsRemaining, 6);
    assert.equal(snap.tokenLimit, 1000);
    assert.equal(snap.tokensRemaining, 1000 - snap.tokensSpentThisWindow);
    assert.ok(snap.tokensSpentThisWindow > 0);
  });

  test('tells listeners about every change', async () => {
    const limits = new LimitTracker(systemClock);
    const seen: number[] = [];
    limits.onChange((snap) => seen.push(snap.requestsRemaining));
    await makeClient(emulator.baseUrl, 'five-key', { limits }).chat(chat, { signal: signal() });
    assert.ok(seen.includes(4));
  });
});

describe('pacing', () => {
  test('with headers: six requests on a 2-per-window key cause no 429', async () => {
    const limits = new LimitTracker(time);
    const client = makeClient(emulator.baseUrl, 'two-key', { clock: time, limits });
    const notices: RetryNotice[] = [];
    for (let i = 0; i < 6; i++) await client.chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    assert.deepEqual(
      emulator.requests.map((r) => r.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.ok(notices.length >= 2 && notices.every((n) => n.reason === 'pacing'));
  });

  test('without headers: local counting against the configured limits causes no 429', async () => {
    const limits = new LimitTracker(time, { requestsPerMinute: 2, tokensPerMinute: 200_000 }, 1000);
    const client = makeClient(emulator.baseUrl, 'two-blind-key', { clock: time, limits });
    for (let i = 0; i < 5; i++) await client.chat(chat, { signal: signal() });
    assert.deepEqual(
      emulator.requests.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
  });

  test('without pacing the same key does hit 429 (the check above is not vacuous)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${emulator.baseUrl}/models`, { headers: { Authorization: 'Bearer two-blind-key' } });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});

describe('tokens: the headers already count the prompt', () => {
  // A minute-long window, so what the gateway reports after the request is still the same window.
  let gateway: Emulator;
  before(async () => {
    gateway = await startEmulator({
      port: 0,
      keys: [
        { key: 'tpm-key', tpm: 30_000 },
        { key: 'tpm-blind-key', tpm: 30_000, rateLimitHeaders: false },
      ],
    });
  });
  after(() => gateway.close());
  beforeEach(() => gateway.reset());

  const big = 'word '.repeat(9600); // about 12k prompt tokens: two fit in 30k, three do not
  const bigChat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: big }] };
  const bigRespond = { model: 'gw-code', input: big };
  const gatewayRemaining = async (key: string) =>
    Number((await fetch(`${gateway.baseUrl}/models`, { headers: { Authorization: `Bearer ${key}` } })).headers.get('x-ratelimit-remaining-tokens'));
  const usageOf = (events: StreamEvent[]) => events.find((e) => e.type === 'usage');

  const calls: [string, (client: GatewayClient) => Promise<number | undefined>][] = [
    ['chat', async (client) => (await client.chat(bigChat, { signal: signal() })).usage?.totalTokens],
    ['chat stream', async (client) => totalOf(usageOf(await collect(client.chatStream(bigChat, { signal: signal() }))))],
    ['responses', async (client) => (await client.respond(bigRespond, { signal: signal() })).usage?.totalTokens],
    ['responses stream', async (client) => totalOf(usageOf(await collect(client.respondStream(bigRespond, { signal: signal() }))))],
  ];
  for (const [name, call] of calls) {
    test(`${name}: tokens left match the gateway's count, the prompt subtracted once`, async () => {
      const limits = new LimitTracker(systemClock);
      const total = await call(makeClient(gateway.baseUrl, 'tpm-key', { limits }));
      assert.ok(total !== undefined && total > 12_000);
      assert.equal(limits.snapshot().source, 'headers');
      assert.equal(limits.snapshot().tokensRemaining, 30_000 - total);
      assert.equal(limits.snapshot().tokensRemaining, await gatewayRemaining('tpm-key'));
    });
  }

  test('a second prompt that fits what the gateway has left is sent at once, and admitted', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock, { requestsPerMinute: 60, tokensPerMinute: 30_000 });
    const client = makeClient(gateway.baseUrl, 'tpm-key', { clock, limits });
    const notices: RetryNotice[] = [];
    for (let i = 0; i < 2; i++) await collect(client.chatStream(bigChat, { signal: signal(), onRetry: (n) => notices.push(n) }));
    assert.deepEqual(clock.sleeps, []);
    assert.deepEqual(notices, []);
    assert.deepEqual(
      gateway.requests.map((r) => r.status),
      [200, 200],
    );
  });

  test('without headers the whole total is counted locally', async () => {
    const limits = new LimitTracker(systemClock, { requestsPerMinute: 60, tokensPerMinute: 30_000 });
    const total = await calls[0][1](makeClient(gateway.baseUrl, 'tpm-blind-key', { limits }));
    assert.equal(limits.snapshot().source, 'local');
    assert.equal(limits.snapshot().tokensRemaining, 30_000 - (total ?? 0));
  });
});

function totalOf(event: StreamEvent | undefined): number | undefined {
  return event?.type === 'usage' ? event.usage.totalTokens : undefined;
}
