// The gateway.* settings reach the request the same way on both endpoints (@gateway, Edit Selection and the model picker all send them).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import { requestParameters } from '../../../src/settings/common/requestParameters';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, signal } from '../helpers/clients';
import { userSettings } from '../helpers/settings';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const settingsFrom = (values: Record<string, unknown>) => userSettings(values).current();

/** The body the emulator received for one streamed request with these settings. */
async function sentBody(model: string, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
  await collect(endpoints.stream({ model, messages: [{ role: 'user', content: 'hi' }], ...requestParameters(settingsFrom(values)) }, { signal: signal() }));
  const sent = emulator.requests.filter((r) => r.status === 200 && (r.path === '/v1/chat/completions' || r.path === '/v1/responses'));
  assert.equal(sent.length, 1);
  return sent[0].body as Record<string, unknown>;
}

const everySetting = { temperature: 0.3, topP: 0.9, maxTokens: 700, reasoningEffort: 'low', serviceTier: 'flex' };

describe('requestParameters', () => {
  test('chat completions: every setting under its wire name', async () => {
    const body = await sentBody('gw-chat', everySetting);
    assert.equal(body.temperature, 0.3);
    assert.equal(body.top_p, 0.9);
    assert.equal(body.max_tokens, 700);
    assert.equal(body.reasoning_effort, 'low');
    assert.equal(body.service_tier, 'flex');
  });

  test('responses (a code model): every setting under its wire name', async () => {
    const body = await sentBody('gw-code', everySetting);
    assert.equal(body.temperature, 0.3);
    assert.equal(body.top_p, 0.9);
    assert.equal(body.max_output_tokens, 700);
    assert.deepEqual(body.reasoning, { effort: 'low' });
    assert.equal(body.service_tier, 'flex');
  });

  test('settings left empty are not sent, so the gateway applies its own defaults', async () => {
    const body = await sentBody('gw-chat', {});
    for (const name of ['temperature', 'top_p', 'max_tokens', 'reasoning_effort', 'service_tier']) assert.ok(!(name in body), name);
  });

  test('nothing but the request settings', () => {
    assert.deepEqual(Object.keys(requestParameters(settingsFrom({ ...everySetting, chatModel: 'gw-chat', baseUrl: 'https://gw.example/v1' }))).sort(), [
      'maxTokens',
      'reasoningEffort',
      'serviceTier',
      'temperature',
      'topP',
    ]);
  });
});
