// What chat-completion providers really send, decoded as a second client decodes it: content as a string or as typed
// parts, reasoning under its several names, tool-call fragments however they are numbered, usage wherever it is put.
// Each stream is decoded under every chunking of helpers/decodeBytes (whole, byte by byte, random cuts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHUNKINGS, chatSse, decodeBytes, type Decoded } from './helpers/decodeBytes';

/** Decodes `bytes` under every chunking and checks each result. */
async function underEveryChunking(bytes: string, check: (decoded: Decoded, chunking: string) => void): Promise<void> {
  for (const chunking of CHUNKINGS) check(await decodeBytes('chat', bytes, chunking.sizes()), chunking.name);
}

const mistral = { id: '5b1e0c7a2f4d4e0f9a6b3c2d1e0f9a8b', object: 'chat.completion.chunk', created: 1764100000, model: 'magistral-medium-2509' };

describe('content as typed parts', () => {
  test('Mistral magistral: thinking parts are reasoning, text parts (and later plain strings) are the answer', async () => {
    const chunks = [
      { ...mistral, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      {
        ...mistral,
        choices: [{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user asks for ' }] }] }, finish_reason: null }],
      },
      {
        ...mistral,
        choices: [{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'the capital of France.' }] }] }, finish_reason: null }],
      },
      { ...mistral, choices: [{ index: 0, delta: { content: [{ type: 'text', text: 'The capital ' }] }, finish_reason: null }] },
      { ...mistral, choices: [{ index: 0, delta: { content: 'is Paris. ✓' }, finish_reason: null }] },
      {
        ...mistral,
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, total_tokens: 52, completion_tokens: 40 },
      },
    ];
    await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'The user asks for the capital of France.', chunking);
      assert.equal(decoded.text, 'The capital is Paris. ✓', chunking);
      assert.equal(decoded.finishReason, 'stop', chunking);
      assert.deepEqual(decoded.usage, { inputTokens: 12, outputTokens: 40, reasoningTokens: 0, totalTokens: 52 }, chunking);
    });
  });
});
