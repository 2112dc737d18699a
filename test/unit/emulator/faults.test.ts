// The gateway emulator's injected faults: error statuses, and streams that are cut, malformed, stalled or end in an error.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { call, chatBody, eventLoopTurns, json, parseSse, post } from '../../emulator/test-helpers';
import { contentDeltas, expectError, readAll, responseEvents } from '../helpers/emulator';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

void describe('faults', () => {
  void it('500 (times 2) then success; the scripted turn waits for the request that succeeds', async () => {
    emu.script('demo-key', [{ text: 'survivor' }]);
    emu.fault('demo-key', { kind: '500', times: 2 });
    for (let i = 0; i < 2; i++) await expectError(await post(emu, '/v1/chat/completions', chatBody('x')), 500, 'server_error', 'internal_error', null);
    assert.equal((await json(await post(emu, '/v1/chat/completions', chatBody('x')))).choices[0].message.content, 'survivor');
    assert.deepEqual(
      emu.requests.map((r) => [r.status, r.fault]),
      [
        [500, '500'],
        [500, '500'],
        [200, undefined],
      ],
    );
  });

  void it('503 with Retry-After, 429 fault, and the per-request header leaving the queue alone', async () => {
    emu.fault('demo-key', { kind: '503', retryAfter: 7 });
    const r503 = await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' });
    assert.equal(r503.headers.get('retry-after'), '7');
    await expectError(r503, 503, 'service_unavailable', 'upstream_overloaded', null);
    emu.fault('demo-key', { kind: '429', retryAfter: 2 });
    const r429 = await post(emu, '/v1/chat/completions', chatBody('x'));
    assert.equal(r429.headers.get('retry-after'), '2');
    await expectError(r429, 429, 'rate_limit_error', 'rate_limit_exceeded', null);
    emu.fault('demo-key', { kind: '500' });
    await expectError(
      await post(emu, '/v1/chat/completions', chatBody('x'), { headers: { 'x-emulator-fault': '503' } }),
      503,
      'service_unavailable',
      'upstream_overloaded',
      null,
    );
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 500, 'the queued fault is still there');
  });

  void it('endpoint-specific faults wait for their endpoint; models only takes faults meant for it', async () => {
    emu.fault('demo-key', { kind: '500', endpoint: 'responses' });
    emu.fault('demo-key', { kind: '503', endpoint: 'models' });
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 200);
    assert.equal((await call(emu, 'GET', '/v1/models')).status, 503);
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' })).status, 500);
  });

  void it('cut: a stream stops after afterDeltas deltas without a terminal event; the turn is served again', async () => {
    emu.script('demo-key', [{ text: 'one two three four five six', chunkChars: 4 }]);
    emu.fault('demo-key', { kind: 'cut', afterDeltas: 2 });
    const cut = await readAll(await post(emu, '/v1/chat/completions', chatBody('x', { stream: true })));
    assert.equal(cut.failed, true);
    assert.deepEqual(contentDeltas(cut.text), ['one ', 'two ']);
    assert.ok(!cut.text.includes('[DONE]') && !cut.text.includes('finish_reason":"stop'));
    assert.equal(
      contentDeltas(await (await post(emu, '/v1/chat/completions', chatBody('x', { stream: true }))).text()).join(''),
      'one two three four five six',
    );
    emu.fault('demo-key', { kind: 'cut' });
    const resp = await readAll(await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d e f', stream: true }));
    assert.equal(resp.failed, true);
    assert.equal(contentDeltas(resp.text).length, 3);
    assert.ok(!resp.text.includes('response.completed'));
  });

  void it('cut on a non-stream request destroys the socket before any answer', async () => {
    emu.fault('demo-key', { kind: 'cut' });
    await assert.rejects(post(emu, '/v1/chat/completions', chatBody('x')));
    assert.equal(emu.requests.at(-1)!.status, 0);
    assert.equal(emu.requests.at(-1)!.fault, 'cut');
  });

  void it('malformed: one data line that is not JSON, then the stream goes on to its end', async () => {
    emu.fault('demo-key', { kind: 'malformed', afterDeltas: 1 });
    const raw = await (await post(emu, '/v1/chat/completions', chatBody('a b c d', { stream: true }))).text();
    const bad = parseSse(raw).events.filter(
      (e) =>
        e.data !== '[DONE]' &&
        (() => {
          try {
            JSON.parse(e.data);
            return false;
          } catch {
            return true;
          }
        })(),
    );
    assert.equal(bad.length, 1);
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    assert.equal(contentDeltas(raw).join(''), 'Echo: a b c d');
    emu.fault('demo-key', { kind: 'malformed' });
    const rraw = await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d', stream: true })).text();
    assert.ok(rraw.includes('event: response.completed'));
    assert.equal(
      parseSse(rraw).events.filter((e) => {
        try {
          JSON.parse(e.data);
          return false;
        } catch {
          return true;
        }
      }).length,
      1,
    );
  });

  void it('stall: sends deltas then nothing, keeping the connection open until the client leaves', async () => {
    emu.fault('demo-key', { kind: 'stall', afterDeltas: 2 });
    const abort = new AbortController();
    const res = await post(emu, '/v1/chat/completions', chatBody('a b c d e f', { stream: true }), { signal: abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (contentDeltas(text).length < 2) text += decoder.decode((await reader.read()).value);
    // Nothing delays the emulator's deltas: more data would arrive within a few rounds of the event loop.
    const more = await Promise.race([reader.read().then(() => 'data'), eventLoopTurns(50).then(() => 'silence')]);
    assert.equal(more, 'silence');
    abort.abort();
    await reader.cancel().catch(() => undefined);
    assert.equal(contentDeltas(text).length, 2);
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'))).status, 200);
  });

  void it('stream-error: chat sends an error data line and ends without [DONE]', async () => {
    emu.fault('demo-key', { kind: 'stream-error', afterDeltas: 1 });
    const raw = await (await post(emu, '/v1/chat/completions', chatBody('a b c', { stream: true }))).text();
    const last = parseSse(raw).events.at(-1)!;
    assert.deepEqual(JSON.parse(last.data), {
      error: { type: 'server_error', code: 'internal_error', message: JSON.parse(last.data).error.message, param: null },
    });
    assert.ok(!raw.includes('[DONE]'));
  });

  void it('stream-error: responses sends an error event with a nested error, then response.failed', async () => {
    emu.fault('demo-key', { kind: 'stream-error', afterDeltas: 2 });
    const events = responseEvents(await (await post(emu, '/v1/responses', { model: 'gw-code', input: 'a b c d', stream: true })).text());
    const [err, failed] = events.slice(-2);
    assert.equal(err.type, 'error');
    assert.equal(err.error.type, 'server_error');
    assert.equal(err.error.code, 'internal_error');
    assert.equal(err.error.param, null);
    assert.equal(failed.type, 'response.failed');
    assert.equal(failed.response.status, 'failed');
    assert.deepEqual(failed.response.error, { code: 'internal_error', message: err.error.message });
    assert.equal(events.filter((e) => e.type === 'response.output_text.delta').length, 2);
  });
});
