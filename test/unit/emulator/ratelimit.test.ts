// The gateway emulator's sliding-window rate limits (RPM and TPM), Retry-After, and the x-ratelimit-* headers.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { KeyState } from '../../emulator/keys';
import { RateLimiter } from '../../emulator/ratelimit';
import { startEmulator, type Emulator } from '../../emulator/server';
import { call, chatBody, json, post } from '../../emulator/test-helpers';
import { VirtualClock } from '../helpers/clock';
import { DURATION, RATE_HEADERS, expectError } from '../helpers/emulator';

void describe('rate limits', () => {
  let rl: Emulator;
  const time = new VirtualClock({ manual: true }); // the test moves the windows' time itself
  before(async () => {
    rl = await startEmulator({
      clock: time,
      windowMs: 1500,
      rpm: 2,
      keys: [
        { key: 'tok', tpm: 60, rpm: 100 },
        { key: 'quiet', rateLimitHeaders: false },
      ],
    });
  });
  after(() => rl.close());
  beforeEach(() => rl.reset());

  void it('answers 429 past the RPM with Retry-After and headers, then admits again once the oldest request leaves the window', async () => {
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 200);
    time.advance(100);
    const second = await post(rl, '/v1/chat/completions', chatBody('hi'));
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-ratelimit-remaining-requests'), '0');
    time.advance(200); // if this rejected request counted, it would still be in the window below
    const third = await post(rl, '/v1/chat/completions', chatBody('hi'));
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 2, String(retryAfter));
    assert.equal(third.headers.get('x-ratelimit-limit-requests'), '2');
    assert.equal(third.headers.get('x-ratelimit-remaining-requests'), '0');
    assert.match(third.headers.get('x-ratelimit-reset-requests')!, DURATION);
    await expectError(third, 429, 'rate_limit_error', 'rate_limit_exceeded', null);
    // a rejected request does not count: once the first request leaves the window, exactly one slot is free
    time.advance(1199); // 1 ms before the first request leaves the window
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 429);
    time.advance(1);
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 200);
  });

  void it('counts 400s as requests but not 401s', async () => {
    assert.equal((await post(rl, '/v1/chat/completions', { model: 'gw-chat' })).status, 400);
    assert.equal((await call(rl, 'GET', '/v1/models', undefined, { key: 'bogus' })).status, 401);
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 200);
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 429);
  });

  void it('answers 429 when the tokens in the window plus the prompt estimate exceed the TPM', async () => {
    const ok = await post(rl, '/v1/chat/completions', chatBody('a'.repeat(160)), { key: 'tok' });
    const body = await json(ok);
    assert.equal(body.usage.prompt_tokens, 40);
    assert.equal(ok.headers.get('x-ratelimit-limit-tokens'), '60');
    const remaining = Number(ok.headers.get('x-ratelimit-remaining-tokens'));
    assert.equal(remaining, 20); // the prompt is reserved at admission
    const res = await post(rl, '/v1/chat/completions', chatBody('b'.repeat(80)), { key: 'tok' });
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    assert.equal(res.headers.get('x-ratelimit-remaining-tokens'), String(Math.max(0, 60 - body.usage.total_tokens)));
    await expectError(res, 429, 'rate_limit_error', 'rate_limit_exceeded', null);
  });

  void it('omits the headers when the key or the emulator turns them off', async () => {
    const res = await call(rl, 'GET', '/v1/models', undefined, { key: 'quiet' });
    assert.equal(res.status, 200);
    for (const h of RATE_HEADERS) assert.equal(res.headers.get(h), null);
    const off = await startEmulator({ rateLimitHeaders: false });
    try {
      const r = await call(off, 'GET', '/v1/models');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-ratelimit-limit-requests'), null);
      assert.ok(r.headers.get('x-request-id'));
    } finally {
      await off.close();
    }
  });
});

void describe('x-ratelimit-reset-* (the limiter alone, on a fixed clock)', () => {
  const key: KeyState = { key: 'k', models: [], initialBalance: 0, balance: 0, rpm: 3, tpm: 1000, rateLimitHeaders: true };

  // The interface's reset is the time until the limit is fully replenished, not until one slot frees.
  void it('counts to the newest entry leaving the window: a full refill', () => {
    const limiter = new RateLimiter(60_000);
    assert.ok(limiter.admit(key, 100, 0).ok);
    assert.ok(limiter.admit(key, 200, 20_000).ok);
    const headers = limiter.headers(key, 30_000);
    assert.equal(headers['x-ratelimit-remaining-requests'], '1');
    assert.equal(headers['x-ratelimit-reset-requests'], '50s');
    assert.equal(headers['x-ratelimit-remaining-tokens'], '700');
    assert.equal(headers['x-ratelimit-reset-tokens'], '50s');
  });

  void it('for tokens, counts to the newest entry that holds tokens', () => {
    const limiter = new RateLimiter(60_000);
    assert.ok(limiter.admit(key, 100, 0).ok);
    assert.ok(limiter.admit(key, 0, 20_000).ok);
    const headers = limiter.headers(key, 30_000);
    assert.equal(headers['x-ratelimit-reset-requests'], '50s');
    assert.equal(headers['x-ratelimit-reset-tokens'], '30s');
  });

  void it('is 0s once the window is empty', () => {
    const limiter = new RateLimiter(60_000);
    assert.ok(limiter.admit(key, 100, 0).ok);
    const headers = limiter.headers(key, 60_000);
    assert.equal(headers['x-ratelimit-reset-requests'], '0s');
    assert.equal(headers['x-ratelimit-reset-tokens'], '0s');
  });
});
