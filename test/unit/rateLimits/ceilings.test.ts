// Waits have ceilings: one absurd Retry-After or reset (years away) fails that request with a clear error and holds
// back nothing after it; no timer is set beyond what a timer holds; no flood of limit events.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, mock, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { RateLimitWaitTooLongError } from '../../../src/gateway/common';
import { type LimitSnapshot } from '../../../src/rateLimits/common/limitTypes';
import { MAX_TIMER_MS, systemClock } from '../../../src/base/common/ports';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('a Retry-After beyond the longest wait', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());

  test('Retry-After: 1000000000 fails that request at once, naming the wait and the limits page; the next goes at once, with a handful of limit events', async () => {
    const limits = new LimitTracker(systemClock);
    const client = makeClient(emulator.baseUrl, 'demo-key', { clock: systemClock, limits });
    emulator.fault('demo-key', { kind: '429', retryAfter: 1_000_000_000 });
    const error = await client.chat(chat, { signal: AbortSignal.timeout(3000) }).catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitWaitTooLongError, String(error));
    assert.equal(error.retryAfterMs, 1_000_000_000_000);
    assert.match(error.message, /asked to wait 32 years/);
    assert.match(error.message, /longer than the 60 s this extension waits/);
    assert.match(error.message, /https:\/\/gateway\.example\/cabinet\/limits/);
    assert.equal(limits.snapshot().rateLimitedUntil, undefined, 'nothing is held back for later requests');
    const events: LimitSnapshot[] = [];
    limits.onChange((snap) => events.push(snap));
    const result = await client.chat(chat, { signal: AbortSignal.timeout(3000) });
    assert.equal(result.text, 'Echo: hello');
    assert.deepEqual(
      emulator.requests.map((r) => r.status),
      [429, 200],
    );
    assert.ok(events.length <= 6, `${events.length} limit events for one request`);
  });
});

describe('a hostile gateway', () => {
  let server: Server;
  let baseUrl: string;
  let answer: (path: string) => { status: number; headers: Record<string, string> };
  const requests: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      requests.push(req.url ?? '');
      const { status, headers } = answer(req.url ?? '');
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(
        status === 200
          ? '{"object":"list","data":[{"id":"gw-chat","owned_by":"gateway"}]}'
          : '{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow down"}}',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests.length = 0;
  });

  test('a Retry-After date in the year 9999 fails that request with the wait, and the next request goes at once', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock);
    const client = makeClient(baseUrl, 'demo-key', { clock, limits, fetch: clock.fetchWhole });
    const farFuture: Record<string, string> = { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' };
    answer = (path) => (path.endsWith('/chat/completions') ? { status: 429, headers: farFuture } : { status: 200, headers: {} });
    const error = await client.chat(chat, { signal: signal() }).catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitWaitTooLongError, String(error));
    assert.match(error.message, /asked to wait 7,\d{3} years/);
    const models = await client.listModels({ signal: signal() });
    assert.deepEqual(
      models.map((m) => m.id),
      ['gw-chat'],
    );
    assert.deepEqual(clock.sleeps, [], 'nothing waited');
  });

  for (const header of ['x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens']) {
    test(`${header}: 1000000000s with nothing remaining holds the next request one window at most, in one wait`, async () => {
      const clock = new VirtualClock();
      const limits = new LimitTracker(clock);
      const client = makeClient(baseUrl, 'demo-key', { clock, limits, fetch: clock.fetchWhole });
      const exhausted = {
        'x-ratelimit-limit-requests': '5',
        'x-ratelimit-remaining-requests': header === 'x-ratelimit-reset-requests' ? '0' : '5',
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': header === 'x-ratelimit-reset-tokens' ? '0' : '1000',
        'x-ratelimit-reset-requests': '0s',
        'x-ratelimit-reset-tokens': '0s',
        [header]: '1000000000s',
      };
      answer = () => ({ status: 200, headers: exhausted });
      await client.chat(chat, { signal: signal() }).catch(() => undefined);
      const started = clock.now();
      await client.listModels({ signal: signal() });
      assert.ok(clock.now() - started <= 60_000, `waited ${clock.now() - started} ms`);
      assert.ok(clock.sleeps.length <= 2 && clock.sleeps.every((ms) => ms <= 60_000), `sleeps ${JSON.stringify(clock.sleeps)}`);
      assert.equal(requests.length, 2);
    });
  }
});

describe('timers', () => {
  test('the system clock never sets a timer beyond 2^31-1 ms (a longer one would fire after 1 ms)', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let woke = false;
      const controller = new AbortController();
      const sleeping = systemClock.sleep(2 ** 40, controller.signal).then(
        () => (woke = true),
        () => undefined,
      );
      mock.timers.tick(10);
      await Promise.resolve();
      assert.equal(woke, false, 'a 2^40 ms sleep did not end after 10 ms');
      mock.timers.tick(MAX_TIMER_MS);
      await sleeping;
      assert.equal(woke, true, 'it ends at the longest delay a timer holds');
    } finally {
      mock.timers.reset();
    }
  });
});
