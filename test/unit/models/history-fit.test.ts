// Chat requests longer than the model's window lose their oldest turns, with a note: never a 400 for the user.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ContextLengthExceededError, type ChatMessage } from '../../../src/gateway/common';
import { ModelWindows, memoryWindowStore } from '../../../src/models/common/modelWindows';
import { droppedNote, fitMessages, streamFitted } from '../../../src/models/common/historyFit';
import { estimateTokens } from '../../../src/models/common/languageModelMessages';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient } from '../helpers/clients';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0, contextWindows: { 'gw-chat': 8_000 } });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

/** A conversation of `turns` question/answer pairs of about 1,000 tokens each, then a short question. */
function longHistory(turns: number): ChatMessage[] {
  const history: ChatMessage[] = [{ role: 'system', content: 'You are helpful.' }];
  for (let i = 0; i < turns; i++) {
    history.push({ role: 'user', content: `question ${i} ${'q'.repeat(2_000)}` });
    history.push({ role: 'assistant', content: `answer ${i} ${'a'.repeat(2_000)}` });
  }
  history.push({ role: 'user', content: 'and the last question?' });
  return history;
}

async function collect(events: AsyncIterable<{ type: string; text?: string }>): Promise<string> {
  let text = '';
  for await (const event of events) if (event.type === 'text') text += event.text ?? '';
  return text;
}

describe('chat history and the context window', () => {
  test('the gateway answers 400 for the whole history: the check this relies on', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    await assert.rejects(collect(endpoints.stream({ model: 'gw-chat', messages: longHistory(12) }, { signal: new AbortController().signal })), (error) => {
      assert.ok(error instanceof ContextLengthExceededError);
      assert.equal(error.contextWindow, 8_000);
      return true;
    });
  });

  test('an unknown window: the 400 is learned from, the oldest turns dropped with a note, and the answer comes', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    const store = memoryWindowStore();
    const windows = new ModelWindows(
      () => ({}),
      () => emulator.baseUrl,
      store,
    );
    const notes: number[] = [];
    const text = await collect(
      streamFitted(endpoints, { model: 'gw-chat', messages: longHistory(12) }, windows, { signal: new AbortController().signal }, (dropped) =>
        notes.push(dropped),
      ),
    );
    assert.equal(text, 'Echo: and the last question?');
    assert.equal(windows.limitsOf('gw-chat').contextWindow, 8_000);
    assert.equal(notes.length, 1);
    const statuses = emulator.requests.map((r) => r.status);
    assert.deepEqual(statuses, [400, 200]);
    const sent = (emulator.requests[1].body as { messages: ChatMessage[] }).messages;
    assert.equal(sent[0].role, 'system');
    assert.equal(sent.at(-1)!.content, 'and the last question?');
    assert.equal(sent[1].role, 'user', 'whole turns dropped: the first kept message is a question');
  });

  test('a known window: no 400 at all', async () => {
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    const windows = new ModelWindows(
      () => ({ 'gw-chat': { contextWindow: 8_000, maxOutputTokens: 1_000 } }),
      () => emulator.baseUrl,
    );
    const notes: number[] = [];
    await collect(
      streamFitted(endpoints, { model: 'gw-chat', messages: longHistory(12) }, windows, { signal: new AbortController().signal }, (dropped) =>
        notes.push(dropped),
      ),
    );
    assert.deepEqual(
      emulator.requests.map((r) => r.status),
      [200],
    );
    assert.ok(notes[0] > 0);
    assert.match(droppedNote(notes[0]), /earlier messages of this conversation left out to fit the model's context window/);
  });

  test('tool calls keep their results: a dropped turn goes whole', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'x'.repeat(4_000) },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'y'.repeat(4_000) },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'next' },
    ];
    const fitted = fitMessages(messages, 100);
    assert.deepEqual(fitted.messages, [{ role: 'user', content: 'next' }]);
    assert.equal(fitted.dropped, 4);
    assert.ok(estimateTokens(fitted.messages) <= 100);
    assert.equal(fitMessages(messages, 10_000).dropped, 0);
  });
});
