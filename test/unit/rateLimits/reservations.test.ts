// Pacing counts requests in flight: bursts against the emulator on virtual time meet no 429, in about the ideal time;
// the same bursts unpaced do meet 429s (so these tests can fail).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AuthError, BadRequestError, ConnectionError, EndpointError, GatewayClient, RateLimitError, type RetryNotice } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { type ConfiguredLimits } from '../../../src/settings/common/valueSets';
import { formatStatus } from '../../../src/status/common/statusView';
import { retryText } from '../../../src/chat/common/retryText';
import { burstClient, idealMs, runBurst, startBurstRig, unpacedBurst, utilisation, type BurstRig } from '../helpers/bursts';
import { signal } from '../helpers/clients';
import { createServer } from 'node:net';

const WINDOW_MS = 2000;
let rig: BurstRig;
before(async () => {
  rig = await startBurstRig(
    [
      { key: 'five-blind', rpm: 5, rateLimitHeaders: false },
      { key: 'ten', rpm: 10 },
      { key: 'ten-blind', rpm: 10, rateLimitHeaders: false },
      { key: 'tpm', rpm: 100, tpm: 10_000 },
      { key: 'tpm-blind', rpm: 100, tpm: 10_000, rateLimitHeaders: false },
      { key: 'small-tpm-blind', rpm: 100, tpm: 1000, rateLimitHeaders: false },
      { key: 'chain-blind', rpm: 100, tpm: 3000, rateLimitHeaders: false },
    ],
    WINDOW_MS,
  );
});
after(() => rig.close());
beforeEach(() => rig.emulator.reset());

const limits = (requestsPerMinute: number, tokensPerMinute = 1_000_000): ConfiguredLimits => ({ requestsPerMinute, tokensPerMinute });
const chat = (tag: string, text = 'hello') => ({ model: 'gw-chat', messages: [{ role: 'user' as const, content: `[${tag}] ${text}` }] });
const chats = (client: GatewayClient, n: number) => Array.from({ length: n }, (_, i) => () => client.chat(chat(`r${i}`), { signal: signal() }));
/** About 4,000 prompt tokens: 40 % of a 10,000-token TPM. */
const fortyPercent = 'word '.repeat(3200);
const responses = (client: GatewayClient, n: number) =>
  Array.from({ length: n }, (_, i) => () => client.respond({ model: 'gw-code', input: `[r${i}] ${fortyPercent}` }, { signal: signal() }));
const chatBodies = (n: number) => Array.from({ length: n }, (_, i) => ({ path: '/chat/completions', body: chat(`r${i}`) }));
const responseBodies = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: '/responses', body: { model: 'gw-code', input: `[r${i}] ${fortyPercent}` } }));
const refused = (statuses: number[]) => statuses.filter((status) => status === 429).length;

describe('bursts on a short window (virtual time): no 429, close to the ideal schedule', () => {
  test('10 at once on a 5-request key without headers: all answered, none refused, in the ideal time', async () => {
    const outcome = await runBurst(rig, chats(burstClient(rig, 'five-blind', limits(5)), 10));
    assert.deepEqual(outcome.statuses, Array(10).fill(200));
    assert.ok(utilisation(idealMs(10, 5, WINDOW_MS), outcome.elapsedMs) >= 0.9, `took ${outcome.elapsedMs} ms`);
  });

  test('control: the same burst unpaced meets 429s', async () => {
    assert.equal(refused(await unpacedBurst(rig, 'five-blind', chatBodies(10))), 5);
  });

  for (const [key, headers] of [
    ['ten', 'with headers'],
    ['ten-blind', 'without headers'],
  ] as const) {
    test(`30 at once at 3× a 10-request limit, ${headers}: none refused, utilisation ≥ 0.9`, async () => {
      const outcome = await runBurst(rig, chats(burstClient(rig, key, limits(10)), 30));
      assert.equal(outcome.tooMany, 0);
      assert.equal(outcome.statuses.length, 30);
      assert.ok(utilisation(idealMs(30, 10, WINDOW_MS), outcome.elapsedMs) >= 0.9, `took ${outcome.elapsedMs} ms`);
    });

    test(`control: the same 30 unpaced, ${headers}, meet 429s`, async () => {
      assert.equal(refused(await unpacedBurst(rig, key, chatBodies(30))), 20);
    });

    test(`4 responses at 40 % of TPM each, ${headers === 'with headers' ? 'with' : 'without'} headers: none refused, two windows' worth in one window's wait`, async () => {
      const tpmKey = key === 'ten' ? 'tpm' : 'tpm-blind';
      const outcome = await runBurst(rig, responses(burstClient(rig, tpmKey, limits(100, 10_000)), 4));
      assert.deepEqual(outcome.statuses, [200, 200, 200, 200]);
      assert.ok(utilisation(idealMs(4, 2, WINDOW_MS), outcome.elapsedMs) >= 0.9, `took ${outcome.elapsedMs} ms`);
    });

    test(`control: the 4 responses unpaced, ${headers}, meet 429s`, async () => {
      const tpmKey = key === 'ten' ? 'tpm' : 'tpm-blind';
      assert.equal(refused(await unpacedBurst(rig, tpmKey, responseBodies(4))), 2);
    });
  }

  test("with headers and limits never configured (the defaults, far above the key's): the first request goes alone and teaches the rest", async () => {
    const outcome = await runBurst(rig, chats(burstClient(rig, 'ten', { requestsPerMinute: 60, tokensPerMinute: 200_000 }), 30));
    assert.equal(outcome.tooMany, 0);
    assert.ok(utilisation(idealMs(30, 10, WINDOW_MS), outcome.elapsedMs) >= 0.9, `took ${outcome.elapsedMs} ms`);
  });
});

describe('a chained responses request reserves the stored conversation it continues', () => {
  const big = 'lorem ipsum '.repeat(400); // about 1,200 tokens

  test('a continuation and a new request of the same size at once: the second waits rather than meet a 429', async () => {
    const client = burstClient(rig, 'chain-blind', limits(100, 3000));
    const first = await client.respond({ model: 'gw-code', input: big }, { signal: signal() });
    const outcome = await runBurst(rig, [
      () => client.respond({ model: 'gw-code', input: '[next] go on', previousResponseId: first.id }, { signal: signal() }),
      () => client.respond({ model: 'gw-code', input: `[other] ${big}` }, { signal: signal() }),
    ]);
    assert.deepEqual(outcome.statuses, [200, 200]);
    assert.equal(outcome.elapsedMs, WINDOW_MS, 'one of them waited for the first turn to leave the window');
  });

  test('control: the same two sent unpaced meet a 429', async () => {
    const client = burstClient(rig, 'chain-blind', limits(100, 3000));
    const first = await client.respond({ model: 'gw-code', input: big }, { signal: signal() });
    const statuses = await unpacedBurst(rig, 'chain-blind', [
      { path: '/responses', body: { model: 'gw-code', input: '[next] go on', previous_response_id: first.id } },
      { path: '/responses', body: { model: 'gw-code', input: `[other] ${big}` } },
    ]);
    assert.equal(refused(statuses), 1);
  });
});

describe('reservations are given back when the gateway did not count the request', () => {
  /** Clients on one tracker (one extension host), with the given key or base URL. */
  function host(requests: number) {
    const tracker = new LimitTracker(rig.clock, limits(requests), WINDOW_MS);
    const client = (key: string, baseUrl = rig.emulator.baseUrl) =>
      new GatewayClient({
        baseUrl: () => baseUrl,
        apiKey: { getApiKey: async () => key },
        userAgent: 't',
        clock: rig.clock,
        fetch: rig.clock.fetchWhole,
        limits: tracker,
        random: () => 0.5,
      });
    return { tracker, client };
  }

  test('401, 404 and a refused connection take no slot: two requests on a 2-request key then go at once', async () => {
    const { client } = host(2);
    await assert.rejects(client('unknown-key').chat(chat('a'), { signal: signal() }), AuthError);
    await assert.rejects(client('five-blind', rig.emulator.baseUrl.replace(/\/v1$/, '/v2')).chat(chat('b'), { signal: signal() }), EndpointError);
    await assert.rejects(client('five-blind', `http://127.0.0.1:${await closedPort()}/v1`).chat(chat('c'), { signal: signal() }), ConnectionError);
    const start = rig.clock.now();
    const outcome = await runBurst(rig, chats(client('five-blind'), 2));
    assert.deepEqual(outcome.statuses, [200, 200]);
    assert.equal(rig.clock.now() - start, 0, 'no wait: the failures gave their slots back');
  });

  test('a 400 was counted by the gateway: it keeps its slot, and the next two wait for it rather than meet a 429', async () => {
    const { client } = host(2);
    await assert.rejects(client('five-blind').chat({ ...chat('a'), model: 'gw-code' }, { signal: signal() }), BadRequestError);
    const outcome = await runBurst(rig, chats(client('five-blind'), 2));
    assert.equal(outcome.tooMany, 0);
    assert.equal(outcome.elapsedMs, WINDOW_MS);
  });

  test('a 429 takes no slot either, and its wait is shared by the waiting requests', async () => {
    const { client } = host(5);
    rig.emulator.fault('five-blind', { kind: '429', retryAfter: 1 });
    const outcome = await runBurst(rig, chats(client('five-blind'), 5));
    // The injected 429 is the only one; its retry and the other four fit the window.
    assert.equal(outcome.tooMany, 1);
    assert.equal(outcome.statuses.length, 6);
  });

  test('the reservation is settled with the real usage', async () => {
    const { tracker, client } = host(5);
    const result = await client('five-blind').chat(chat('a', 'x'.repeat(400)), { signal: signal() });
    assert.ok(result.usage);
    assert.equal(tracker.snapshot().tokensSpentThisWindow, result.usage.totalTokens);
  });
});

describe('fairness: first come, first served, with backfilling that never delays the first waiting request', () => {
  const tokens = (n: number) => 'x'.repeat(n * 4);

  test('a big request is not starved by small ones made after it: it goes when its room frees, small ones fill only the slack', async () => {
    const client = burstClient(rig, 'small-tpm-blind', limits(100, 1000));
    await client.chat(chat('first', tokens(600)), { signal: signal() });
    const start = rig.clock.now();
    const big = () => client.chat(chat('big', tokens(700)), { signal: signal() });
    const smalls = Array.from({ length: 40 }, (_, i) => () => client.chat(chat(`s${i}`, 'xxxxxxxx'), { signal: signal() }));
    const outcome = await runBurst(rig, [big, ...smalls]);
    assert.equal(outcome.tooMany, 0);
    const bigAt = rig.emulator.requests.find((r) => JSON.stringify(r.body).includes('[big]'))?.time;
    assert.equal(bigAt, start + WINDOW_MS, 'the big request went as soon as the first left the window');
    const before = outcome.admitted.indexOf('big');
    assert.ok(before > 0, 'small requests used the slack before it');
    assert.ok(before < 40, 'not every small request went first: the rest waited their turn behind it');
  });

  test('a request larger than the whole TPM goes when the window is empty, with a warning, and does not hold back a small one that delays nothing', async () => {
    const client = burstClient(rig, 'small-tpm-blind', limits(100, 1000));
    await client.chat(chat('first', tokens(600)), { signal: signal() });
    const start = rig.clock.now();
    const notices: RetryNotice[] = [];
    const huge = () =>
      client.chat(chat('huge', tokens(1500)), { signal: signal(), onRetry: (n) => notices.push(n) }).then(
        () => assert.fail('the emulator refuses a prompt larger than the TPM'),
        (error: unknown) => assert.ok(error instanceof RateLimitError),
      );
    const small = () => client.chat(chat('small', 'xxxxxxxx'), { signal: signal() });
    await runBurst(rig, [huge, small]);
    const firstTry = rig.emulator.requests.find((r) => JSON.stringify(r.body).includes('[huge]'));
    const smallAt = rig.emulator.requests.find((r) => JSON.stringify(r.body).includes('[small]'))?.time;
    assert.equal(firstTry?.time, start + WINDOW_MS, 'sent once the first request left the window');
    // It fits beside the first request, which leaves the window when it does: going first delays nothing.
    assert.equal(smallAt, start, 'the small one was not held back by it');
    assert.equal(notices[0]?.reason, 'too_large');
    assert.match(notices[0]?.message ?? '', /more than this key's limit of 1,000 tokens per minute.*likely refuse/);
  });
});

describe('a paced wait shows as a 429 wait does', () => {
  test('the status bar counts down and the chat notice reads the same', async () => {
    const tracker = new LimitTracker(rig.clock, limits(1), WINDOW_MS);
    const client = new GatewayClient({
      baseUrl: () => rig.emulator.baseUrl,
      apiKey: { getApiKey: async () => 'five-blind' },
      userAgent: 't',
      clock: rig.clock,
      fetch: rig.clock.fetchWhole,
      limits: tracker,
    });
    await client.chat(chat('a'), { signal: signal() });
    const notices: RetryNotice[] = [];
    let shown: string | undefined;
    tracker.onChange((snap) => {
      if (snap.rateLimitedUntil === undefined) return;
      shown ??= formatStatus({ model: 'gw-chat', hasKey: true, snapshot: snap, siteUrl: 'https://gateway.example', now: rig.clock.now() }).text;
    });
    await client.chat(chat('b'), { signal: signal(), onRetry: (n) => notices.push(n) });
    assert.equal(shown, '$(watch) gw-chat · rate limited, 2s');
    assert.equal(notices.length, 1);
    assert.equal(notices[0].reason, 'pacing');
    assert.equal(notices[0].delayMs, WINDOW_MS);
    assert.equal(retryText(notices[0]), retryText({ ...notices[0], reason: 'rate_limit' }));
    assert.equal(retryText(notices[0]), 'Rate limit reached — waiting 2 s, then the answer follows.');
    assert.equal(tracker.snapshot().rateLimitedUntil, undefined);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
