// The gateway emulator's /v1/responses: response objects, the event stream, validation, and stored sessions.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { json, post } from '../../emulator/test-helpers';
import { expectError, responseEvents } from '../helpers/emulator';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

const TEXT_ORDER = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
];

void describe('responses', () => {
  void it('answers a response object with message output, ids, usage and echoed fields', async () => {
    const res = await post(emu, '/v1/responses', {
      model: 'gw-code',
      input: [
        { role: 'user', content: 'first' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'second' }] },
      ],
      instructions: 'Be terse.',
      reasoning: { effort: 'low' },
      service_tier: 'flex',
      temperature: 0.2,
      top_p: 0.5,
    });
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
    assert.deepEqual(
      { ...msg, id: 'x' },
      {
        id: 'x',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Echo: second', annotations: [], logprobs: [] }],
      },
    );
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
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t !== 'response.output_text.delta'),
      TEXT_ORDER,
    );
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
    emu.script('demo-key', [
      { reasoning: 'Thinking hard.', text: 'Calling.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Beijing' }, callId: 'call_w' }] },
    ]);
    const events = responseEvents(
      await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true, tools: [{ type: 'function', name: 'get_weather' }] })).text(),
    );
    const types = events.map((e) => e.type);
    const compact = types.filter((t, i) => t !== types[i - 1]);
    assert.deepEqual(compact, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.equal(
      events
        .filter((e) => e.type === 'response.reasoning_summary_text.delta')
        .map((e) => e.delta)
        .join(''),
      'Thinking hard.',
    );
    const fcAdded = events.filter((e) => e.type === 'response.output_item.added')[2];
    assert.equal(fcAdded.output_index, 2);
    assert.deepEqual(
      { ...fcAdded.item, id: 'x' },
      { id: 'x', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_w', name: 'get_weather' },
    );
    assert.match(fcAdded.item.id, /^fc_/);
    const argDeltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    assert.equal(argDeltas.map((e) => e.delta).join(''), '{"city":"Beijing"}');
    assert.equal(events.find((e) => e.type === 'response.function_call_arguments.done').arguments, '{"city":"Beijing"}');
    const final = events.at(-1).response;
    assert.deepEqual(
      final.output.map((o: any) => o.type),
      ['reasoning', 'message', 'function_call'],
    );
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
    [
      'chat-shaped tool',
      { model: 'gw-code', input: 'x', tools: [{ type: 'function', function: { name: 'f' } }] },
      'missing_required_parameter',
      'tools[0].name',
    ],
    [
      'tool_choice chat shape',
      { model: 'gw-code', input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', function: { name: 'f' } } },
      'invalid_value',
      'tool_choice',
    ],
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
    emu.script('demo-key', [
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'a.ts' } },
          { name: 'read_file', arguments: { path: 'b.ts' } },
        ],
      },
    ]);
    const r1 = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'read both', tools }));
    const callIds = r1.output.map((o: any) => o.call_id);
    assert.equal(callIds.length, 2);
    for (const id of callIds) assert.match(id, /^call_/);
    const partial = await expectError(
      await post(emu, '/v1/responses', {
        model: 'gw-code',
        previous_response_id: r1.id,
        input: [{ type: 'function_call_output', call_id: callIds[0], output: 'A' }],
        tools,
      }),
      400,
      'invalid_request_error',
      'invalid_value',
      'input',
    );
    assert.ok(partial.message.includes(callIds[1]), partial.message);
    const userOnly = await expectError(
      await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r1.id, input: 'hi' }),
      400,
      'invalid_request_error',
      'invalid_value',
      'input',
    );
    assert.ok(userOnly.message.includes(callIds[0]));
    const r2 = await json(
      await post(emu, '/v1/responses', {
        model: 'gw-code',
        previous_response_id: r1.id,
        tools,
        input: callIds.map((id: string, i: number) => ({ type: 'function_call_output', call_id: id, output: `content ${i}` })),
      }),
    );
    assert.equal(r2.previous_response_id, r1.id);
    assert.equal(r2.output[0].content[0].text, 'Echo: content 1');
    assert.ok(r2.usage.input_tokens > r1.usage.input_tokens, 'the stored conversation is part of the prompt');
    const r3 = await json(await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r2.id, input: 'and now?' }));
    assert.equal(r3.output[0].content[0].text, 'Echo: and now?');
    // another key cannot continue it; forgetting makes it unknown
    await expectError(
      await post(emu, '/v1/responses', { model: 'gw-chat-mini', previous_response_id: r3.id, input: 'x' }, { key: 'small-key' }),
      400,
      'invalid_request_error',
      'previous_response_not_found',
      'previous_response_id',
    );
    emu.forgetResponses();
    await expectError(
      await post(emu, '/v1/responses', { model: 'gw-code', previous_response_id: r3.id, input: 'x' }),
      400,
      'invalid_request_error',
      'previous_response_not_found',
      'previous_response_id',
    );
  });

  void it('does not store a response sent with store: false', async () => {
    const r = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', store: false }));
    assert.equal(r.store, false);
    await expectError(
      await post(emu, '/v1/responses', { model: 'gw-code', input: 'y', previous_response_id: r.id }),
      400,
      'invalid_request_error',
      'previous_response_not_found',
      'previous_response_id',
    );
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
    const broken = await expectError(
      await post(emu, '/v1/responses', { model: 'gw-code', input: transcript.filter((_, i) => i !== 2) }),
      400,
      'invalid_request_error',
      'invalid_value',
      'input',
    );
    assert.match(broken.message, /call_a/);
  });
});
