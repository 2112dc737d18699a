// The gateway emulator's scripted turns: order and filters, delta sizes and pacing, long streams, clients that leave.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { chatBody, json, post, readUntil } from '../../emulator/test-helpers';
import { VirtualClock } from '../helpers/clock';
import { contentDeltas, responseEvents } from '../helpers/emulator';

/** The emulator's time: its delays pass as soon as they are asked for, and are recorded. */
const time = new VirtualClock();
let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0, clock: time });
});
after(() => emu.close());
beforeEach(() => emu.reset());

void describe('scripted turns', () => {
  void it('consumes turns in order, per key, honouring model and endpoint filters', async () => {
    emu.script('demo-key', [
      { text: 'for responses', endpoint: 'responses' },
      { text: 'for pro', model: 'gw-chat-pro' },
      { text: 'first' },
      { text: 'second' },
    ]);
    const text = async (model: string): Promise<string> =>
      (await json(await post(emu, '/v1/chat/completions', { ...chatBody('x'), model }))).choices[0].message.content;
    assert.equal(await text('gw-chat'), 'first');
    assert.equal(await text('gw-chat-pro'), 'for pro');
    assert.equal(await text('gw-chat'), 'second');
    assert.equal(await text('gw-chat'), 'Echo: x');
    const r = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' }));
    assert.equal(r.output[0].content[0].text, 'for responses');
    emu.script('small-key', [{ text: 'small only' }]);
    assert.equal(await text('gw-chat'), 'Echo: x', 'another key’s script is not consumed');
    const small = await json(await post(emu, '/v1/chat/completions', { ...chatBody('x'), model: 'gw-chat-mini' }, { key: 'small-key' }));
    assert.equal(small.choices[0].message.content, 'small only');
  });

  void it('repeats text and cuts deltas to chunkChars', async () => {
    emu.script('demo-key', [{ text: 'abcdefg', repeat: 3, chunkChars: 5 }]);
    const deltas = contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    assert.deepEqual(deltas, ['abcde', 'fgabc', 'defga', 'bcdef', 'g']);
  });

  void it('waits delayMs between deltas', async () => {
    emu.script('demo-key', [{ text: 'aaaaa', chunkChars: 1, delayMs: 30 }]);
    const t0 = time.now();
    const waits = time.sleeps.length;
    const deltas = contentDeltas(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true })).text());
    assert.equal(deltas.length, 5);
    assert.ok(time.sleeps.slice(waits).filter((ms) => ms === 30).length >= 4, `waits ${time.sleeps.slice(waits).join(', ')}`);
    assert.ok(time.now() - t0 >= 120, `took ${time.now() - t0} ms`);
  });

  void it('streams 20000 deltas without pausing on both endpoints', async () => {
    emu.script('demo-key', [
      { text: 'abc', repeat: 20000, chunkChars: 3 },
      { text: 'abc', repeat: 20000, chunkChars: 3 },
    ]);
    const waits = time.sleeps.length;
    const chat = contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text());
    const resp = await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', stream: true })).text();
    assert.equal(chat.length, 20000);
    assert.equal(contentDeltas(resp).length, 20000);
    responseEvents(resp);
    // No wait between deltas (how fast the emulator streams is measured in npm run bench, not here).
    assert.deepEqual(time.sleeps.slice(waits), []);
  });

  void it('stops writing when the client goes away mid-stream and keeps serving', async () => {
    const slowTime = new VirtualClock({ manual: true }); // a delta each time the test moves the emulator's time on
    const slow = await startEmulator({ tokenDelayMs: 20, clock: slowTime });
    try {
      const abort = new AbortController();
      const res = await post(slow, '/v1/chat/completions', chatBody('a b c d e f g h i j k l m n o p', { stream: true }), { signal: abort.signal });
      const got = await readUntil(res, (t) => contentDeltas(t).length >= 2 || (slowTime.advance(20), false), abort);
      assert.ok(!got.includes('[DONE]'));
      const next = await json(await post(slow, '/v1/chat/completions', chatBody('after')));
      assert.equal(next.choices[0].message.content, 'Echo: after');
    } finally {
      await slow.close();
    }
  });
});
