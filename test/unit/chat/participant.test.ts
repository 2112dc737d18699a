// The chat participant's core: prompt assembly, model choice, and endpoint fallback against the emulator.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelNotFoundError, type StreamEvent } from '../../../src/gateway/common';
import { ModelEndpoints, toRespondParams } from '../../../src/models/common/modelEndpoints';
import { defaultModel } from '../../../src/models/common/modelChoice';
import { buildChatMessages, MAX_ATTACHMENT_CHARS } from '../../../src/chat/common/prompt';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, signal } from '../helpers/clients';

describe('buildChatMessages', () => {
  test('system prompt, earlier turns, then attachments and the question', () => {
    const messages = buildChatMessages({
      history: [
        { role: 'user', text: 'first question' },
        { role: 'assistant', text: 'first answer' },
      ],
      attachments: [{ label: 'src/a.ts:1-2', language: 'typescript', content: 'const a = 1;' }],
      prompt: 'and now?',
      command: undefined,
    });
    assert.equal(messages[0].role, 'system');
    assert.deepEqual(messages.slice(1, 3), [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
    ]);
    assert.equal(messages[3].role, 'user');
    assert.equal(messages[3].content, 'Context attached by the user:\n\nsrc/a.ts:1-2:\n```typescript\nconst a = 1;\n```\n\nand now?');
  });

  test('/explain and /fix add their instruction', () => {
    const explain = buildChatMessages({ history: [], attachments: [], prompt: '', command: 'explain' });
    assert.match(String(explain.at(-1)!.content), /^Explain what the attached code does/);
    const fix = buildChatMessages({ history: [], attachments: [], prompt: 'the loop', command: 'fix' });
    assert.match(String(fix.at(-1)!.content), /Find the problems[\s\S]*\n\nthe loop$/);
  });

  test('a fence longer than any backtick run in the content, and large attachments cut', () => {
    const content = '````\n' + 'x'.repeat(MAX_ATTACHMENT_CHARS + 10);
    const [, user] = buildChatMessages({ history: [], attachments: [{ label: 'big.md', content }], prompt: 'q', command: undefined });
    const text = String(user.content);
    assert.ok(text.includes('big.md:\n`````\n'));
    assert.ok(text.includes('… (cut: 15 more characters)'));
  });

  test('empty turns are skipped', () => {
    const messages = buildChatMessages({ history: [{ role: 'assistant', text: '  ' }], attachments: [], prompt: 'hi', command: undefined });
    assert.equal(messages.length, 2);
  });
});

describe('defaultModel', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  const listed = (key: string) => makeClient(emulator.baseUrl, key).listModels({ signal: signal() });

  test('chat takes the first model that does not look like a code model, the agent the first that does', async () => {
    const models = await listed('demo-key');
    assert.ok(models.findIndex((m) => m.id === 'gw-code') > 0, 'the code model is not listed first, so the rule is what picks it');
    assert.equal(defaultModel('chat', models), models.find((m) => !m.id.includes('code'))?.id);
    assert.equal(defaultModel('agent', models), 'gw-code');
  });

  test('a key without a model of the preferred kind gets the first listed one', async () => {
    assert.equal(defaultModel('agent', await listed('small-key')), 'gw-chat-mini');
    assert.equal(defaultModel('chat', [{ id: 'gw-code' }, { id: 'other-code' }]), 'gw-code');
  });

  test('no models, no default', () => {
    assert.equal(defaultModel('chat', []), undefined);
    assert.equal(defaultModel('agent', []), undefined);
  });
});

describe('ModelEndpoints', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());
  const text = (events: StreamEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

  test('a chat model answers on chat completions', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    const events = await collect(endpoints.stream({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }, { signal: signal() }));
    assert.equal(text(events), 'Echo: hi');
    assert.deepEqual(
      emulator.requests.map((r) => r.path),
      ['/v1/chat/completions'],
    );
  });

  test('the code model falls back to responses once, then goes there directly', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    const params = {
      model: 'gw-code',
      messages: [
        { role: 'system' as const, content: 'be terse' },
        { role: 'user' as const, content: 'code?' },
      ],
    };
    assert.equal(text(await collect(endpoints.stream(params, { signal: signal() }))), 'Echo: code?');
    assert.equal(endpoints.endpointOf('gw-code'), 'responses');
    assert.equal(text(await collect(endpoints.stream(params, { signal: signal() }))), 'Echo: code?');
    assert.deepEqual(
      emulator.requests.map((r) => `${r.path} ${r.status}`),
      ['/v1/chat/completions 400', '/v1/responses 200', '/v1/responses 200'],
    );
    assert.equal((emulator.requests[1].body as { instructions: string }).instructions, 'be terse');
  });

  test('a model the key may not use stays a ModelNotFoundError', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'small-key'));
    await assert.rejects(
      collect(endpoints.stream({ model: 'gw-chat-pro', messages: [{ role: 'user', content: 'x' }] }, { signal: signal() })),
      ModelNotFoundError,
    );
  });

  test('tool turns become function_call items and outputs', () => {
    const params = toRespondParams({
      model: 'gw-code',
      messages: [
        { role: 'user', content: 'read' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'file text' },
      ],
    });
    assert.deepEqual(params.input, [
      { role: 'user', content: 'read' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'file text' },
    ]);
    assert.equal(params.instructions, undefined);
  });
});
