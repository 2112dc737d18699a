// An answer the gateway stopped early (length, content filter, anything but a normal stop) gets a note saying so:
// the same reason for @gateway's note and for Edit Selection's warning.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import { incompleteAnswerNote, incompleteReason } from '../../../src/chat/common/finishNote';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, signal } from '../helpers/clients';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

/** The finish reason @gateway sees for a scripted answer, streamed from the emulator. */
async function finishReasonOf(model: string, finishReason?: 'stop' | 'length' | 'content_filter'): Promise<string> {
  emulator.script('demo-key', [{ text: 'Here is how to', finishReason }]);
  const events = await collect(
    new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key')).stream({ model, messages: [{ role: 'user', content: 'hi' }] }, { signal: signal() }),
  );
  const done = events.find((e) => e.type === 'done');
  assert.ok(done?.type === 'done');
  return done.finishReason;
}

describe('incompleteReason', () => {
  for (const model of ['gw-chat', 'gw-code']) {
    test(`${model}: an answer stopped by the content filter says so`, async () => {
      assert.equal(incompleteReason(await finishReasonOf(model, 'content_filter')), "the Gateway's content filter stopped it");
    });

    test(`${model}: an answer cut at the length limit points at gateway.maxTokens`, async () => {
      assert.equal(incompleteReason(await finishReasonOf(model, 'length')), 'it hit the token limit ("gateway.maxTokens")');
    });

    test(`${model}: a complete answer has no reason`, async () => {
      assert.equal(incompleteReason(await finishReasonOf(model)), undefined);
    });
  }

  test('tool calls end the turn, not the answer: complete', () => assert.equal(incompleteReason('tool_calls'), undefined));

  test('any other reason is named', () => {
    assert.equal(incompleteReason('recitation'), 'it stopped early (finish reason "recitation")');
  });

  test('a hostile reason is named without markup, icons or quotes, and bounded', () => {
    assert.equal(incompleteReason('$(alert) [x](command:gateway.setApiKey) `"\n'), 'it stopped early (finish reason "alertxcommandgateway.setApiKey")');
    assert.equal(incompleteReason('x'.repeat(10_000))?.length, 'it stopped early (finish reason "")'.length + 40);
    assert.equal(incompleteReason('***'), 'it stopped early (finish reason "unknown")');
  });
});

describe('incompleteAnswerNote', () => {
  test('the reason, as an italic line after the answer', () => {
    assert.equal(incompleteAnswerNote('length'), '\n\n_The answer is incomplete: it hit the token limit ("gateway.maxTokens")._');
    assert.equal(incompleteAnswerNote('content_filter'), "\n\n_The answer is incomplete: the Gateway's content filter stopped it._");
  });

  test('no note after a complete answer', () => {
    assert.equal(incompleteAnswerNote('stop'), undefined);
    assert.equal(incompleteAnswerNote('tool_calls'), undefined);
  });
});
