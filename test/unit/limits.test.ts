// The key's limits: headers parsed, local counting without them, and pacing that avoids 429.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { LimitTracker, parseDuration, type RetryNotice } from '../../src/core/api';
import { systemClock } from '../../src/core/ports';
import { startEmulator, type Emulator } from '../emulator/server';
import { makeClient, signal } from './helpers/clients';

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
    const limits = new LimitTracker(systemClock);
    const client = makeClient(emulator.baseUrl, 'two-key', { clock: systemClock, limits });
    const notices: RetryNotice[] = [];
    for (let i = 0; i < 6; i++) await client.chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    assert.deepEqual(emulator.requests.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
    assert.ok(notices.length >= 2 && notices.every((n) => n.reason === 'pacing'));
  });

  test('without headers: local counting against the configured limits causes no 429', async () => {
    const limits = new LimitTracker(systemClock, { requestsPerMinute: 2, tokensPerMinute: 200_000 }, 1000);
    const client = makeClient(emulator.baseUrl, 'two-blind-key', { clock: systemClock, limits });
    for (let i = 0; i < 5; i++) await client.chat(chat, { signal: signal() });
    assert.deepEqual(emulator.requests.map((r) => r.status), [200, 200, 200, 200, 200]);
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
