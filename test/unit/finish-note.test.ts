// An answer the gateway stopped early (length, content filter, anything but a normal stop) gets a note saying so.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelEndpoints } from '../../src/core/chat/modelEndpoints';
import { incompleteAnswerNote } from '../../src/core/chat/finishNote';
import { startEmulator, type Emulator } from '../emulator/server';
import { collect, makeClient, signal } from './helpers/clients';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

/** The finish reason @gateway sees for a scripted answer, streamed from the emulator. */
async function finishReasonOf(model: string, finishReason?: 'stop' | 'length' | 'content_filter'): Promise<string> {
  emulator.script('demo-key', [{ text: 'Here is how to', finishReason }]);
  const events = await collect(new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key')).stream({ model, messages: [{ role: 'user', content: 'hi' }] }, { signal: signal() }));
  const done = events.find((e) => e.type === 'done');
  assert.ok(done?.type === 'done');
  return done.finishReason;
}

describe('incompleteAnswerNote', () => {
  for (const model of ['gw-chat', 'gw-code']) {
    test(`${model}: an answer stopped by the content filter says so`, async () => {
      const note = incompleteAnswerNote(await finishReasonOf(model, 'content_filter'));
      assert.match(note ?? '', /content filter.*incomplete/);
    });

    test(`${model}: an answer cut at the length limit points at gateway.maxTokens`, async () => {
      assert.match(incompleteAnswerNote(await finishReasonOf(model, 'length')) ?? '', /maximum length \(`gateway\.maxTokens`\)/);
    });

    test(`${model}: a complete answer gets no note`, async () => {
      assert.equal(incompleteAnswerNote(await finishReasonOf(model)), undefined);
    });
  }

  test('tool calls end the turn, not the answer: no note', () => assert.equal(incompleteAnswerNote('tool_calls'), undefined));

  test('any other reason is named and called incomplete', () => {
    assert.equal(incompleteAnswerNote('recitation'), '\n\n_The answer stopped early (finish reason `recitation`), so it may be incomplete._');
  });
});
