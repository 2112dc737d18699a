// The gateway emulator, over real HTTP: auth, balance, rate limits, validation, both endpoints, streams, scripts, faults.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../emulator/server';
import { formatDuration } from '../emulator/ratelimit';
import { generateFromSchema } from '../emulator/schema-args';
import { call, chatBody, json, parseSse, post, readUntil, schemaErrors, sleep } from '../emulator/test-helpers';

const RATE_HEADERS = [
  'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens',
];
const DURATION = /^(\d+h)?(\d+m)?\d+s$|^\d+ms$/;

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

async function expectError(res: Response, status: number, type: string, code: string, param: string | null): Promise<any> {
  const body = await json(res);
  assert.equal(res.status, status, JSON.stringify(body));
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(body.error.type, type);
  assert.equal(body.error.code, code);
  assert.equal(body.error.param, param);
  assert.ok(body.error.message.length > 0);
  return body.error;
}

void describe('auth and headers', () => {
  void it('answers 401 invalid_api_key for a missing, malformed or unknown key, with x-request-id and no limits', async () => {
    for (const opts of [{ key: null }, { key: null, headers: { authorization: 'Basic demo-key' } }, { key: null, headers: { authorization: 'Bearer' } }, { key: 'nope' }]) {
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
    assert.deepEqual(all.data.map((m: any) => m.id), ['gw-chat', 'gw-chat-pro', 'gw-chat-mini', 'gw-code']);
    for (const m of all.data) {
      assert.equal(m.object, 'model');
      assert.equal(m.owned_by, 'gateway');
      assert.ok(Number.isInteger(m.created));
    }
    const small = await json(await call(emu, 'GET', '/v1/models', undefined, { key: 'small-key' }));
    assert.deepEqual(small.data.map((m: any) => m.id), ['gw-chat-mini']);
  });

  void it('rejects models the key lacks and gw-code on chat completions', async () => {
    const e1 = await expectError(await post(emu, '/v1/chat/completions', chatBody('hi'), { key: 'small-key' }), 400, 'invalid_request_error', 'model_not_found', 'model');
    assert.match(e1.message, /gw-chat/);
    const e2 = await expectError(await post(emu, '/v1/chat/completions', { ...chatBody('hi'), model: 'gw-code' }), 400, 'invalid_request_error', 'model_not_found', 'model');
    assert.match(e2.message, /not served on this endpoint; use \/v1\/responses/);
    await expectError(await post(emu, '/v1/responses', { model: 'gw-unknown', input: 'hi' }), 400, 'invalid_request_error', 'model_not_found', 'model');
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-chat-mini', input: 'hi' }, { key: 'small-key' })).status, 200);
  });
});

void describe('balance', () => {
  void it('answers 402 balance_zero pointing to the billing page, with limits headers, for every endpoint', async () => {
    for (const [method, path, body] of [['GET', '/v1/models', undefined], ['POST', '/v1/chat/completions', chatBody('hi')], ['POST', '/v1/responses', { model: 'gw-code', input: 'x' }]] as const) {
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

void describe('rate limits', () => {
  let rl: Emulator;
  before(async () => {
    rl = await startEmulator({ windowMs: 1500, rpm: 2, keys: [{ key: 'tok', tpm: 60, rpm: 100 }, { key: 'quiet', rateLimitHeaders: false }] });
  });
  after(() => rl.close());
  beforeEach(() => rl.reset());

  void it('answers 429 past the RPM with Retry-After and headers, then admits again once the oldest request leaves the window', async () => {
    assert.equal((await call(rl, 'GET', '/v1/models')).status, 200);
    const t1 = Date.now(); // the first request entered the window before this
    const second = await post(rl, '/v1/chat/completions', chatBody('hi'));
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-ratelimit-remaining-requests'), '0');
    await sleep(300); // if this rejected request counted, it would still be in the window below
    const third = await post(rl, '/v1/chat/completions', chatBody('hi'));
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 2, String(retryAfter));
    assert.equal(third.headers.get('x-ratelimit-limit-requests'), '2');
    assert.equal(third.headers.get('x-ratelimit-remaining-requests'), '0');
    assert.match(third.headers.get('x-ratelimit-reset-requests')!, DURATION);
    await expectError(third, 429, 'rate_limit_error', 'rate_limit_exceeded', null);
    // a rejected request does not count: once the first request leaves the window, exactly one slot is free
    await sleep(Math.max(0, t1 + 1500 - Date.now()) + 10);
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

void describe('chat completions: validation', () => {
  const cases: [string, unknown, string, string | null][] = [
    ['missing model', { messages: [{ role: 'user', content: 'x' }] }, 'missing_required_parameter', 'model'],
    ['missing messages', { model: 'gw-chat' }, 'missing_required_parameter', 'messages'],
    ['empty messages', { model: 'gw-chat', messages: [] }, 'invalid_value', 'messages'],
    ['bad role', { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }, { role: 'robot', content: 'y' }] }, 'invalid_value', 'messages[1].role'],
    ['missing role', { model: 'gw-chat', messages: [{ content: 'x' }] }, 'missing_required_parameter', 'messages[0].role'],
    ['bad content', { model: 'gw-chat', messages: [{ role: 'user', content: 5 }] }, 'invalid_value', 'messages[0].content'],
    ['tool without id', { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: 'r' }] }, 'missing_required_parameter', 'messages[1].tool_call_id'],
    ['tool with unknown id', { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }] }, 'invalid_value', 'messages[1].tool_call_id'],
    ['unanswered tool call', { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'user', content: 'y' }] }, 'invalid_value', 'messages[1]'],
    ['temperature', chatBody('x', { temperature: 2.5 }), 'invalid_value', 'temperature'],
    ['top_p', chatBody('x', { top_p: 1.5 }), 'invalid_value', 'top_p'],
    ['max_tokens 0', chatBody('x', { max_tokens: 0 }), 'invalid_value', 'max_tokens'],
    ['max_tokens float', chatBody('x', { max_tokens: 1.5 }), 'invalid_value', 'max_tokens'],
    ['reasoning_effort', chatBody('x', { reasoning_effort: 'extreme' }), 'invalid_value', 'reasoning_effort'],
    ['service_tier', chatBody('x', { service_tier: 'gold' }), 'invalid_value', 'service_tier'],
    ['stream', chatBody('x', { stream: 'yes' }), 'invalid_value', 'stream'],
    ['tool type', chatBody('x', { tools: [{ type: 'web', function: { name: 'f' } }] }), 'invalid_value', 'tools[0].type'],
    ['tool name', chatBody('x', { tools: [{ type: 'function', function: {} }] }), 'missing_required_parameter', 'tools[0].function.name'],
    ['tool_choice undeclared', chatBody('x', { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } }), 'invalid_value', 'tool_choice'],
    ['tool_choice shape', chatBody('x', { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'sometimes' }), 'invalid_value', 'tool_choice'],
  ];
  for (const [name, body, code, param] of cases) {
    void it(`400 ${code} for ${name}`, async () => {
      await expectError(await post(emu, '/v1/chat/completions', body), 400, 'invalid_request_error', code, param);
    });
  }

  void it('400 invalid_json for a body that is not JSON', async () => {
    await expectError(await post(emu, '/v1/chat/completions', undefined, { raw: '{"model":' }), 400, 'invalid_request_error', 'invalid_json', null);
  });

  void it('accepts every allowed role, content form and option', async () => {
    const res = await post(emu, '/v1/chat/completions', {
      model: 'gw-chat-pro',
      messages: [
        { role: 'system', content: 's' },
        { role: 'developer', content: [{ type: 'text', text: 'd' }] },
        { role: 'user', content: 'call it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'result 42' },
      ],
      temperature: 0, top_p: 1, max_tokens: 100, reasoning_effort: 'minimal', service_tier: 'auto', stream: false,
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'auto', user: 'ignored-unknown-field',
    });
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.choices[0].message.content, 'Echo: result 42'); // the newest input is the tool result
  });
});

function chatChunks(raw: string): any[] {
  // byte-level: data-only lines, each followed by a blank line, nothing else
  assert.ok(raw.endsWith('data: [DONE]\n\n'), raw.slice(-80));
  const blocks = raw.slice(0, -2).split('\n\n');
  for (const b of blocks) assert.match(b, /^data: [^\n]+$/);
  const { events } = parseSse(raw);
  assert.equal(events.length, blocks.length);
  for (const e of events) assert.equal(e.event, undefined);
  assert.equal(events.at(-1)!.data, '[DONE]');
  return events.slice(0, -1).map((e) => JSON.parse(e.data));
}

void describe('chat completions: answers', () => {
  void it('answers a chat.completion echoing the last user text, with usage in both shapes', async () => {
    const res = await post(emu, '/v1/chat/completions', { model: 'gw-chat', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: `  ${'q'.repeat(300)}  ` }] });
    const body = await json(res);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    assert.match(body.id, /^chatcmpl-/);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'gw-chat');
    assert.ok(Number.isInteger(body.created));
    assert.equal(body.choices.length, 1);
    assert.equal(body.choices[0].index, 0);
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.deepEqual({ role: body.choices[0].message.role, content: body.choices[0].message.content }, { role: 'assistant', content: `Echo: ${'q'.repeat(200)}` });
    const u = body.usage;
    assert.equal(u.prompt_tokens, Math.ceil((8 + 304) / 4));
    assert.equal(u.completion_tokens, Math.ceil(206 / 4));
    assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
    assert.equal(u.reasoning_tokens, 0);
    assert.deepEqual(u.completion_tokens_details, { reasoning_tokens: 0 });
  });

  void it('streams data-only chunks, a usage chunk with empty choices when asked, then [DONE]', async () => {
    const res = await post(emu, '/v1/chat/completions', chatBody('stream me please', { stream: true, stream_options: { include_usage: true } }));
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    assert.ok(res.headers.get('x-ratelimit-limit-requests'));
    const chunks = chatChunks(await res.text());
    const ids = new Set(chunks.map((c) => c.id));
    assert.equal(ids.size, 1);
    for (const c of chunks) assert.equal(c.object, 'chat.completion.chunk');
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const usage = chunks.at(-1)!;
    assert.deepEqual(usage.choices, []);
    assert.equal(usage.usage.total_tokens, usage.usage.prompt_tokens + usage.usage.completion_tokens);
    assert.equal(usage.usage.completion_tokens_details.reasoning_tokens, 0);
    const last = chunks.at(-2)!;
    assert.equal(last.choices[0].finish_reason, 'stop');
    assert.deepEqual(last.choices[0].delta, {});
    const text = chunks.slice(0, -2).map((c) => c.choices[0].delta.content ?? '').join('');
    assert.equal(text, 'Echo: stream me please');
    assert.ok(chunks.length > 4, 'text arrives in several deltas');
    for (const c of chunks.slice(0, -2)) assert.equal(c.choices[0].finish_reason, null);
  });

  void it('sends no usage chunk without stream_options.include_usage', async () => {
    const chunks = chatChunks(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    assert.ok(chunks.every((c) => c.choices.length === 1 && c.usage === undefined));
  });

  void it('streams scripted tool calls as deltas and finishes with tool_calls', async () => {
    emu.script('demo-key', [{ text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Edinburgh', units: 'c' }, callId: 'call_fixed' }, { name: 'noop', arguments: '{}' }] }]);
    const chunks = chatChunks(await (await post(emu, '/v1/chat/completions', chatBody('weather?', { stream: true, stream_options: { include_usage: true } }))).text());
    const deltas = chunks.slice(0, -1).map((c) => c.choices[0].delta);
    assert.equal(deltas.map((d) => d.content ?? '').join(''), 'Let me check.');
    const toolDeltas = deltas.filter((d) => d.tool_calls).map((d) => d.tool_calls[0]);
    const first = toolDeltas[0];
    assert.deepEqual(first, { index: 0, id: 'call_fixed', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const args0 = toolDeltas.filter((d) => d.index === 0).map((d) => d.function.arguments).join('');
    assert.deepEqual(JSON.parse(args0), { city: 'Edinburgh', units: 'c' });
    assert.ok(toolDeltas.filter((d) => d.index === 0).length > 2, 'arguments arrive in pieces');
    const second = toolDeltas.find((d) => d.index === 1)!;
    assert.match(second.id, /^call_/);
    assert.equal(second.function.name, 'noop');
    for (const d of toolDeltas.filter((x) => x.id === undefined)) assert.deepEqual(Object.keys(d).sort(), ['function', 'index']);
    assert.equal(chunks.at(-2)!.choices[0].finish_reason, 'tool_calls');
  });

  void it('answers tool calls without text with content null and tool_calls in the message', async () => {
    emu.script('demo-key', [{ toolCalls: [{ name: 'f', arguments: 'raw-args', callId: 'call_1' }] }]);
    const body = await json(await post(emu, '/v1/chat/completions', chatBody('x')));
    const msg = body.choices[0].message;
    assert.equal(msg.content, null);
    assert.deepEqual(msg.tool_calls, [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: 'raw-args' } }]);
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
  });

  void it('truncates at max_tokens with finish_reason length', async () => {
    emu.script('demo-key', [{ text: 'word '.repeat(100) }, { text: 'word '.repeat(100) }]);
    const body = await json(await post(emu, '/v1/chat/completions', chatBody('x', { max_tokens: 5 })));
    assert.equal(body.choices[0].finish_reason, 'length');
    assert.equal(body.choices[0].message.content, 'word word word word ');
    assert.equal(body.usage.completion_tokens, 5);
    const chunks = chatChunks(await (await post(emu, '/v1/chat/completions', chatBody('x', { max_tokens: 5, stream: true }))).text());
    assert.equal(chunks.map((c) => c.choices[0].delta.content ?? '').join(''), 'word word word word ');
    assert.equal(chunks.at(-1)!.choices[0].finish_reason, 'length');
  });

  void it('reports reasoning tokens and scripted finish reasons', async () => {
    emu.script('demo-key', [{ text: 'ok', reasoning: 'r'.repeat(40), finishReason: 'content_filter' }]);
    const body = await json(await post(emu, '/v1/chat/completions', chatBody('x')));
    assert.equal(body.choices[0].finish_reason, 'content_filter');
    assert.equal(body.usage.reasoning_tokens, 10);
    assert.equal(body.usage.completion_tokens_details.reasoning_tokens, 10);
    assert.equal(body.usage.completion_tokens, 11);
  });
});

const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 3, maxLength: 20 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: 'number', minimum: 10, multipleOf: 5 },
    units: { enum: ['celsius', 'fahrenheit'] },
    exact: { type: 'boolean' },
    version: { const: 2 },
    when: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
    where: { type: 'object', properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { $ref: '#/$defs/lon' } }, required: ['lat', 'lon'], additionalProperties: false },
    maybe: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 5 }] },
    merged: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] },
    nullable: { type: ['string', 'null'], maxLength: 2 },
  },
  required: ['city', 'days', 'where'],
  additionalProperties: false,
  $defs: { lon: { type: 'number', minimum: -180, maximum: -170 } },
};

void describe('tool_choice and schema-generated arguments', () => {
  void it('generates values that satisfy the schema (checked independently)', () => {
    const value = generateFromSchema(WEATHER_SCHEMA);
    assert.deepEqual(schemaErrors(value, WEATHER_SCHEMA), []);
    assert.deepEqual(Object.keys(value as object).sort(), Object.keys(WEATHER_SCHEMA.properties).sort());
    assert.deepEqual(schemaErrors(generateFromSchema({ type: 'integer', exclusiveMinimum: 3, exclusiveMaximum: 5 }), { type: 'integer', exclusiveMinimum: 3, exclusiveMaximum: 5 }), []);
    assert.deepEqual(schemaErrors({ city: 'x' }, WEATHER_SCHEMA).length > 0, true, 'the checker does reject');
  });

  void it('chat: a named function is called with schema-satisfying arguments', async () => {
    const tools = [{ type: 'function', function: { name: 'other', parameters: { type: 'object', properties: {} } } }, { type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } }];
    const body = await json(await post(emu, '/v1/chat/completions', chatBody('x', { tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } })));
    const calls = body.choices[0].message.tool_calls;
    assert.equal(calls.length, 1);
    assert.equal(calls[0].function.name, 'get_weather');
    assert.deepEqual(schemaErrors(JSON.parse(calls[0].function.arguments), WEATHER_SCHEMA), []);
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
  });

  void it('responses: a named function is called; required calls the first tool; none never calls', async () => {
    const tools = [{ type: 'function', name: 'first', parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 4 } }, required: ['n'] } }, { type: 'function', name: 'get_weather', parameters: WEATHER_SCHEMA, strict: true }];
    const named = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: { type: 'function', name: 'get_weather' } }));
    const call0 = named.output.find((o: any) => o.type === 'function_call');
    assert.equal(call0.name, 'get_weather');
    assert.deepEqual(schemaErrors(JSON.parse(call0.arguments), WEATHER_SCHEMA), []);
    const required = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: 'required' }));
    assert.equal(required.output[0].name, 'first');
    assert.deepEqual(JSON.parse(required.output[0].arguments), { n: 4 });
    emu.script('demo-key', [{ text: 'only words', toolCalls: [{ name: 'first', arguments: { n: 5 } }] }]);
    const none = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: 'none' }));
    assert.deepEqual(none.output.map((o: any) => o.type), ['message']);
    assert.equal(none.output[0].content[0].text, 'only words');
  });

  void it('auto follows the script: scripted calls with auto, plain text by default', async () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const plain = await json(await post(emu, '/v1/chat/completions', chatBody('hello', { tools, tool_choice: 'auto' })));
    assert.equal(plain.choices[0].message.content, 'Echo: hello');
    assert.equal(plain.choices[0].message.tool_calls, undefined);
    emu.script('demo-key', [{ toolCalls: [{ name: 'f', arguments: {} }] }]);
    const scripted = await json(await post(emu, '/v1/chat/completions', chatBody('hello', { tools })));
    assert.equal(scripted.choices[0].message.tool_calls[0].function.name, 'f');
  });
});

/** Byte-level check of a responses stream: `event: <type>` then `data: <json>` blocks, type matches, sequence_number from 0. */
function responseEvents(raw: string): any[] {
  assert.ok(raw.endsWith('\n\n'));
  assert.ok(!raw.includes('[DONE]'));
  const blocks = raw.slice(0, -2).split('\n\n');
  const payloads = blocks.map((b) => {
    const m = /^event: ([^\n]+)\ndata: ([^\n]+)$/.exec(b);
    assert.ok(m, `bad block: ${b.slice(0, 100)}`);
    const payload = JSON.parse(m[2]);
    assert.equal(payload.type, m[1]);
    return payload;
  });
  const { events } = parseSse(raw);
  assert.deepEqual(events.map((e) => e.event), payloads.map((p) => p.type));
  payloads.forEach((p, i) => assert.equal(p.sequence_number, i));
  return payloads;
}

const TEXT_ORDER = [
  'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
  'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
];

void describe('responses', () => {
  void it('answers a response object with message output, ids, usage and echoed fields', async () => {
    const res = await post(emu, '/v1/responses', { model: 'gw-code', input: [{ role: 'user', content: 'first' }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'second' }] }], instructions: 'Be terse.', reasoning: { effort: 'low' }, service_tier: 'flex', temperature: 0.2, top_p: 0.5 });
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.match(body.id, /^resp_[0-9a-f]+$/);
    assert.equal(body.object, 'response');
    assert.equal(body.status, 'completed');
    assert.equal(body.model, 'gw-code');
    assert.equal(body.instructions, 'Be terse.');
    assert.equal(body.previous_response_id, null);
    assert.deepEqual(body.reasoning, { effort: 'low', summary: null });
    assert.equal(body.service_tier, 'flex');
    assert.equal(body.output.length, 1);
    const msg = body.output[0];
    assert.match(msg.id, /^msg_/);
    assert.deepEqual({ ...msg, id: 'x' }, { id: 'x', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Echo: second', annotations: [], logprobs: [] }] });
    const u = body.usage;
    assert.equal(u.input_tokens, Math.ceil('Be terse.firstsecond'.length / 4));
    assert.equal(u.output_tokens, Math.ceil('Echo: second'.length / 4));
    assert.equal(u.total_tokens, u.input_tokens + u.output_tokens);
    assert.equal(u.reasoning_tokens, 0);
    assert.deepEqual(u.output_tokens_details, { reasoning_tokens: 0 });
    assert.deepEqual(u.input_tokens_details, { cached_tokens: 0 });
  });

  void it('streams a text answer in the exact event order, sequence numbers from 0', async () => {
    const res = await post(emu, '/v1/responses', { model: 'gw-chat', input: 'tell me', stream: true });
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    const events = responseEvents(await res.text());
    assert.deepEqual(events.map((e) => e.type).filter((t) => t !== 'response.output_text.delta'), TEXT_ORDER);
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    assert.ok(deltas.length >= 2);
    assert.ok(events.indexOf(deltas[0]) === 4 && events.indexOf(deltas.at(-1)) === 3 + deltas.length, 'deltas sit between part.added and text.done');
    assert.equal(deltas.map((d) => d.delta).join(''), 'Echo: tell me');
    const created = events[0].response;
    assert.equal(created.status, 'in_progress');
    assert.deepEqual(created.output, []);
    const added = events[2];
    assert.equal(added.item.type, 'message');
    assert.equal(added.output_index, 0);
    for (const e of events.slice(3, -2)) assert.equal(e.item_id, added.item.id);
    assert.equal(events.at(-4).text, 'Echo: tell me');
    const done = events.at(-1).response;
    assert.equal(done.status, 'completed');
    assert.equal(done.id, created.id);
    assert.equal(done.output[0].content[0].text, 'Echo: tell me');
    assert.equal(done.usage.total_tokens, done.usage.input_tokens + done.usage.output_tokens);
  });

  void it('streams reasoning summary events in a reasoning item before the message, then function calls', async () => {
    emu.script('demo-key', [{ reasoning: 'Thinking hard.', text: 'Calling.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Beijing' }, callId: 'call_w' }] }]);
    const events = responseEvents(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true, tools: [{ type: 'function', name: 'get_weather' }] })).text());
    const types = events.map((e) => e.type);
    const compact = types.filter((t, i) => t !== types[i - 1]);
    assert.deepEqual(compact, [
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    assert.equal(events.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta).join(''), 'Thinking hard.');
    const fcAdded = events.filter((e) => e.type === 'response.output_item.added')[2];
    assert.equal(fcAdded.output_index, 2);
    assert.deepEqual({ ...fcAdded.item, id: 'x' }, { id: 'x', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_w', name: 'get_weather' });
    assert.match(fcAdded.item.id, /^fc_/);
    const argDeltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    assert.equal(argDeltas.map((e) => e.delta).join(''), '{"city":"Beijing"}');
    assert.equal(events.find((e) => e.type === 'response.function_call_arguments.done').arguments, '{"city":"Beijing"}');
    const final = events.at(-1).response;
    assert.deepEqual(final.output.map((o: any) => o.type), ['reasoning', 'message', 'function_call']);
    assert.match(final.output[0].id, /^rs_/);
    assert.deepEqual(final.output[0].summary, [{ type: 'summary_text', text: 'Thinking hard.' }]);
    assert.equal(final.output[2].status, 'completed');
    assert.equal(final.usage.reasoning_tokens, 4);
    assert.equal(final.usage.output_tokens_details.reasoning_tokens, 4);
  });

  void it('ends with response.incomplete when max_output_tokens is reached', async () => {
    emu.script('demo-key', [{ text: 'long '.repeat(50) }, { text: 'long '.repeat(50) }]);
    const events = responseEvents(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true, max_output_tokens: 3 })).text());
    const last = events.at(-1);
    assert.equal(last.type, 'response.incomplete');
    assert.equal(last.response.status, 'incomplete');
    assert.deepEqual(last.response.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(last.response.output[0].content[0].text, 'long long lo');
    assert.equal(last.response.usage.output_tokens, 3);
    const body = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', max_output_tokens: 3 }));
    assert.equal(body.status, 'incomplete');
    assert.equal(body.output[0].status, 'incomplete');
  });

  const invalidCases: [string, unknown, string, string][] = [
    ['missing input', { model: 'gw-code' }, 'missing_required_parameter', 'input'],
    ['missing model', { input: 'x' }, 'missing_required_parameter', 'model'],
    ['item type', { model: 'gw-code', input: [{ type: 'image_generation_call' }] }, 'invalid_value', 'input[0].type'],
    ['item role', { model: 'gw-code', input: [{ role: 'tool', content: 'x' }] }, 'invalid_value', 'input[0].role'],
    ['part type', { model: 'gw-code', input: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }, 'invalid_value', 'input[0].content[0].type'],
    ['call without id', { model: 'gw-code', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'missing_required_parameter', 'input[0].call_id'],
    ['output without call', { model: 'gw-code', input: [{ type: 'function_call_output', call_id: 'call_zz', output: 'r' }] }, 'invalid_value', 'input'],
    ['chat-shaped tool', { model: 'gw-code', input: 'x', tools: [{ type: 'function', function: { name: 'f' } }] }, 'missing_required_parameter', 'tools[0].name'],
    ['tool_choice chat shape', { model: 'gw-code', input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', function: { name: 'f' } } }, 'invalid_value', 'tool_choice'],
    ['effort', { model: 'gw-code', input: 'x', reasoning: { effort: 'max' } }, 'invalid_value', 'reasoning.effort'],
    ['max_output_tokens', { model: 'gw-code', input: 'x', max_output_tokens: -1 }, 'invalid_value', 'max_output_tokens'],
    ['service_tier', { model: 'gw-code', input: 'x', service_tier: 'fast' }, 'invalid_value', 'service_tier'],
    ['temperature', { model: 'gw-code', input: 'x', temperature: -1 }, 'invalid_value', 'temperature'],
  ];
  for (const [name, body, code, param] of invalidCases) {
    void it(`400 ${code} for ${name}`, async () => {
      await expectError(await post(emu, '/v1/responses', body), 400, 'invalid_request_error', code, param);
    });
  }

  void it('continues a stored session through previous_response_id, requiring outputs for every function call', async () => {
    const tools = [{ type: 'function', name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
    emu.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }, { name: 'read_file', arguments: { path: 'b.ts' } }] }]);
    const r1 = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'read both', tools }));
    const callIds = r1.output.map((o: any) => o.call_id);
    assert.equal(callIds.length, 2);
    for (const id of callIds) assert.match(id, /^call_/);
    const partial = await expectError(
      await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r1.id, input: [{ type: 'function_call_output', call_id: callIds[0], output: 'A' }], tools }),
      400, 'invalid_request_error', 'invalid_value', 'input',
    );
    assert.ok(partial.message.includes(callIds[1]), partial.message);
    const userOnly = await expectError(await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r1.id, input: 'hi' }), 400, 'invalid_request_error', 'invalid_value', 'input');
    assert.ok(userOnly.message.includes(callIds[0]));
    const r2 = await json(await post(emu, '/v1/responses', {
      model: 'gw-code', previous_response_id: r1.id, tools,
      input: callIds.map((id: string, i: number) => ({ type: 'function_call_output', call_id: id, output: `content ${i}` })),
    }));
    assert.equal(r2.previous_response_id, r1.id);
    assert.equal(r2.output[0].content[0].text, 'Echo: content 1');
    assert.ok(r2.usage.input_tokens > r1.usage.input_tokens, 'the stored conversation is part of the prompt');
    const r3 = await json(await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r2.id, input: 'and now?' }));
    assert.equal(r3.output[0].content[0].text, 'Echo: and now?');
    // another key cannot continue it; forgetting makes it unknown
    await expectError(await post(emu, '/v1/responses', { model: 'gw-chat-mini', previous_response_id: r3.id, input: 'x' }, { key: 'small-key' }), 400, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id');
    emu.forgetResponses();
    await expectError(await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r3.id, input: 'x' }), 400, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id');
  });

  void it('does not store a response sent with store: false', async () => {
    const r = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', store: false }));
    assert.equal(r.store, false);
    await expectError(await post(emu, '/v1/responses', { model: 'gw-code', input: 'y', previous_response_id: r.id }), 400, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id');
  });

  void it('accepts a replayed transcript without previous_response_id, and rejects one missing an output', async () => {
    const transcript = [
      { role: 'user', content: 'read it' },
      { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'file body' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { role: 'user', content: 'thanks' },
    ];
    const ok = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: transcript }));
    assert.equal(ok.output[0].content[0].text, 'Echo: thanks');
    const broken = await expectError(await post(emu, '/v1/responses', { model: 'gw-code', input: transcript.filter((_, i) => i !== 2) }), 400, 'invalid_request_error', 'invalid_value', 'input');
    assert.match(broken.message, /call_a/);
  });
});

/** Reads a body chunk by chunk; returns the text received and whether the stream failed (socket destroyed). */
async function readAll(res: Response): Promise<{ text: string; failed: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

const contentDeltas = (raw: string): string[] =>
  parseSse(raw).events.flatMap((e) => {
    try {
      const d = JSON.parse(e.data);
      return d.choices?.[0]?.delta?.content ? [d.choices[0].delta.content] : d.type === 'response.output_text.delta' ? [d.delta] : [];
    } catch {
      return [];
    }
  });

void describe('scripted turns', () => {
  void it('consumes turns in order, per key, honouring model and endpoint filters', async () => {
    emu.script('demo-key', [{ text: 'for responses', endpoint: 'responses' }, { text: 'for pro', model: 'gw-chat-pro' }, { text: 'first' }, { text: 'second' }]);
    const text = async (model: string): Promise<string> => (await json(await post(emu, '/v1/chat/completions', { ...chatBody('x'), model }))).choices[0].message.content;
    assert.equal(await text('gw-chat'), 'first');
    assert.equal(await text('gw-chat-pro'), 'for pro');
    assert.equal(await text('gw-chat'), 'second');
    assert.equal(await text('gw-chat'), 'Echo: x');
    const r = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' }));
    assert.equal(r.output[0].content[0].text, 'for responses');
    emu.script('small-key', [{ text: 'small only' }]);
    assert.equal(await text('gw-chat'), 'Echo: x', 'another key’s script is not consumed');
    const small = await json(await post(emu, '/v1/chat/completions', { ...chatBody('x'), model: 'gw-chat-mini' }, { key: 'small-key' }));
    assert.equal(small.choices[0].message.content, 'small only');
  });

  void it('repeats text and cuts deltas to chunkChars', async () => {
    emu.script('demo-key', [{ text: 'abcdefg', repeat: 3, chunkChars: 5 }]);
    const deltas = contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    assert.deepEqual(deltas, ['abcde', 'fgabc', 'defga', 'bcdef', 'g']);
  });

  void it('waits delayMs between deltas', async () => {
    emu.script('demo-key', [{ text: 'aaaaa', chunkChars: 1, delayMs: 30 }]);
    const t0 = Date.now();
    const deltas = contentDeltas(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true })).text());
    assert.equal(deltas.length, 5);
    assert.ok(Date.now() - t0 >= 120, `took ${Date.now() - t0}ms`);
  });

  void it('streams 20000 deltas quickly on both endpoints', async () => {
    emu.script('demo-key', [{ text: 'abc', repeat: 20000, chunkChars: 3 }, { text: 'abc', repeat: 20000, chunkChars: 3 }]);
    const t0 = Date.now();
    const chat = contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    const resp = await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true })).text();
    assert.equal(chat.length, 20000);
    assert.equal(contentDeltas(resp).length, 20000);
    responseEvents(resp);
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0}ms`);
  });

  void it('stops writing when the client goes away mid-stream and keeps serving', async () => {
    const slow = await startEmulator({ tokenDelayMs: 20 });
    try {
      const abort = new AbortController();
      const res = await post(slow, '/v1/chat/completions', chatBody('a b c d e f g h i j k l m n o p', { stream: true }), { signal: abort.signal });
      const got = await readUntil(res, (t) => contentDeltas(t).length >= 2, abort);
      assert.ok(!got.includes('[DONE]'));
      const next = await json(await post(slow, '/v1/chat/completions', chatBody('after')));
      assert.equal(next.choices[0].message.content, 'Echo: after');
    } finally {
      await slow.close();
    }
  });
});

void describe('faults', () => {
  void it('500 (times 2) then success; the scripted turn waits for the request that succeeds', async () => {
    emu.script('demo-key', [{ text: 'survivor' }]);
    emu.fault('demo-key', { kind: '500', times: 2 });
    for (let i = 0; i < 2; i++) await expectError(await post(emu, '/v1/chat/completions', chatBody('x')), 500, 'server_error', 'internal_error', null);
    assert.equal((await json(await post(emu, '/v1/chat/completions', chatBody('x')))).choices[0].message.content, 'survivor');
    assert.deepEqual(emu.requests.map((r) => [r.status, r.fault]), [[500, '500'], [500, '500'], [200, undefined]]);
  });

  void it('503 with Retry-After, 429 fault, and the per-request header leaving the queue alone', async () => {
    emu.fault('demo-key', { kind: '503', retryAfter: 7 });
    const r503 = await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' });
    assert.equal(r503.headers.get('retry-after'), '7');
    await expectError(r503, 503, 'service_unavailable', 'upstream_overloaded', null);
    emu.fault('demo-key', { kind: '429', retryAfter: 2 });
    const r429 = await post(emu, '/v1/chat/completions', chatBody('x'));
    assert.equal(r429.headers.get('retry-after'), '2');
    await expectError(r429, 429, 'rate_limit_error', 'rate_limit_exceeded', null);
    emu.fault('demo-key', { kind: '500' });
    await expectError(await post(emu, '/v1/chat/completions', chatBody('x'), { headers: { 'x-emulator-fault': '503' } }), 503, 'service_unavailable', 'upstream_overloaded', null);
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 500, 'the queued fault is still there');
  });

  void it('endpoint-specific faults wait for their endpoint; models only takes faults meant for it', async () => {
    emu.fault('demo-key', { kind: '500', endpoint: 'responses' });
    emu.fault('demo-key', { kind: '503', endpoint: 'models' });
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 200);
    assert.equal((await call(emu, 'GET', '/v1/models')).status, 503);
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' })).status, 500);
  });

  void it('cut: a stream stops after afterDeltas deltas without a terminal event; the turn is served again', async () => {
    emu.script('demo-key', [{ text: 'one two three four five six', chunkChars: 4 }]);
    emu.fault('demo-key', { kind: 'cut', afterDeltas: 2 });
    const cut = await readAll(await post(emu, '/v1/chat/completions', chatBody('x', { stream: true })));
    assert.equal(cut.failed, true);
    assert.deepEqual(contentDeltas(cut.text), ['one ', 'two ']);
    assert.ok(!cut.text.includes('[DONE]') && !cut.text.includes('finish_reason":"stop'));
    assert.equal(contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text()).join(''), 'one two three four five six');
    emu.fault('demo-key', { kind: 'cut' });
    const resp = await readAll(await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d e f', stream: true }));
    assert.equal(resp.failed, true);
    assert.equal(contentDeltas(resp.text).length, 3);
    assert.ok(!resp.text.includes('response.completed'));
  });

  void it('cut on a non-stream request destroys the socket before any answer', async () => {
    emu.fault('demo-key', { kind: 'cut' });
    await assert.rejects(post(emu, '/v1/chat/completions', chatBody('x')));
    assert.equal(emu.requests.at(-1)!.status, 0);
    assert.equal(emu.requests.at(-1)!.fault, 'cut');
  });

  void it('malformed: one data line that is not JSON, then the stream goes on to its end', async () => {
    emu.fault('demo-key', { kind: 'malformed', afterDeltas: 1 });
    const raw = await (await post(emu, '/v1/chat/completions', chatBody('a b c d', { stream: true }))).text();
    const bad = parseSse(raw).events.filter((e) => e.data !== '[DONE]' && (() => { try { JSON.parse(e.data); return false; } catch { return true; } })());
    assert.equal(bad.length, 1);
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    assert.equal(contentDeltas(raw).join(''), 'Echo: a b c d');
    emu.fault('demo-key', { kind: 'malformed' });
    const rraw = await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d', stream: true })).text();
    assert.ok(rraw.includes('event: response.completed'));
    assert.equal(parseSse(rraw).events.filter((e) => { try { JSON.parse(e.data); return false; } catch { return true; } }).length, 1);
  });

  void it('stall: sends deltas then nothing, keeping the connection open until the client leaves', async () => {
    emu.fault('demo-key', { kind: 'stall', afterDeltas: 2 });
    const abort = new AbortController();
    const res = await post(emu, '/v1/chat/completions', chatBody('a b c d e f', { stream: true }), { signal: abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (contentDeltas(text).length < 2) text += decoder.decode((await reader.read()).value);
    const more = await Promise.race([reader.read().then(() => 'data'), sleep(300).then(() => 'silence')]);
    assert.equal(more, 'silence');
    abort.abort();
    await reader.cancel().catch(() => undefined);
    assert.equal(contentDeltas(text).length, 2);
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 200);
  });

  void it('stream-error: chat sends an error data line and ends without [DONE]', async () => {
    emu.fault('demo-key', { kind: 'stream-error', afterDeltas: 1 });
    const raw = await (await post(emu, '/v1/chat/completions', chatBody('a b c', { stream: true }))).text();
    const last = parseSse(raw).events.at(-1)!;
    assert.deepEqual(JSON.parse(last.data), { error: { type: 'server_error', code: 'internal_error', message: JSON.parse(last.data).error.message, param: null } });
    assert.ok(!raw.includes('[DONE]'));
  });

  void it('stream-error: responses sends an error event with a nested error, then response.failed', async () => {
    emu.fault('demo-key', { kind: 'stream-error', afterDeltas: 2 });
    const events = responseEvents(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d', stream: true })).text());
    const [err, failed] = events.slice(-2);
    assert.equal(err.type, 'error');
    assert.equal(err.error.type, 'server_error');
    assert.equal(err.error.code, 'internal_error');
    assert.equal(err.error.param, null);
    assert.equal(failed.type, 'response.failed');
    assert.equal(failed.response.status, 'failed');
    assert.deepEqual(failed.response.error, { code: 'internal_error', message: err.error.message });
    assert.equal(events.filter((e) => e.type === 'response.output_text.delta').length, 2);
  });
});

void describe('request log and control API', () => {
  void it('records every request with masked authorization, parsed body and status', async () => {
    await post(emu, '/v1/chat/completions', chatBody('logged'), { headers: { 'user-agent': 'test-agent/1.0' } });
    await call(emu, 'GET', '/v1/models', undefined, { key: null });
    await call(emu, 'GET', '/_emulator/requests');
    assert.equal(emu.requests.length, 2);
    const [a, b] = emu.requests;
    assert.deepEqual([a.method, a.path, a.key, a.status], ['POST', '/v1/chat/completions', 'demo-key', 200]);
    assert.equal(a.headers.authorization, 'Bearer ***');
    assert.equal(a.headers['user-agent'], 'test-agent/1.0');
    assert.deepEqual(a.body, chatBody('logged'));
    assert.ok(Math.abs(a.time - Date.now()) < 5000);
    assert.deepEqual([b.method, b.path, b.key, b.status, b.body], ['GET', '/v1/models', null, 401, null]);
  });

  void it('drives keys, scripts, faults, the log, forgetting and reset over HTTP', async () => {
    const ctl = (path: string, body?: unknown): Promise<Response> => call(emu, body === undefined ? 'GET' : 'POST', `/_emulator/${path}`, body, { key: null });
    assert.equal((await ctl('keys', { key: 'ctl-key', models: ['gw-chat'], balance: 1000, rpm: 5 })).status, 200);
    assert.equal((await ctl('script', { key: 'ctl-key', turns: [{ text: 'from control' }] })).status, 200);
    const r1 = await post(emu, '/v1/chat/completions', chatBody('x'), { key: 'ctl-key' });
    assert.equal(r1.headers.get('x-ratelimit-limit-requests'), '5');
    assert.equal((await json(r1)).choices[0].message.content, 'from control');
    assert.equal((await ctl('fault', { key: 'ctl-key', fault: { kind: '503' } })).status, 200);
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'), { key: 'ctl-key' })).status, 503);
    const log = await json(await ctl('requests'));
    assert.deepEqual(log.map((r: any) => r.status), [200, 503]);
    assert.ok((await json(await ctl('balance?key=ctl-key'))).balance < 1000);
    const resp = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' }));
    assert.equal((await ctl('forget-responses', {})).status, 200);
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', previous_response_id: resp.id })).status, 400);
    assert.equal((await ctl('reset', {})).status, 200);
    assert.equal(emu.requests.length, 0);
    assert.equal(emu.balance('ctl-key'), 1000);
    assert.equal((await ctl('fault', { key: 'ctl-key', fault: { kind: 'boom' } })).status, 400);
    assert.equal((await ctl('script', { key: 'ctl-key' })).status, 400);
    assert.equal((await ctl('nothing', {})).status, 404);
  });

  void it('close() ends streams in progress', async () => {
    const e2 = await startEmulator();
    e2.fault('demo-key', { kind: 'stall', afterDeltas: 1 });
    const res = await post(e2, '/v1/responses', { model: 'gw-code', input: 'a b c', stream: true });
    const reading = readAll(res);
    await sleep(50);
    await e2.close();
    const got = await reading;
    assert.equal(got.failed, true);
    assert.equal(contentDeltas(got.text).length, 1);
  });
});

void describe('CLI', () => {
  void it('starts with flags, prints the address and keys, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/emulator/main.ts', '--port', '0', '--rpm', '7', '--no-ratelimit-headers'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        out += chunk as string;
        if (out.includes('small-key')) break;
      }
      const url = /Gateway emulator listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
      assert.ok(url, out);
      assert.match(out, /demo-key: models gw-chat, gw-chat-pro, gw-chat-mini, gw-code; balance 1000000000000; 7 RPM, 200000 TPM/);
      const res = await fetch(`${url}/models`, { headers: { authorization: 'Bearer small-key' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit-requests'), null);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
