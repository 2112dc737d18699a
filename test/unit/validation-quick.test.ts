// The quick check in front of the chat schema (chatQuickCheck.ts) may only say yes where the schema says
// yes: thousands of requests made from valid ones with one field changed to a hostile value, and the
// usual requests (which it must pass, or it saves nothing), each compared with the schema itself.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { InvalidRequestError, type ChatParams } from '../../src/gateway/common';
import { chatParamsPassQuickly } from '../../src/gateway/common/chatQuickCheck';
import { chatSchemaPasses, validateChatParams } from '../../src/gateway/common/validation';

const usual: ChatParams[] = [
  { model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] },
  {
    model: ' gw-chat ',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: '' },
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', content: 'done', tool_call_id: 'c1' },
      { role: 'assistant', content: 'ok' },
    ],
    temperature: 0,
    topP: 1,
    maxTokens: 4096,
    reasoningEffort: 'high',
    serviceTier: 'flex',
  },
  { model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 2, topP: 0, maxTokens: Number.MAX_SAFE_INTEGER },
];

const hostileValues: unknown[] = [
  undefined,
  null,
  NaN,
  Infinity,
  -Infinity,
  -0,
  0,
  1,
  -1,
  0.5,
  2.0000001,
  1.0000001,
  3,
  1e21,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'x',
  'user',
  'assistant',
  'tool',
  'high',
  'flex',
  'nope',
  true,
  false,
  [],
  [1],
  {},
  { role: 'user' },
  { role: 'user', content: 'x' },
  Object.create(null),
  new Date(0),
  new Map(),
  Symbol('s'),
  10n,
  () => 1,
];

const fields = ['model', 'messages', 'temperature', 'topP', 'maxTokens', 'reasoningEffort', 'serviceTier', 'extra'];
const messageFields = ['role', 'content', 'tool_call_id', 'tool_calls', 'name'];

/** Every request made from a usual one by setting one field (of the request or of one message) to each hostile value. */
function* variants(): Generator<unknown> {
  for (const base of usual) {
    for (const field of fields) for (const value of hostileValues) yield { ...base, [field]: value };
    for (let i = 0; i < base.messages.length; i++) {
      for (const field of messageFields) {
        for (const value of hostileValues) {
          const messages: unknown[] = [...base.messages];
          messages[i] = { ...base.messages[i], [field]: value };
          yield { ...base, messages };
        }
      }
      for (const value of hostileValues) {
        const messages: unknown[] = [...base.messages];
        messages[i] = value;
        yield { ...base, messages };
      }
    }
    yield Object.assign(Object.create({ inherited: true }) as object, base);
    yield [base];
  }
  yield* hostileValues;
}

describe('the quick check before the chat schema', () => {
  test('never passes a request the schema refuses (every field and message field set to each hostile value)', () => {
    let compared = 0;
    let passedQuickly = 0;
    for (const params of variants()) {
      compared++;
      if (!chatParamsPassQuickly(params)) continue;
      passedQuickly++;
      if (!chatSchemaPasses(params)) assert.fail(`the quick check passed what the schema refuses: ${inspect(params)}`);
    }
    assert.ok(compared > 2000, `compared ${compared}`);
    // It does pass most of what the schema passes: otherwise the schema runs anyway and nothing is saved.
    assert.ok(passedQuickly > 300, `passed quickly ${passedQuickly}`);
  });

  test('passes the usual requests, so they skip the schema', () => {
    for (const params of usual) {
      assert.equal(chatParamsPassQuickly(params), true, JSON.stringify(params));
      assert.ok(chatSchemaPasses(params));
    }
  });

  test('leaves tools and tool choice to the schema, which still names the first problem', () => {
    const withTools = { ...usual[0], tools: [{ name: 'bad name' }] };
    assert.equal(chatParamsPassQuickly(withTools), false);
    assert.throws(
      () => validateChatParams(withTools),
      (error: unknown) => error instanceof InvalidRequestError && /tools\[0\]\.name/.test(error.message),
    );
  });

  test('a request it refuses gets the schema’s message, as before', () => {
    const bad = { ...usual[0], temperature: 3 };
    assert.equal(chatParamsPassQuickly(bad), false);
    assert.throws(() => validateChatParams(bad), /temperature must be between 0 and 2 \(got 3\)/);
  });
});
