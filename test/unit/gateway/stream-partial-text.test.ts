// The answer text the stream reader keeps for errors and the answer-size ceiling is kept in
// batches rather than one growing string: it must still be exactly the text, in order, at any point.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChatStreamDecoder } from '../../../src/gateway/common/chatStreamDecoder';
import { GatewayError } from '../../../src/gateway/common/errors';
import { ResponsesStreamDecoder } from '../../../src/gateway/common/responsesStreamDecoder';
import { readSse, type StreamDecoder } from '../../../src/gateway/common/sseReader';
import { TextSoFar } from '../../../src/gateway/common/textSoFar';
import { startEmulator, type Emulator } from '../../emulator/server';
import { prng } from '../helpers/prng';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());

describe('the answer text so far', () => {
  test('is the appended texts in order and their length, read at any point across many batches', () => {
    const random = prng(42);
    const text = new TextSoFar();
    let expected = '';
    for (let i = 0; i < 2000; i++) {
      const delta = `${i}${'éx'.repeat(Math.floor(random() * 3))} `;
      text.append(delta);
      expected += delta;
      assert.equal(text.length, expected.length);
      if (random() < 0.01) assert.equal(text.toString(), expected, `after ${i + 1} texts`);
    }
    assert.equal(text.toString(), expected);
    assert.equal(text.toString(), expected, 'read twice');
  });

  // Without a key to look for (no redactor, so no guard keeping its own), the error's partial text is the reader's.
  for (const endpoint of ['chat', 'responses'] as const) {
    test(`${endpoint}: a stream failing after a thousand deltas carries all of their text in its error`, async () => {
      emulator.script('demo-key', [{ text: 'tok ', repeat: 1500, chunkChars: 4 }]);
      emulator.fault('demo-key', { kind: 'stream-error', afterDeltas: 1000 });
      const context = { siteUrl: emulator.baseUrl, redact: [] };
      const decoder: StreamDecoder = endpoint === 'chat' ? new ChatStreamDecoder(context) : new ResponsesStreamDecoder(context);
      const path = endpoint === 'chat' ? '/chat/completions' : '/responses';
      const body =
        endpoint === 'chat' ? { model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }], stream: true } : { model: 'gw-code', input: 'hi', stream: true };
      const response = await fetch(`${emulator.baseUrl}${path}`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      let shown = '';
      let error: unknown;
      try {
        const events = readSse(async () => ({
          body: response.body!,
          decoder,
          onActivity: () => undefined,
          mapReadError: (e) => (e instanceof Error ? e : new Error(String(e))),
          onClose: () => undefined,
        }));
        for await (const event of events) if (event.type === 'text') shown += event.text;
      } catch (caught) {
        error = caught;
      }
      assert.ok(error instanceof GatewayError, String(error));
      assert.equal(shown, 'tok '.repeat(1000));
      assert.equal(error.partialText, shown);
    });
  }
});
