// How a stream may end. Providers close the connection right after their last event, and not always after the blank
// line that ends it: the final `data: [DONE]` (or the final chunk itself, with no [DONE]) then lacks its blank line.
// What was sent whole is decoded; what was cut off mid-event is not, and the stream is then incomplete.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StreamInterruptedError } from '../../../src/gateway/common/errors';
import { CHUNKINGS, chatSse, decodeBytes, responsesSse } from '../helpers/decodeBytes';

const base = { id: 'chatcmpl-9x1', object: 'chat.completion.chunk', created: 1764100000, model: 'gpt-4.1-mini', system_fingerprint: 'fp_1' };
const toolCallChunks = [
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        },
        logprobs: null,
        finish_reason: null,
      },
    ],
  },
  { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, logprobs: null, finish_reason: null }] },
  { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, logprobs: null, finish_reason: null }] },
  { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }] },
];
const expectedCall = [{ callId: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' }];

describe('a chat stream that closes without the final blank line', () => {
  const endings = [
    { name: '[DONE] and one line end', ending: 'data: [DONE]\n' },
    { name: '[DONE] and no line end', ending: 'data: [DONE]' },
    { name: '[DONE] and CR LF', ending: 'data: [DONE]\r\n' },
  ];
  for (const { name, ending } of endings) {
    for (const chunking of CHUNKINGS) {
      test(`${name} (${chunking.name}): the tool call and the finish reason are kept`, async () => {
        const decoded = await decodeBytes('chat', chatSse(toolCallChunks, ending), chunking.sizes());
        assert.deepEqual(decoded.toolCalls, expectedCall);
        assert.equal(decoded.finishReason, 'tool_calls');
      });
    }
  }

  for (const chunking of CHUNKINGS) {
    test(`the finish chunk last, with no blank line and no [DONE] (${chunking.name}): the answer is complete`, async () => {
      const lines = chatSse(toolCallChunks, '').replace(/\n\n$/, '');
      for (const bytes of [lines, `${lines}\n`]) {
        const decoded = await decodeBytes('chat', bytes, chunking.sizes());
        assert.deepEqual(decoded.toolCalls, expectedCall);
        assert.equal(decoded.finishReason, 'tool_calls');
      }
    });
  }

  test('a stream cut inside its last event (before a finish reason) is still incomplete, with the text before it kept', async () => {
    const cut =
      chatSse([{ ...base, choices: [{ index: 0, delta: { content: 'Hel' } }] }], '') +
      'data: {"id":"chatcmpl-9x1","choices":[{"index":0,"delta":{"content":"lo';
    await assert.rejects(
      decodeBytes('chat', cut),
      (error: unknown) =>
        error instanceof StreamInterruptedError && /closed before/.test(error.message) && (error as { partialText?: string }).partialText === 'Hel',
    );
  });

  test('a stream whose last whole chunk has no finish reason is still incomplete', async () => {
    const bytes = chatSse([{ ...base, choices: [{ index: 0, delta: { content: 'Hello' } }] }], '');
    await assert.rejects(decodeBytes('chat', bytes), (error: unknown) => error instanceof StreamInterruptedError && /closed before/.test(error.message));
    await assert.rejects(
      decodeBytes('chat', bytes.replace(/\n\n$/, '')),
      (error: unknown) => error instanceof StreamInterruptedError && /closed before/.test(error.message),
    );
  });
});

describe('a responses stream whose terminal event has no blank line', () => {
  const events = [
    { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', model: 'gpt-5-mini', status: 'in_progress' } },
    { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'OK' },
    {
      type: 'response.completed',
      sequence_number: 2,
      response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 } },
    },
  ];
  for (const chunking of CHUNKINGS) {
    test(`is complete (${chunking.name})`, async () => {
      const whole = responsesSse(events);
      for (const bytes of [whole.replace(/\n\n$/, '\n'), whole.replace(/\n\n$/, '')]) {
        const decoded = await decodeBytes('responses', bytes, chunking.sizes());
        assert.equal(decoded.text, 'OK');
        assert.equal(decoded.finishReason, 'stop');
        assert.equal(decoded.usage?.totalTokens, 6);
      }
    });
  }

  test('cut inside the terminal event, it is incomplete', async () => {
    const bytes = responsesSse(events).slice(0, -40);
    await assert.rejects(decodeBytes('responses', bytes), (error: unknown) => error instanceof StreamInterruptedError && /closed before/.test(error.message));
  });
});
