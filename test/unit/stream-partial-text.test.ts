// The answer text a stream's decoder keeps for errors and the answer-size ceiling is kept in
// batches rather than one growing string: it must still be exactly the text, in order, at any point.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChatStreamDecoder } from '../../src/core/api/chatStreamDecoder';
import { ResponsesStreamDecoder } from '../../src/core/api/responsesStreamDecoder';
import { TextSoFar } from '../../src/core/api/textSoFar';
import type { StreamEvent } from '../../src/core/api/types';
import { prng } from './helpers/prng';

const context = { siteUrl: 'https://gateway.example', redact: [] };

describe('the answer text so far', () => {
  test('is the deltas in order and their length, read at any point across many batches', () => {
    const random = prng(42);
    const text = new TextSoFar();
    let expected = '';
    for (let i = 0; i < 2000; i++) {
      const delta = `${i}${'éx'.repeat(Math.floor(random() * 3))} `;
      text.append(delta);
      expected += delta;
      assert.equal(text.length, expected.length);
      if (random() < 0.01) assert.equal(text.toString(), expected, `after ${i + 1} deltas`);
    }
    assert.equal(text.toString(), expected);
    assert.equal(text.toString(), expected, 'read twice');
  });

  test('a responses stream failing after many deltas carries all of their text', () => {
    const decoder = new ResponsesStreamDecoder(context);
    const out: StreamEvent[] = [];
    let expected = '';
    for (let i = 0; i < 1000; i++) {
      const delta = `w${i} `;
      expected += delta;
      decoder.decode({ event: undefined, id: undefined, data: JSON.stringify({ type: 'response.output_text.delta', delta }) }, out);
    }
    assert.equal(decoder.partialLength, expected.length);
    const failed = { type: 'response.failed', response: { error: { code: 'server_error', message: 'broke' } } };
    assert.throws(
      () => decoder.decode({ event: undefined, id: undefined, data: JSON.stringify(failed) }, out),
      (error: Error & { partialText?: string }) => error.partialText === expected,
    );
  });

  test('a chat stream keeps all of its text too', () => {
    const decoder = new ChatStreamDecoder(context);
    const out: StreamEvent[] = [];
    let expected = '';
    for (let i = 0; i < 1000; i++) {
      const content = `c${i} `;
      expected += content;
      decoder.decode({ event: undefined, id: undefined, data: JSON.stringify({ id: 'c1', choices: [{ delta: { content } }] }) }, out);
    }
    assert.equal(decoder.partialLength, expected.length);
    assert.equal(decoder.partialText, expected);
  });
});
