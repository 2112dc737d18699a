// The official `openai` client library, unchanged but for baseURL and apiKey, against the emulator:
// the spec promises that existing client libraries for the interface work with the gateway.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { startEmulator, type Emulator } from '../../emulator/server';

let emu: Emulator;
let client: OpenAI;
before(async () => {
  emu = await startEmulator({ port: 0, keys: [{ key: 'tight', rpm: 1 }] });
  client = new OpenAI({ baseURL: emu.baseUrl, apiKey: 'demo-key' });
});
after(() => emu.close());
beforeEach(() => emu.reset());

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['city', 'days'],
      additionalProperties: false,
    },
  },
};

void describe('openai SDK against the emulator', () => {
  void it('lists models', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.deepEqual(ids, ['gw-chat', 'gw-chat-pro', 'gw-chat-mini', 'gw-code']);
  });

  void it('chat: non-stream answer with usage', async () => {
    const res = await client.chat.completions.create({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello sdk' }] });
    assert.equal(res.choices[0].message.content, 'Echo: hello sdk');
    assert.equal(res.choices[0].finish_reason, 'stop');
    assert.equal(res.usage!.total_tokens, res.usage!.prompt_tokens + res.usage!.completion_tokens);
  });

  void it('chat: stream with a tool call forced by tool_choice; the arguments parse', async () => {
    const stream = await client.chat.completions.create({
      model: 'gw-chat-pro',
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      stream: true,
      stream_options: { include_usage: true },
    });
    let args = '';
    let name = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      for (const tc of choice.delta.tool_calls ?? []) {
        name += tc.function?.name ?? '';
        args += tc.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
    assert.equal(name, 'get_weather');
    const parsed = JSON.parse(args);
    assert.equal(typeof parsed.city, 'string');
    assert.ok(Number.isInteger(parsed.days) && parsed.days >= 1 && parsed.days <= 5);
    assert.equal(finish, 'tool_calls');
    assert.ok(usage && usage.total_tokens > 0);
  });

  void it('chat: the stream helper and finalChatCompletion assemble text and tool calls', async () => {
    emu.script('demo-key', [{ text: 'Checking the weather.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome', days: 2 } }] }]);
    const runner = client.chat.completions.stream({
      model: 'gw-chat',
      messages: [{ role: 'user', content: 'x' }],
      tools: [weatherTool],
      stream_options: { include_usage: true },
    });
    const final = await runner.finalChatCompletion();
    const msg = final.choices[0].message;
    assert.equal(msg.content, 'Checking the weather.');
    assert.equal(msg.tool_calls![0].type, 'function');
    const fn = (msg.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function;
    assert.deepEqual(JSON.parse(fn.arguments), { city: 'Rome', days: 2 });
    assert.equal(final.choices[0].finish_reason, 'tool_calls');
  });

  void it('responses: non-stream answer, then a function call answered through previous_response_id', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters, strict: true }];
    const plain = await client.responses.create({ model: 'gw-code', input: 'plain question', instructions: 'Be brief.' });
    assert.equal(plain.output_text, 'Echo: plain question');
    assert.equal(plain.status, 'completed');

    const first = await client.responses.create({ model: 'gw-code', input: 'weather?', tools, tool_choice: { type: 'function', name: 'get_weather' } });
    const fc = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    assert.equal(fc.name, 'get_weather');
    assert.equal(typeof JSON.parse(fc.arguments).city, 'string');
    const second = await client.responses.create({
      model: 'gw-code',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: fc.call_id, output: 'sunny, 21C' }],
      tools,
    });
    assert.equal(second.previous_response_id, first.id);
    assert.equal(second.output_text, 'Echo: sunny, 21C');
  });

  void it('responses: stream events, a function call, and its output through previous_response_id in a second stream', async () => {
    emu.script('demo-key', [
      { reasoning: 'Need data.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', days: 1 } }] },
      { text: 'It is sunny in Paris.' },
    ]);
    const stream = await client.responses.create({
      model: 'gw-code',
      input: 'weather in Paris?',
      stream: true,
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters, strict: false }],
    });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    let args = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(types[0], 'response.created');
    assert.ok(types.includes('response.reasoning_summary_text.delta'));
    assert.deepEqual(JSON.parse(args), { city: 'Paris', days: 1 });
    const fc = completed!.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;

    const helper = client.responses.stream({
      model: 'gw-code',
      previous_response_id: completed!.id,
      input: [{ type: 'function_call_output', call_id: fc.call_id, output: '{"sky":"clear"}' }],
    });
    let text = '';
    helper.on('response.output_text.delta', (e) => (text += e.delta));
    const final = await helper.finalResponse();
    assert.equal(text, 'It is sunny in Paris.');
    assert.equal(final.output_text, 'It is sunny in Paris.');
    assert.ok(final.usage!.total_tokens > 0);
  });

  void it('raises the SDK’s own error classes: 401, 402 balance_zero, 429, 400, and an in-stream error', async () => {
    const noRetry = (apiKey: string): OpenAI => new OpenAI({ baseURL: emu.baseUrl, apiKey, maxRetries: 0 });
    const msgs: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'x' }];
    await assert.rejects(noRetry('wrong').models.list(), (e) => e instanceof OpenAI.AuthenticationError && e.status === 401);
    await assert.rejects(noRetry('empty-key').chat.completions.create({ model: 'gw-chat', messages: msgs }), (e) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 402);
      assert.equal(e.code, 'balance_zero');
      assert.equal(e.type, 'insufficient_quota');
      assert.ok(e.message.includes('/cabinet/billing'));
      return true;
    });
    const tight = noRetry('tight');
    await tight.chat.completions.create({ model: 'gw-chat', messages: msgs });
    await assert.rejects(
      tight.chat.completions.create({ model: 'gw-chat', messages: msgs }),
      (e) => e instanceof OpenAI.RateLimitError && e.status === 429 && e.headers.get('retry-after') !== null,
    );
    await assert.rejects(
      noRetry('demo-key').chat.completions.create({ model: 'gw-code', messages: msgs }),
      (e) => e instanceof OpenAI.BadRequestError && e.code === 'model_not_found' && e.param === 'model',
    );
    emu.fault('demo-key', { kind: 'stream-error' });
    const failing = await noRetry('demo-key').responses.create({ model: 'gw-code', input: 'a b c d e', stream: true });
    await assert.rejects(
      async () => {
        for await (const _event of failing) void _event;
      },
      (e) => e instanceof OpenAI.APIError && /server had an error/.test(e.message),
    );
  });

  void it('sees a context window overflow as its BadRequestError, on both endpoints', async () => {
    const noRetry = new OpenAI({ baseURL: emu.baseUrl, apiKey: 'demo-key', maxRetries: 0 });
    const long = 'abcd'.repeat(32_010);
    await assert.rejects(noRetry.chat.completions.create({ model: 'gw-chat-mini', messages: [{ role: 'user', content: long }] }), (e) => {
      assert.ok(e instanceof OpenAI.BadRequestError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'context_length_exceeded');
      assert.equal(e.param, 'messages');
      assert.match(e.message, /This model's maximum context length is 32000 tokens\. However, your messages resulted in 32010 tokens/);
      return true;
    });
    await assert.rejects(
      noRetry.responses.create({ model: 'gw-chat-mini', input: long }),
      (e) => e instanceof OpenAI.BadRequestError && e.code === 'context_length_exceeded' && e.param === 'input',
    );
  });
});
