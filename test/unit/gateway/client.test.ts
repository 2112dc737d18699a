// The client against the emulator over real HTTP: every operation, every parameter on the wire.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { InvalidRequestError, type StreamEvent } from '../../../src/gateway/common';
import { responsesFinishReason } from '../../../src/gateway/common/wireFormat';
import { startEmulator, type Emulator } from '../../emulator/server';
import type { ScriptedTurn } from '../../emulator/types';
import { MemoryLogger, collect, makeClient, signal } from '../helpers/clients';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const client = (key = 'demo-key') => makeClient(emulator.baseUrl, key);
const textOf = (events: StreamEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');
const lastBody = () => emulator.requests.at(-1)!.body as Record<string, unknown>;

describe('models', () => {
  test('lists the models of the calling key', async () => {
    const all = await client().listModels({ signal: signal() });
    assert.deepEqual(all.map((m) => m.id).sort(), ['gw-chat', 'gw-chat-mini', 'gw-chat-pro', 'gw-code']);
    assert.ok(all.every((m) => m.ownedBy === all[0].ownedBy && m.ownedBy !== ''));
    const small = await client('small-key').listModels({ signal: signal() });
    assert.deepEqual(
      small.map((m) => m.id),
      ['gw-chat-mini'],
    );
  });
});

describe('chat completions', () => {
  test('non-stream answer with usage', async () => {
    const result = await client().chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello there' }] }, { signal: signal() });
    assert.equal(result.text, 'Echo: hello there');
    assert.equal(result.finishReason, 'stop');
    assert.ok(result.usage && result.usage.totalTokens === result.usage.inputTokens + result.usage.outputTokens);
    assert.equal(lastBody().stream, false);
  });

  test('streams text, usage and done, and asks for usage in the stream', async () => {
    const events = await collect(client().chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'stream me' }] }, { signal: signal() }));
    assert.equal(textOf(events), 'Echo: stream me');
    assert.equal(events[0].type, 'response');
    assert.deepEqual(
      events.slice(-2).map((e) => e.type),
      ['usage', 'done'],
    );
    assert.deepEqual(lastBody().stream_options, { include_usage: true });
    const headers = emulator.requests.at(-1)!.headers;
    assert.equal(headers['accept'], 'text/event-stream');
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['authorization'], 'Bearer ***');
    assert.match(headers['user-agent'], /^gateway-vscode/);
  });

  test('sends every parameter of spec 4.1 in wire form', async () => {
    const tools = [
      { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ];
    await client().chat(
      {
        model: 'gw-chat-pro',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        temperature: 0.2,
        topP: 0.9,
        maxTokens: 50,
        reasoningEffort: 'low',
        serviceTier: 'priority',
        tools,
        toolChoice: 'auto',
      },
      { signal: signal() },
    );
    assert.deepEqual(lastBody(), {
      model: 'gw-chat-pro',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      reasoning_effort: 'low',
      service_tier: 'priority',
      tools: [{ type: 'function', function: tools[0] }],
      tool_choice: 'auto',
      stream: false,
    });
  });

  test('reasoning_effort and service_tier are sent only when set', async () => {
    await client().chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'x' }] }, { signal: signal() });
    assert.equal('reasoning_effort' in lastBody(), false);
    assert.equal('service_tier' in lastBody(), false);
  });

  test('a tool call streams as one event with its complete arguments', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts', startLine: 3 } }] }]);
    const events = await collect(
      client().chatStream(
        { model: 'gw-chat', messages: [{ role: 'user', content: 'read it' }], tools: [{ name: 'read_file', parameters: { type: 'object' } }] },
        { signal: signal() },
      ),
    );
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    assert.equal(calls.length, 1);
    assert.equal(calls[0].name, 'read_file');
    assert.deepEqual(JSON.parse(calls[0].arguments), { path: 'src/a.ts', startLine: 3 });
    assert.ok(calls[0].callId.length > 0);
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'tool_calls' });
  });

  test('tool_choice naming a function is sent in chat form and honoured', async () => {
    const tools = [
      { name: 'noop', parameters: { type: 'object', properties: {} } },
      { name: 'pick', parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 2, maximum: 4 } }, required: ['n'] } },
    ];
    const result = await client().chat(
      { model: 'gw-chat', messages: [{ role: 'user', content: 'go' }], tools, toolChoice: { name: 'pick' } },
      { signal: signal() },
    );
    assert.deepEqual(lastBody().tool_choice, { type: 'function', function: { name: 'pick' } });
    assert.equal(result.toolCalls[0].name, 'pick');
    const n = (JSON.parse(result.toolCalls[0].arguments) as { n: number }).n;
    assert.ok(Number.isInteger(n) && n >= 2 && n <= 4);
  });

  test('max_tokens reached finishes with length', async () => {
    emulator.script('demo-key', [{ text: 'word '.repeat(100) }]);
    const events = await collect(client().chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'long' }], maxTokens: 5 }, { signal: signal() }));
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'length' });
  });
});

describe('responses', () => {
  test('non-stream answer with its response id', async () => {
    const result = await client().respond({ model: 'gw-code', input: 'hello code' }, { signal: signal() });
    assert.equal(result.text, 'Echo: hello code');
    assert.match(result.id, /^resp_/);
    assert.ok(result.usage);
  });

  test('sends model, input, instructions, tools, previous_response_id, reasoning and service tier', async () => {
    const first = await client().respond({ model: 'gw-code', input: 'one' }, { signal: signal() });
    await client().respond(
      {
        model: 'gw-code',
        input: [{ role: 'user', content: 'two' }],
        instructions: 'You are terse.',
        tools: [{ name: 'list_files', description: 'List', parameters: { type: 'object', properties: {} } }],
        previousResponseId: first.id,
        reasoningEffort: 'high',
        serviceTier: 'flex',
      },
      { signal: signal() },
    );
    assert.deepEqual(lastBody(), {
      model: 'gw-code',
      input: [{ role: 'user', content: 'two' }],
      instructions: 'You are terse.',
      tools: [{ type: 'function', name: 'list_files', description: 'List', parameters: { type: 'object', properties: {} }, strict: false }],
      previous_response_id: first.id,
      reasoning: { effort: 'high' },
      service_tier: 'flex',
      stream: false,
    });
  });

  test('streamed or not, an answer ends with the same chat-style finish reason', async () => {
    const endings: [string, ScriptedTurn, number | undefined][] = [
      ['stop', { text: 'done.' }, undefined],
      ['length', { text: 'cut here', finishReason: 'length' }, undefined],
      ['length', { text: 'word '.repeat(100) }, 5],
      ['content_filter', { text: 'filtered', finishReason: 'content_filter' }, undefined],
      ['tool_calls', { toolCalls: [{ name: 'noop', arguments: {} }] }, undefined],
    ];
    const tools = [{ name: 'noop', parameters: { type: 'object', properties: {} } }];
    for (const [expected, turn, maxOutputTokens] of endings) {
      emulator.script('demo-key', [turn, turn]);
      const params = { model: 'gw-code', input: 'go', tools, maxOutputTokens };
      const whole = await client().respond(params, { signal: signal() });
      const streamed = await collect(client().respondStream(params, { signal: signal() }));
      assert.equal(whole.finishReason, expected, `respond: ${JSON.stringify(turn)}`);
      assert.deepEqual(streamed.at(-1), { type: 'done', finishReason: expected }, `respondStream: ${JSON.stringify(turn)}`);
    }
  });

  test('an incomplete answer without a readable reason is "incomplete"', () => {
    for (const details of [undefined, null, {}, { reason: null }, { reason: 7 }]) assert.equal(responsesFinishReason(true, details, false), 'incomplete');
    assert.equal(responsesFinishReason(false, { reason: 'max_output_tokens' }, true), 'tool_calls', 'details of a complete answer are not read');
  });

  test('a function call answered through previous_response_id continues the session', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'The file says hi.' }]);
    const tools = [{ name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const first = await collect(client().respondStream({ model: 'gw-code', input: 'read a.txt', tools }, { signal: signal() }));
    const responseId = first.find((e) => e.type === 'response');
    const call = first.find((e) => e.type === 'tool_call');
    assert.ok(responseId?.type === 'response' && call?.type === 'tool_call');
    assert.deepEqual(JSON.parse(call.call.arguments), { path: 'a.txt' });
    assert.deepEqual(first.at(-1), { type: 'done', finishReason: 'tool_calls' });
    const second = await collect(
      client().respondStream(
        { model: 'gw-code', previousResponseId: responseId.id, tools, input: [{ type: 'function_call_output', call_id: call.call.callId, output: 'hi' }] },
        { signal: signal() },
      ),
    );
    assert.equal(textOf(second), 'The file says hi.');
  });

  test('reasoning streams as reasoning events and counts in usage', async () => {
    emulator.script('demo-key', [{ reasoning: 'Thinking it through.', text: 'Done.' }]);
    const events = await collect(client().respondStream({ model: 'gw-code', input: 'think' }, { signal: signal() }));
    assert.equal(
      events
        .filter((e) => e.type === 'reasoning')
        .map((e) => (e.type === 'reasoning' ? e.text : ''))
        .join(''),
      'Thinking it through.',
    );
    const usage = events.find((e) => e.type === 'usage');
    assert.ok(usage?.type === 'usage' && usage.usage.reasoningTokens > 0);
  });
});

describe('local validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['temperature 3', { temperature: 3 }, 'temperature'],
    ['temperature -0.1', { temperature: -0.1 }, 'temperature'],
    ['top_p 1.5', { topP: 1.5 }, 'top_p'],
    ['max_tokens 0', { maxTokens: 0 }, 'max_tokens'],
    ['max_tokens 1.5', { maxTokens: 1.5 }, 'max_tokens'],
    ['reasoning_effort extreme', { reasoningEffort: 'extreme' }, 'reasoning_effort'],
    ['service_tier gold', { serviceTier: 'gold' }, 'service_tier'],
    ['no messages', { messages: [] }, 'messages'],
    ['a bad role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    ['an empty model', { model: ' ' }, 'model'],
    ['tool_choice naming no tool', { toolChoice: { name: 'ghost' } }, 'tool_choice'],
  ];
  for (const [name, override, param] of cases) {
    test(`${name} is a local error naming ${param}, and nothing is sent`, async () => {
      const params = { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }], ...override } as never;
      assert.throws(
        () => client().chatStream(params, { signal: signal() }),
        (error: unknown) => error instanceof InvalidRequestError && error.param === param && error.message.includes(param),
      );
      await assert.rejects(client().chat(params, { signal: signal() }), InvalidRequestError);
      assert.equal(emulator.requests.length, 0);
    });
  }
  test('responses input must not be empty', async () => {
    await assert.rejects(
      client().respond({ model: 'gw-code', input: '' }, { signal: signal() }),
      (e: unknown) => e instanceof InvalidRequestError && e.param === 'input',
    );
    assert.match(
      String(
        (() => {
          try {
            client().respondStream({ model: 'gw-code', input: 'x', temperature: 3 }, { signal: signal() });
            return '';
          } catch (e) {
            return (e as Error).message;
          }
        })(),
      ),
      /temperature must be between 0 and 2 \(got 3\)/,
    );
  });
});

describe('logging', () => {
  test('each request is logged with model, status, request id, latency and tokens; never the key or the prompt', async () => {
    const logger = new MemoryLogger();
    const client = makeClient(emulator.baseUrl, 'demo-key', { logger });
    await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'my private prompt' }] }, { signal: signal() }));
    await client.respond({ model: 'gw-code', input: 'another private prompt' }, { signal: signal() });
    const requestLines = logger.lines.filter((line) => / → \d{3} /.test(line));
    assert.equal(requestLines.length, 2);
    for (const line of requestLines) assert.match(line, /model=gw-(chat|code) → 200 request-id=\S+ \d+ ms/);
    const tokenLines = logger.lines.filter((line) => line.includes('tokens:'));
    assert.equal(tokenLines.length, 2);
    assert.match(tokenLines[0], /\/chat\/completions model=gw-chat request-id=\S+ tokens: \d+ in, \d+ out \(\d+ reasoning\), \d+ total/);
    for (const line of logger.lines) {
      assert.ok(!line.includes('private prompt'), line);
      assert.ok(!line.includes('demo-key'), line);
    }
  });
});
