// The emulator's provider dialects over raw HTTP: what a DeepSeek-style and a Mistral-style model send, byte for byte where it matters.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { chatBody, json, post, readSse } from '../../emulator/test-helpers';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0, dialects: { 'gw-chat-pro': 'deepseek' } });
});
after(() => emu.close());
beforeEach(() => emu.reset());

const TOOLS = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const chunksOf = async (res: Response) => {
  const sse = await readSse(res);
  return { raw: sse.raw, chunks: sse.events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data)), events: sse.events };
};

describe('DeepSeek-style model', () => {
  it('streams reasoning_content deltas before the content, and the usage in the chunk that finishes', async () => {
    emu.script('demo-key', [{ reasoning: 'Weigh the two options first.', text: 'Take the second one.' }]);
    const { chunks, raw } = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('which?', { model: 'gw-chat-pro', stream: true })));
    const deltas = chunks.map((c) => c.choices[0].delta);
    assert.deepEqual(deltas[0], { role: 'assistant', content: null, reasoning_content: '' });
    const reasoning = deltas
      .filter((d) => typeof d.reasoning_content === 'string')
      .map((d) => d.reasoning_content)
      .join('');
    const text = deltas
      .filter((d) => typeof d.content === 'string')
      .map((d) => d.content)
      .join('');
    assert.equal(reasoning, 'Weigh the two options first.');
    assert.equal(text, 'Take the second one.');
    const lastReasoning = deltas.findLastIndex((d) => d.reasoning_content);
    const firstText = deltas.findIndex((d) => d.content);
    assert.ok(lastReasoning < firstText, 'reasoning comes before the content');
    const last = chunks.at(-1);
    assert.equal(last.choices[0].finish_reason, 'stop');
    assert.equal(last.usage.completion_tokens_details.reasoning_tokens, Math.ceil('Weigh the two options first.'.length / 4));
    assert.equal(typeof last.usage.prompt_cache_miss_tokens, 'number');
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    assert.match(chunks[0].id, /^[0-9a-f-]{36}$/);
  });

  it('refuses its reasoning sent back in an input message, as DeepSeek does', async () => {
    const messages = [
      { role: 'user', content: 'which?' },
      { role: 'assistant', content: 'Take the second one.', reasoning_content: 'Weigh the two options first.' },
      { role: 'user', content: 'why?' },
    ];
    const res = await post(emu, '/v1/chat/completions', { model: 'gw-chat-pro', messages });
    assert.equal(res.status, 400);
    assert.equal((await json(res)).error.param, 'messages[1].reasoning_content');
  });

  it('answers without a stream with reasoning_content beside the content', async () => {
    emu.script('demo-key', [{ reasoning: 'Think.', text: 'Done.' }]);
    const body = await json(await post(emu, '/v1/chat/completions', chatBody('go', { model: 'gw-chat-pro' })));
    assert.deepEqual(body.choices[0].message, { role: 'assistant', content: 'Done.', reasoning_content: 'Think.' });
  });
});

describe('Mistral-style model', () => {
  it('streams thinking and text as arrays of typed parts and ends without the last blank line', async () => {
    emu.setDialect('gw-chat-mini', 'mistral');
    emu.script('demo-key', [{ reasoning: 'Two plus two.', text: 'It is four.' }]);
    const { chunks, raw, events } = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('2+2?', { model: 'gw-chat-mini', stream: true })));
    const parts = chunks.flatMap((c) => (Array.isArray(c.choices[0].delta.content) ? c.choices[0].delta.content : []));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.equal(
      parts
        .filter((p) => p.type === 'thinking')
        .map((p) => p.thinking[0].text)
        .join(''),
      'Two plus two.',
    );
    assert.equal(
      parts
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join(''),
      'It is four.',
    );
    assert.ok(parts.findLastIndex((p) => p.type === 'thinking') < parts.findIndex((p) => p.type === 'text'));
    assert.deepEqual(chunks.at(-1).usage, {
      prompt_tokens: chunks.at(-1).usage.prompt_tokens,
      total_tokens: chunks.at(-1).usage.total_tokens,
      completion_tokens: chunks.at(-1).usage.completion_tokens,
    });
    assert.ok(raw.endsWith('}\n\ndata: [DONE]\n'), `the stream ends ${JSON.stringify(raw.slice(-30))}`);
    assert.equal(events.at(-1)?.data === '[DONE]', false, 'a parser that waits for the blank line never sees [DONE]');
    assert.match(chunks[0].id, /^[0-9a-f]{32}$/);
  });

  it('sends each tool call whole, with a 9-character id, in the chunk that finishes', async () => {
    emu.setDialect('gw-chat-mini', 'mistral');
    emu.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] }]);
    const { chunks } = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('read', { model: 'gw-chat-mini', stream: true, tools: TOOLS })));
    const last = chunks.at(-1).choices[0];
    assert.equal(last.finish_reason, 'tool_calls');
    assert.equal(last.delta.tool_calls.length, 1);
    assert.match(last.delta.tool_calls[0].id, /^[A-Za-z0-9]{9}$/);
    assert.deepEqual(last.delta.tool_calls[0].function, { name: 'read_file', arguments: '{"path":"a.ts"}' });
    assert.ok(chunks.at(-1).usage.total_tokens > 0);
  });

  it('keeps the responses events, with its call ids and the last event unterminated', async () => {
    emu.setDialect('gw-code', 'mistral');
    emu.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] }]);
    const tools = [{ type: 'function', name: 'read_file', parameters: TOOLS[0].function.parameters }];
    const res = await post(emu, '/v1/responses', { model: 'gw-code', input: 'read', stream: true, tools });
    const { raw, events } = await readSse(res);
    assert.ok(raw.endsWith('}\n') && !raw.endsWith('\n\n'), 'no blank line after the last event');
    const done = events.find((e) => e.event === 'response.output_item.done' && JSON.parse(e.data).item.type === 'function_call');
    assert.match(JSON.parse(done!.data).item.call_id, /^[A-Za-z0-9]{9}$/);
  });
});

describe('switching dialects', () => {
  it('reset() restores the dialects the emulator started with; the others speak the plain interface', async () => {
    emu.setDialect('gw-chat', 'mistral');
    emu.setDialect('gw-chat-pro', null);
    emu.reset();
    emu.script('demo-key', [
      { reasoning: 'hidden', text: 'plain' },
      { reasoning: 'warm', text: 'deepseek' },
    ]);
    const plain = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('a', { stream: true })));
    assert.ok(plain.raw.endsWith('data: [DONE]\n\n'));
    assert.ok(!plain.raw.includes('reasoning_content') && !plain.raw.includes('"thinking"'), 'the default model streams no reasoning');
    assert.match(plain.chunks[0].id, /^chatcmpl-/);
    const deepseek = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('b', { model: 'gw-chat-pro', stream: true })));
    assert.ok(deepseek.raw.includes('"reasoning_content":"warm"'), 'gw-chat-pro is DeepSeek-style again');
  });

  it('is switched through the control API', async () => {
    const root = emu.baseUrl.replace(/\/v1$/, '');
    const bad = await fetch(`${root}/_emulator/dialect`, { method: 'POST', body: JSON.stringify({ model: 'gw-chat', dialect: 'klingon' }) });
    assert.equal(bad.status, 400);
    const ok = await fetch(`${root}/_emulator/dialect`, { method: 'POST', body: JSON.stringify({ model: 'gw-chat', dialect: 'mistral' }) });
    assert.equal(ok.status, 200);
    const { raw } = await chunksOf(await post(emu, '/v1/chat/completions', chatBody('c', { stream: true })));
    assert.ok(raw.endsWith('data: [DONE]\n'));
  });
});
