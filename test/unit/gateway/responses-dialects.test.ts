// What responses streams really carry, decoded under every chunking of helpers/decodeBytes: several output items (an
// encrypted reasoning item, then the message), several content parts, reasoning summaries, text only in the finished
// item or only in response.completed (servers that fake streaming), and items the client never asked for, as notes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { responsesSse, underEveryChunking, type Decoded } from '../helpers/decodeBytes';

const check = (events: { type: string }[], expected: (decoded: Decoded, chunking: string) => void) =>
  underEveryChunking('responses', responsesSse(events), expected);

let sequence = 0;
/** One event with its sequence number, as the interface numbers them. */
const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, sequence_number: sequence++, ...fields });
const created = () => event('response.created', { response: { id: 'resp_d1', object: 'response', model: 'gpt-5-mini', status: 'in_progress', output: [] } });
const completed = (output: unknown[] = [], usage: Record<string, unknown> = { input_tokens: 20, output_tokens: 8, total_tokens: 28 }) =>
  event('response.completed', { response: { id: 'resp_d1', object: 'response', model: 'gpt-5-mini', status: 'completed', output, usage } });
const message = (id: string, texts: string[]) => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: texts.map((text) => ({ type: 'output_text', text, annotations: [], logprobs: [] })),
});
const encryptedReasoning = { id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAAAABpZ…', summary: [] };

describe('item ids that change between events', () => {
  // A proxy (GitHub Copilot's) names every event's item anew, and OpenRouter gives the finished output new ids: the
  // output index says it is one item, so its streamed reasoning and text are not shown a second time.
  test('a reasoning item and a message whose ids rotate: each shown once', async () => {
    const reasoning = { id: 'rs_final', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Count the r.' }] };
    const msg = message('msg_final', ['Three.']);
    const events = [
      created(),
      event('response.output_item.added', { output_index: 0, item: { id: 'rs_a', type: 'reasoning', summary: [] } }),
      event('response.reasoning_summary_text.delta', { item_id: 'rs_b', output_index: 0, summary_index: 0, delta: 'Count ' }),
      event('response.reasoning_summary_text.delta', { item_id: 'rs_c', output_index: 0, summary_index: 0, delta: 'the r.' }),
      event('response.output_item.done', { output_index: 0, item: { ...reasoning, id: 'rs_d' } }),
      event('response.output_text.delta', { item_id: 'msg_a', output_index: 1, content_index: 0, delta: 'Three.' }),
      event('response.output_item.done', { output_index: 1, item: { ...msg, id: 'msg_b' } }),
      completed([reasoning, msg]),
    ];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Count the r.', chunking);
      assert.equal(decoded.text, 'Three.', chunking);
    });
  });
});

describe('several output items and parts', () => {
  test('an encrypted reasoning item, then a message of two content parts: the text once, no reasoning shown', async () => {
    const msg = message('msg_1', ['Hello ', 'world.']);
    const events = [
      created(),
      event('response.output_item.added', { output_index: 0, item: { ...encryptedReasoning, encrypted_content: null } }),
      event('response.output_item.done', { output_index: 0, item: encryptedReasoning }),
      event('response.output_item.added', { output_index: 1, item: { ...msg, status: 'in_progress', content: [] } }),
      event('response.content_part.added', { item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '' } }),
      event('response.output_text.delta', { item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hello ', logprobs: [], obfuscation: 'x1' }),
      event('response.output_text.done', { item_id: 'msg_1', output_index: 1, content_index: 0, text: 'Hello ' }),
      event('response.content_part.added', { item_id: 'msg_1', output_index: 1, content_index: 1, part: { type: 'output_text', text: '' } }),
      event('response.output_text.delta', { item_id: 'msg_1', output_index: 1, content_index: 1, delta: 'world.', logprobs: [] }),
      event('response.output_item.done', { output_index: 1, item: msg }),
      completed([encryptedReasoning, msg], { input_tokens: 20, output_tokens: 8, total_tokens: 28, output_tokens_details: { reasoning_tokens: 6 } }),
    ];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.text, 'Hello world.', chunking);
      assert.equal(decoded.reasoning, '', chunking);
      assert.deepEqual(decoded.usage, { inputTokens: 20, outputTokens: 8, reasoningTokens: 6, totalTokens: 28 }, chunking);
      assert.equal(decoded.finishReason, 'stop', chunking);
    });
  });

  test('reasoning summaries streamed in two parts are two paragraphs; a refusal is the answer', async () => {
    const summary = [
      { type: 'summary_text', text: 'First I look.' },
      { type: 'summary_text', text: 'Then I answer.' },
    ];
    const events = [
      created(),
      event('response.reasoning_summary_part.added', { item_id: 'rs_2', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }),
      event('response.reasoning_summary_text.delta', { item_id: 'rs_2', output_index: 0, summary_index: 0, delta: 'First I look.' }),
      event('response.reasoning_summary_part.added', { item_id: 'rs_2', output_index: 0, summary_index: 1, part: { type: 'summary_text', text: '' } }),
      event('response.reasoning_summary_text.delta', { item_id: 'rs_2', output_index: 0, summary_index: 1, delta: 'Then I answer.' }),
      event('response.output_item.done', { output_index: 0, item: { id: 'rs_2', type: 'reasoning', summary } }),
      event('response.refusal.delta', { item_id: 'msg_2', output_index: 1, content_index: 0, delta: 'I can’t help with that.' }),
      event('response.output_item.done', {
        output_index: 1,
        item: { id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'I can’t help with that.' }] },
      }),
      completed(),
    ];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'First I look.\n\nThen I answer.', chunking);
      assert.equal(decoded.text, 'I can’t help with that.', chunking);
    });
  });

  test('text and reasoning only in the finished items (no deltas): taken from them', async () => {
    const reasoning = { id: 'rs_3', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Raw thoughts.' }] };
    const msg = message('msg_3', ['Only ', 'at the end.']);
    const events = [
      created(),
      event('response.output_item.done', { output_index: 0, item: reasoning }),
      event('response.output_item.done', { output_index: 1, item: msg }),
      completed([reasoning, msg]),
    ];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.reasoning, 'Raw thoughts.', chunking);
      assert.equal(decoded.text, 'Only at the end.', chunking);
    });
  });

  test('a server that fakes streaming (response.completed alone): the text and the function call from its output', async () => {
    const call = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_9', name: 'read_file', arguments: '{"path":"a.ts"}' };
    await check([created(), completed([message('msg_4', ['Reading it.']), call])], (decoded, chunking) => {
      assert.equal(decoded.text, 'Reading it.', chunking);
      assert.deepEqual(decoded.toolCalls, [{ callId: 'call_9', name: 'read_file', arguments: '{"path":"a.ts"}' }], chunking);
      assert.equal(decoded.finishReason, 'tool_calls', chunking);
    });
  });

  test('deltas without an item id are never repeated from the finished item', async () => {
    const msg = message('msg_5', ['Once.']);
    const events = [
      created(),
      event('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Once.' }),
      event('response.output_item.done', { output_index: 0, item: msg }),
      completed([msg]),
    ];
    await check(events, (decoded, chunking) => assert.equal(decoded.text, 'Once.', chunking));
  });
});

describe('items the client never asked for', () => {
  test('hosted and custom tool calls are notes, once each, and never stop the answer', async () => {
    const search = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather paris' } };
    const code = { id: 'ci_1', type: 'code_interpreter_call', status: 'completed', code: 'print(1)', container_id: 'cntr_1', outputs: null };
    const custom = { id: 'ctc_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_c', name: 'apply_patch', input: '*** Begin Patch' };
    const msg = message('msg_6', ['It is sunny.']);
    const events = [
      created(),
      event('response.output_item.added', { output_index: 0, item: { ...search, status: 'in_progress' } }),
      event('response.web_search_call.in_progress', { output_index: 0, item_id: 'ws_1' }),
      event('response.web_search_call.completed', { output_index: 0, item_id: 'ws_1' }),
      event('response.output_item.done', { output_index: 0, item: search }),
      event('response.code_interpreter_call_code.delta', { output_index: 1, item_id: 'ci_1', delta: 'print(1)' }),
      event('response.output_item.done', { output_index: 1, item: code }),
      event('response.custom_tool_call_input.delta', { output_index: 2, item_id: 'ctc_1', delta: '*** Begin Patch' }),
      event('response.output_item.done', { output_index: 2, item: custom }),
      event('response.output_text.delta', { item_id: 'msg_6', output_index: 3, content_index: 0, delta: 'It is sunny.' }),
      event('response.output_item.done', { output_index: 3, item: msg }),
      completed([search, code, custom, msg, { id: 'mcp_1', type: 'mcp_list_tools', server_label: 'x', tools: [] }]),
    ];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.text, 'It is sunny.', chunking);
      assert.deepEqual(decoded.toolCalls, [], chunking);
      assert.deepEqual(decoded.notes, ['web_search_call', 'code_interpreter_call', 'custom_tool_call', 'mcp_list_tools'], chunking);
      const texts = decoded.events.flatMap((e) => (e.type === 'note' ? [e.text] : []));
      assert.match(texts[2], /`custom_tool_call` \(`apply_patch`\)/, chunking);
      assert.equal(decoded.finishReason, 'stop', chunking);
    });
  });

  test('a flood of them is bounded: twenty notes, then one that says there were more', async () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ id: `ws_${i}`, type: 'web_search_call', status: 'completed' }));
    const events = [created(), ...items.map((item, i) => event('response.output_item.done', { output_index: i, item })), completed(items)];
    await check(events, (decoded, chunking) => {
      assert.equal(decoded.notes.length, 21, chunking);
      const last = decoded.events.filter((e) => e.type === 'note').at(-1);
      assert.match(last?.type === 'note' ? last.text : '', /more outputs/, chunking);
    });
  });
});

describe('what a stream may carry besides events', () => {
  test('an empty keep-alive event and an unknown event type are ignored', async () => {
    const bytes =
      responsesSse([created(), event('response.output_text.delta', { item_id: 'msg_7', output_index: 0, content_index: 0, delta: 'Still ' })]) +
      'data:\n\n' +
      responsesSse([
        event('response.brand_new.thing', { whatever: [1] }),
        event('response.output_text.delta', { item_id: 'msg_7', output_index: 0, content_index: 0, delta: 'here.' }),
        completed(),
      ]);
    await underEveryChunking('responses', bytes, (decoded, chunking) => assert.equal(decoded.text, 'Still here.', chunking));
  });
});
