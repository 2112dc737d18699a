// The gateway emulator's /v1/chat/completions: request validation, answers, and the byte-level chunk stream.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { chatBody, json, parseSse, post } from '../../emulator/test-helpers';
import { expectError } from '../helpers/emulator';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

void describe('chat completions: validation', () => {
  const cases: [string, unknown, string, string | null][] = [
    ['missing model', { messages: [{ role: 'user', content: 'x' }] }, 'missing_required_parameter', 'model'],
    ['missing messages', { model: 'gw-chat' }, 'missing_required_parameter', 'messages'],
    ['empty messages', { model: 'gw-chat', messages: [] }, 'invalid_value', 'messages'],
    [
      'bad role',
      {
        model: 'gw-chat',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'robot', content: 'y' },
        ],
      },
      'invalid_value',
      'messages[1].role',
    ],
    ['missing role', { model: 'gw-chat', messages: [{ content: 'x' }] }, 'missing_required_parameter', 'messages[0].role'],
    ['bad content', { model: 'gw-chat', messages: [{ role: 'user', content: 5 }] }, 'invalid_value', 'messages[0].content'],
    [
      'tool without id',
      {
        model: 'gw-chat',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', content: 'r' },
        ],
      },
      'missing_required_parameter',
      'messages[1].tool_call_id',
    ],
    [
      'tool with unknown id',
      {
        model: 'gw-chat',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
      },
      'invalid_value',
      'messages[1].tool_call_id',
    ],
    [
      'unanswered tool call',
      {
        model: 'gw-chat',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'user', content: 'y' },
        ],
      },
      'invalid_value',
      'messages[1]',
    ],
    ['temperature', chatBody('x', { temperature: 2.5 }), 'invalid_value', 'temperature'],
    ['top_p', chatBody('x', { top_p: 1.5 }), 'invalid_value', 'top_p'],
    ['max_tokens 0', chatBody('x', { max_tokens: 0 }), 'invalid_value', 'max_tokens'],
    ['max_tokens float', chatBody('x', { max_tokens: 1.5 }), 'invalid_value', 'max_tokens'],
    ['reasoning_effort', chatBody('x', { reasoning_effort: 'extreme' }), 'invalid_value', 'reasoning_effort'],
    ['service_tier', chatBody('x', { service_tier: 'gold' }), 'invalid_value', 'service_tier'],
    ['stream', chatBody('x', { stream: 'yes' }), 'invalid_value', 'stream'],
    ['tool type', chatBody('x', { tools: [{ type: 'web', function: { name: 'f' } }] }), 'invalid_value', 'tools[0].type'],
    ['tool name', chatBody('x', { tools: [{ type: 'function', function: {} }] }), 'missing_required_parameter', 'tools[0].function.name'],
    [
      'tool_choice undeclared',
      chatBody('x', { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } }),
      'invalid_value',
      'tool_choice',
    ],
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
      temperature: 0,
      top_p: 1,
      max_tokens: 100,
      reasoning_effort: 'minimal',
      service_tier: 'auto',
      stream: false,
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'auto',
      user: 'ignored-unknown-field',
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
    const res = await post(emu, '/v1/chat/completions', {
      model: 'gw-chat',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: `  ${'q'.repeat(300)}  ` },
      ],
    });
    const body = await json(res);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    assert.match(body.id, /^chatcmpl-/);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'gw-chat');
    assert.ok(Number.isInteger(body.created));
    assert.equal(body.choices.length, 1);
    assert.equal(body.choices[0].index, 0);
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.deepEqual(
      { role: body.choices[0].message.role, content: body.choices[0].message.content },
      { role: 'assistant', content: `Echo: ${'q'.repeat(200)}` },
    );
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
    const text = chunks
      .slice(0, -2)
      .map((c) => c.choices[0].delta.content ?? '')
      .join('');
    assert.equal(text, 'Echo: stream me please');
    assert.ok(chunks.length > 4, 'text arrives in several deltas');
    for (const c of chunks.slice(0, -2)) assert.equal(c.choices[0].finish_reason, null);
  });

  void it('sends no usage chunk without stream_options.include_usage', async () => {
    const chunks = chatChunks(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    assert.ok(chunks.every((c) => c.choices.length === 1 && c.usage === undefined));
  });

  void it('streams scripted tool calls as deltas and finishes with tool_calls', async () => {
    emu.script('demo-key', [
      {
        text: 'Let me check.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Edinburgh', units: 'c' }, callId: 'call_fixed' },
          { name: 'noop', arguments: '{}' },
        ],
      },
    ]);
    const chunks = chatChunks(
      await (await post(emu, '/v1/chat/completions', chatBody('weather?', { stream: true, stream_options: { include_usage: true } }))).text(),
    );
    const deltas = chunks.slice(0, -1).map((c) => c.choices[0].delta);
    assert.equal(deltas.map((d) => d.content ?? '').join(''), 'Let me check.');
    const toolDeltas = deltas.filter((d) => d.tool_calls).map((d) => d.tool_calls[0]);
    const first = toolDeltas[0];
    assert.deepEqual(first, { index: 0, id: 'call_fixed', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const args0 = toolDeltas
      .filter((d) => d.index === 0)
      .map((d) => d.function.arguments)
      .join('');
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
