// The quick checks in front of the schemas (paramsQuickCheck.ts) may only say yes where the schema says
// yes: thousands of requests made from valid ones with one field (of the request, a message or a tool)
// changed to a hostile value, and the usual requests (which they must pass, or they save nothing), each
// compared with the schema itself.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { InvalidRequestError, type ChatParams } from '../../../src/gateway/common';
import { chatParamsPassQuickly, inputItemPassesQuickly, respondFieldsPassQuickly } from '../../../src/gateway/common/paramsQuickCheck';
import { chatSchemaPasses, inputItemSchemaPasses, respondFieldsSchemaPass, validateChatParams } from '../../../src/gateway/common/validation';

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
  {
    model: 'gw-chat',
    messages: [{ role: 'user', content: 'x' }],
    tools: [{ name: 'read_file', description: 'Reads', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false }],
    toolChoice: { name: 'read_file' },
  },
];

/** A tool list as the agent sends it, and the other responses fields. */
const agentTools = [
  { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run_command', parameters: JSON.parse('{"type":"object","__proto__":{"x":1},"properties":{}}') as Record<string, unknown> },
  { name: 'mcp_srv-tool_1' },
];
const usualRespond: Record<string, unknown>[] = [
  { model: 'gw-code', tools: agentTools, toolChoice: 'auto', instructions: 'Be careful.', previousResponseId: 'resp_1', maxOutputTokens: 8000 },
  { model: 'gw-code', reasoningEffort: 'minimal', serviceTier: 'default', temperature: 1, topP: 0.5, toolChoice: { name: 'read_file', extra: 1 } },
  { model: 'gw-code' },
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
  'auto',
  'required',
  { name: 'read_file' },
  { name: 'bad name' },
  { name: 'x'.repeat(65) },
  { [Symbol('k')]: 1 },
  { constructor: () => 1 },
  { constructor: 'x' },
  [{ name: 'ok' }],
  [{ name: 'ok', parameters: [] }],
  Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }),
];

const fields = ['model', 'messages', 'temperature', 'topP', 'maxTokens', 'reasoningEffort', 'serviceTier', 'tools', 'toolChoice', 'extra'];
const respondFields = [
  'model',
  'instructions',
  'previousResponseId',
  'maxOutputTokens',
  'temperature',
  'topP',
  'reasoningEffort',
  'serviceTier',
  'tools',
  'toolChoice',
  'input',
];
const toolFields = ['name', 'description', 'parameters', 'strict', 'extra'];

/** Every responses request (input aside) made from a usual one by setting one field, or one field of one tool, to each hostile value. */
function* respondVariants(): Generator<unknown> {
  for (const base of usualRespond) {
    for (const field of respondFields) for (const value of hostileValues) yield { ...base, [field]: value };
    const tools = (base.tools as Record<string, unknown>[] | undefined) ?? [];
    for (let i = 0; i < tools.length; i++) {
      for (const field of toolFields) {
        for (const value of hostileValues) yield { ...base, tools: tools.map((tool, j) => (j === i ? { ...tool, [field]: value } : tool)) };
      }
      for (const value of hostileValues) yield { ...base, tools: tools.map((tool, j) => (j === i ? value : tool)) };
      for (const value of hostileValues)
        yield { ...base, tools: tools.map((tool, j) => (j === i ? { ...tool, parameters: { type: 'object', nested: value } } : tool)) };
    }
    yield { ...base, tools: [...tools, { name: 'ok', parameters: { [Symbol('s')]: 1 } }] };
    yield { ...base, tools: [...tools, { name: 'ok', parameters: new (class Schema {})() }] };
  }
  yield* hostileValues;
}
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

/**
 * Runs every input through the quick check and, where it passes, through the schema, failing at the first the
 * schema refuses; gives how many were compared and how many the quick check passed.
 */
function compareWithSchema(inputs: Iterable<unknown>, quick: (input: unknown) => boolean, schema: (input: unknown) => boolean) {
  let compared = 0;
  let passedQuickly = 0;
  for (const input of inputs) {
    compared++;
    if (!quick(input)) continue;
    passedQuickly++;
    if (!schema(input)) assert.fail(`the quick check passed what the schema refuses: ${inspect(input)}`);
  }
  return { compared, passedQuickly };
}

describe('the quick check before the chat schema', () => {
  test('never passes a request the schema refuses (every field and message field set to each hostile value)', () => {
    const { compared, passedQuickly } = compareWithSchema(variants(), chatParamsPassQuickly, chatSchemaPasses);
    assert.ok(compared > 2000, `compared ${compared}`);
    // It does pass most of what the schema passes: otherwise the schema runs anyway and nothing is saved.
    assert.ok(passedQuickly > 300, `passed quickly ${passedQuickly}`);
  });

  test('never passes responses fields the schema refuses (every field and tool field set to each hostile value)', () => {
    const { compared, passedQuickly } = compareWithSchema(respondVariants(), respondFieldsPassQuickly, respondFieldsSchemaPass);
    assert.ok(compared > 2000, `compared ${compared}`);
    assert.ok(passedQuickly > 300, `passed quickly ${passedQuickly}`);
    for (const params of usualRespond) assert.equal(respondFieldsPassQuickly(params), true, inspect(params));
  });

  test('never passes an input item the schema refuses (every field of each kind of item set to each hostile value)', () => {
    const usualItems: Record<string, unknown>[] = [
      { role: 'user', content: 'fix it' },
      { type: 'message', role: 'developer', content: '' },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { type: 'function_call_output', call_id: 'c1', output: '' },
    ];
    const items = function* (): Generator<unknown> {
      for (const item of usualItems) {
        yield item;
        for (const field of ['type', 'role', 'content', 'call_id', 'name', 'arguments', 'output', 'extra'])
          for (const value of hostileValues) yield { ...item, [field]: value };
      }
      yield* hostileValues;
    };
    const { compared, passedQuickly } = compareWithSchema(items(), inputItemPassesQuickly, inputItemSchemaPasses);
    assert.ok(compared > 1500 && passedQuickly > 100, `compared ${compared}, passed quickly ${passedQuickly}`);
    for (const item of usualItems) assert.equal(inputItemPassesQuickly(item), true, inspect(item));
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
