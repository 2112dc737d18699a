// What chat-completion providers really send, decoded as a second client decodes it: content as a string or as typed
// parts, reasoning under its several names, tool-call fragments however they are numbered, usage wherever it is put.
// Each stream is decoded under every chunking of helpers/decodeBytes (whole, byte by byte, random cuts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resultFromChatCompletion } from '../../../src/gateway/common/wireFormat';
import { chatSse, underEveryChunking as decodedUnderEveryChunking, type Decoded } from '../helpers/decodeBytes';

const underEveryChunking = (bytes: string, check: (decoded: Decoded, chunking: string) => void) => decodedUnderEveryChunking('chat', bytes, check);

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

describe('reasoning under its several names', () => {
  const deepseek = {
    id: 'e3f1a2b4-8c9d-4e5f-a1b2-c3d4e5f6a7b8',
    object: 'chat.completion.chunk',
    created: 1764100000,
    model: 'deepseek-reasoner',
    system_fingerprint: 'fp_ds',
  };
  test('DeepSeek: reasoning_content, then content; usage with cache counts in the finish chunk', async () => {
    const chunks = [
      { ...deepseek, choices: [{ index: 0, delta: { role: 'assistant', content: null, reasoning_content: '' }, logprobs: null, finish_reason: null }] },
      { ...deepseek, choices: [{ index: 0, delta: { content: null, reasoning_content: 'Two plus ' }, logprobs: null, finish_reason: null }] },
      { ...deepseek, choices: [{ index: 0, delta: { content: null, reasoning_content: 'two is four.' }, logprobs: null, finish_reason: null }] },
      { ...deepseek, choices: [{ index: 0, delta: { content: '4', reasoning_content: null }, logprobs: null, finish_reason: null }] },
      {
        ...deepseek,
        choices: [{ index: 0, delta: { content: '', reasoning_content: null }, logprobs: null, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 9,
          completion_tokens: 30,
          total_tokens: 39,
          prompt_cache_hit_tokens: 0,
          prompt_cache_miss_tokens: 9,
          completion_tokens_details: { reasoning_tokens: 28 },
        },
      },
    ];
    await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Two plus two is four.', chunking);
      assert.equal(decoded.text, '4', chunking);
      assert.deepEqual(decoded.usage, { inputTokens: 9, outputTokens: 30, reasoningTokens: 28, totalTokens: 39 }, chunking);
    });
  });

  test('Groq: reasoning under `reasoning`, usage under x_groq in the last chunk', async () => {
    const groq = { id: 'chatcmpl-7f0c', object: 'chat.completion.chunk', created: 1764100000, model: 'openai/gpt-oss-20b', system_fingerprint: 'fp_g' };
    const chunks = [
      { ...groq, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], x_groq: { id: 'req_01k' } },
      { ...groq, choices: [{ index: 0, delta: { reasoning: 'Short answer.' }, logprobs: null, finish_reason: null }] },
      { ...groq, choices: [{ index: 0, delta: { content: 'Hi!' }, logprobs: null, finish_reason: null }] },
      {
        ...groq,
        choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
        x_groq: {
          id: 'req_01k',
          usage: { queue_time: 0.05, prompt_tokens: 70, prompt_time: 0.003, completion_tokens: 12, completion_time: 0.01, total_tokens: 82, total_time: 0.013 },
        },
        usage: null,
      },
    ];
    await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Short answer.', chunking);
      assert.equal(decoded.text, 'Hi!', chunking);
      assert.deepEqual(decoded.usage, { inputTokens: 70, outputTokens: 12, reasoningTokens: 0, totalTokens: 82 }, chunking);
    });
  });

  test('OpenRouter: `reasoning` and the same text in reasoning_details count once; details alone count (summaries too, encrypted never)', async () => {
    const openrouter = {
      id: 'gen-1764100000-AbCd',
      provider: 'Google',
      model: 'google/gemini-2.5-flash',
      object: 'chat.completion.chunk',
      created: 1764100000,
    };
    const both = (text: string) => ({
      ...openrouter,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: '', reasoning: text, reasoning_details: [{ type: 'reasoning.text', text, format: 'unknown', index: 0 }] },
          finish_reason: null,
          native_finish_reason: null,
          logprobs: null,
        },
      ],
    });
    const details = (detail: Record<string, unknown>) => ({
      ...openrouter,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: '', reasoning: null, reasoning_details: [detail] },
          finish_reason: null,
          native_finish_reason: null,
          logprobs: null,
        },
      ],
    });
    const chunks = [
      both('Plan: '),
      both('answer briefly. '),
      details({ type: 'reasoning.summary', summary: 'Summarised.', format: 'openai-responses-v1', index: 1 }),
      details({ type: 'reasoning.encrypted', data: 'gAAAAABo0pQ…', format: 'openai-responses-v1', index: 2 }),
      {
        ...openrouter,
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Done.' }, finish_reason: null, native_finish_reason: null, logprobs: null }],
      },
      {
        ...openrouter,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop', native_finish_reason: 'STOP', logprobs: null }],
      },
      {
        ...openrouter,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null }],
        usage: { prompt_tokens: 5, completion_tokens: 20, total_tokens: 25, cost: 0.0001, completion_tokens_details: { reasoning_tokens: 15 } },
      },
    ];
    await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Plan: answer briefly. Summarised.', chunking);
      assert.equal(decoded.text, 'Done.', chunking);
      assert.equal(decoded.finishReason, 'stop', chunking);
      assert.deepEqual(decoded.usage, { inputTokens: 5, outputTokens: 20, reasoningTokens: 15, totalTokens: 25 }, chunking);
    });
  });

  test('reasoning and refusal parts, a refusal field, and part types the client does not show (images, references) ignored', async () => {
    const chunks = [
      {
        id: 'c1',
        choices: [
          {
            index: 0,
            delta: {
              content: [
                { type: 'reasoning', text: 'Policy check.' },
                { type: 'reference', reference_ids: [1] },
              ],
            },
          },
        ],
      },
      {
        id: 'c1',
        choices: [
          {
            index: 0,
            delta: {
              content: [
                { type: 'image_url', image_url: { url: 'data:,' } },
                { type: 'refusal', refusal: 'I cannot help ' },
              ],
            },
          },
        ],
      },
      { id: 'c1', choices: [{ index: 0, delta: { content: null, refusal: 'with that.' } }] },
      { id: 'c1', choices: [{ index: 0, delta: { content: 42, shiny: { a: 1 } }, finish_reason: 'content_filter' }], error: null },
    ];
    await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Policy check.', chunking);
      assert.equal(decoded.text, 'I cannot help with that.', chunking);
      assert.equal(decoded.finishReason, 'content_filter', chunking);
    });
  });
});

describe('usage wherever it is put, reported once', () => {
  const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
  const expected = { inputTokens: 10, outputTokens: 2, reasoningTokens: 0, totalTokens: 12 };
  const text = (content: string, extra: Record<string, unknown> = {}) => ({
    id: 'c',
    choices: [{ index: 0, delta: { content }, finish_reason: null, ...extra }],
  });
  const stop = (extra: Record<string, unknown> = {}) => ({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop', ...extra }] });

  const cases: { name: string; chunks: unknown[] }[] = [
    { name: 'OpenAI: a last chunk with empty choices', chunks: [text('Hi'), stop(), { id: 'c', choices: [], usage }] },
    { name: 'Moonshot: in the finishing choice', chunks: [text('Hi'), stop({ usage })] },
    {
      name: 'a running count on every chunk (the last wins)',
      chunks: [
        { ...text('H'), usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } },
        { ...text('i'), usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } },
        { ...stop(), usage },
      ],
    },
    {
      name: 'Azure: a first chunk with empty choices and filter results; a second choice ignored',
      chunks: [
        { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] },
        { id: 'c', choices: [{ index: 0, delta: { content: 'Hi' }, content_filter_results: { hate: { filtered: false } } }] },
        { id: 'c', choices: [{ index: 1, delta: { content: 'other answer' } }] },
        { ...stop(), usage },
      ],
    },
  ];
  for (const { name, chunks } of cases) {
    test(name, async () => {
      await underEveryChunking(chatSse(chunks), (decoded, chunking) => {
        assert.equal(decoded.text, 'Hi', chunking);
        assert.deepEqual(
          decoded.events.filter((event) => event.type === 'usage'),
          [{ type: 'usage', usage: expected }],
          chunking,
        );
        assert.deepEqual(decoded.events.at(-1), { type: 'done', finishReason: 'stop' }, chunking);
      });
    });
  }
});

describe('a whole (not streamed) chat completion', () => {
  test('typed content parts, reasoning under `reasoning`, a tool call without an id', () => {
    const result = resultFromChatCompletion({
      id: 'cmpl-1',
      model: 'magistral-small-2509',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: 'Think.' }] },
              { type: 'text', text: 'Answer.' },
            ],
            tool_calls: [{ function: { name: 'read_file', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    assert.equal(result.text, 'Answer.');
    assert.equal(result.reasoning, 'Think.');
    assert.match(result.toolCalls[0].callId, /^call_\w+$/);
    const plain = resultFromChatCompletion({ id: 'c', choices: [{ message: { content: null, reasoning: 'R' }, finish_reason: 'stop' }] });
    assert.deepEqual([plain.text, plain.reasoning], ['', 'R']);
  });
});

describe('what a stream may carry besides chunks', () => {
  test("OpenRouter's processing comments, a named ping event, an empty keep-alive event and unknown chunk fields are ignored", async () => {
    const chunk = (content: string, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', provider: 'OpenAI', choices: [{ index: 0, delta: { content }, finish_reason: finish }], novel: { x: [1] } })}\n\n`;
    const bytes = [
      ': OPENROUTER PROCESSING\n\n',
      chunk('Hel'),
      'event: ping\ndata: {"type":"ping"}\n\n',
      'data:\n\n',
      ': OPENROUTER PROCESSING\n\n',
      chunk('lo', 'stop'),
      'data: [DONE]\n\n',
    ].join('');
    await underEveryChunking(bytes, (decoded, chunking) => {
      assert.equal(decoded.text, 'Hello', chunking);
      assert.equal(decoded.finishReason, 'stop', chunking);
    });
  });
});
