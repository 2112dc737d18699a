// The gateway emulator over real HTTP: API keys, request ids and limit headers, the key's models, and its balance.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { formatDuration } from '../../emulator/ratelimit';
import { call, chatBody, json, post } from '../../emulator/test-helpers';
import { DURATION, RATE_HEADERS, expectError } from '../helpers/emulator';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

void describe('auth and headers', () => {
  void it('answers 401 invalid_api_key for a missing, malformed or unknown key, with x-request-id and no limits', async () => {
    for (const opts of [
      { key: null },
      { key: null, headers: { authorization: 'Basic demo-key' } },
      { key: null, headers: { authorization: 'Bearer' } },
      { key: 'nope' },
    ]) {
      const res = await call(emu, 'GET', '/v1/models', undefined, opts);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]+$/);
      assert.equal(res.headers.get('x-ratelimit-limit-requests'), null);
      await expectError(res, 401, 'authentication_error', 'invalid_api_key', null);
    }
  });

  void it('sends a distinct x-request-id and the rate-limit headers on every authenticated answer, errors included', async () => {
    const a = await call(emu, 'GET', '/v1/models');
    const b = await post(emu, '/v1/chat/completions', { model: 'gw-chat' });
    assert.equal(b.status, 400);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
    for (const res of [a, b]) for (const h of RATE_HEADERS) assert.ok(res.headers.get(h) !== null, h);
    assert.equal(a.headers.get('x-ratelimit-limit-requests'), '60');
    assert.equal(a.headers.get('x-ratelimit-limit-tokens'), '200000');
    assert.equal(a.headers.get('x-ratelimit-remaining-requests'), '59');
    assert.equal(b.headers.get('x-ratelimit-remaining-requests'), '58');
    assert.match(a.headers.get('x-ratelimit-reset-requests')!, DURATION);
  });

  void it('answers 404 for unknown paths', async () => {
    const res = await call(emu, 'GET', '/v1/nothing');
    assert.equal(res.status, 404);
    assert.equal((await json(res)).error.code, 'unknown_url');
  });

  void it('formats durations the way the interface does', () => {
    assert.equal(formatDuration(250), '250ms');
    assert.equal(formatDuration(1000), '1s');
    assert.equal(formatDuration(1200), '2s');
    assert.equal(formatDuration(90_000), '1m30s');
    assert.equal(formatDuration(360_000), '6m0s');
    assert.equal(formatDuration(0), '0s');
  });
});

void describe('models', () => {
  void it('lists the key’s models only', async () => {
    const all = await json(await call(emu, 'GET', '/v1/models'));
    assert.equal(all.object, 'list');
    assert.deepEqual(
      all.data.map((m: any) => m.id),
      ['gw-chat', 'gw-chat-pro', 'gw-chat-mini', 'gw-code'],
    );
    for (const m of all.data) {
      assert.equal(m.object, 'model');
      assert.equal(m.owned_by, 'gateway');
      assert.ok(Number.isInteger(m.created));
    }
    const small = await json(await call(emu, 'GET', '/v1/models', undefined, { key: 'small-key' }));
    assert.deepEqual(
      small.data.map((m: any) => m.id),
      ['gw-chat-mini'],
    );
  });

  void it('rejects models the key lacks and gw-code on chat completions', async () => {
    const e1 = await expectError(
      await post(emu, '/v1/chat/completions', chatBody('hi'), { key: 'small-key' }),
      400,
      'invalid_request_error',
      'model_not_found',
      'model',
    );
    assert.match(e1.message, /gw-chat/);
    const e2 = await expectError(
      await post(emu, '/v1/chat/completions', { ...chatBody('hi'), model: 'gw-code' }),
      400,
      'invalid_request_error',
      'model_not_found',
      'model',
    );
    assert.match(e2.message, /not served on this endpoint; use \/v1\/responses/);
    await expectError(await post(emu, '/v1/responses', { model: 'gw-unknown', input: 'hi' }), 400, 'invalid_request_error', 'model_not_found', 'model');
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-chat-mini', input: 'hi' }, { key: 'small-key' })).status, 200);
  });
});

void describe('balance', () => {
  void it('answers 402 balance_zero pointing to the billing page, with limits headers, for every endpoint', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/models', undefined],
      ['POST', '/v1/chat/completions', chatBody('hi')],
      ['POST', '/v1/responses', { model: 'gw-code', input: 'x' }],
    ] as const) {
      const res = await call(emu, method, path, body, { key: 'empty-key' });
      assert.equal(res.headers.get('x-ratelimit-limit-requests'), '60');
      const err = await expectError(res, 402, 'insufficient_quota', 'balance_zero', null);
      assert.ok(err.message.includes(`${emu.siteUrl}/cabinet/billing`), err.message);
    }
    assert.equal((await fetch(`${emu.siteUrl}/cabinet/billing`)).status, 200);
  });

  void it('charges each success its total tokens, clamps at 0, then answers 402; reset restores it', async () => {
    emu.addKey({ key: 'budget', balance: 30 });
    const r1 = await json(await post(emu, '/v1/chat/completions', chatBody('x'.repeat(40)), { key: 'budget' }));
    assert.equal(r1.usage.prompt_tokens, 10);
    assert.equal(emu.balance('budget'), 30 - r1.usage.total_tokens);
    const r2 = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'y'.repeat(80) }, { key: 'budget' }));
    assert.equal(r2.usage.input_tokens, 20);
    assert.equal(emu.balance('budget'), 0);
    await expectError(await post(emu, '/v1/chat/completions', chatBody('z'), { key: 'budget' }), 402, 'insufficient_quota', 'balance_zero', null);
    emu.reset();
    assert.equal(emu.balance('budget'), 30);
  });

  void it('does not charge failed requests', async () => {
    emu.addKey({ key: 'b2', balance: 100 });
    await post(emu, '/v1/chat/completions', { model: 'gw-chat', messages: [] }, { key: 'b2' });
    emu.fault('b2', { kind: '500' });
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('hi'), { key: 'b2' })).status, 500);
    assert.equal(emu.balance('b2'), 100);
  });
});
