// The node HTTP adapter's bodies (src/gateway/node/nodeHttpFetch.ts) against a real local server: compressed bodies
// decoded as fetch decodes them, corrupt ones failing rather than hanging, a compression bomb stopped by the client's
// ceiling with memory bounded, a fast server's body held back by a slow reader, a silent body waiting for the signal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { ResponseTooLargeError } from '../../../src/gateway/common';
import { readBoundedText } from '../../../src/gateway/common/bodyLimits';
import { closed, init, quiet, readAll, readThrough, serverAndAdapterPerTest } from '../helpers/localHttpServer';

const MB = 1024 * 1024;
/** A safety net only: a body that hangs fails its test instead of the whole run. */
const NO_HANG = { timeout: 20_000 };

const each = serverAndAdapterPerTest();

/** Sends one GET and answers it with `body` whole under `headers`; resolves with the answer. */
async function fetchAnswered(body: Buffer, headers: Record<string, string>) {
  const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
  const [, res] = await each.server.nextRequest();
  res.writeHead(200, { 'Content-Length': String(body.length), ...headers }).end(body);
  return answerP;
}

/** `megabytes` MB of zeros as that many gzip members of 1 MB each (a gzip body may hold several): ~1 KB a MB. */
function gzipBomb(megabytes: number): Buffer {
  const member = gzipSync(Buffer.alloc(MB));
  return Buffer.concat(Array.from({ length: megabytes }, () => member));
}

const text = Buffer.from(Array.from({ length: 5000 }, (_, i) => `data: {"delta":"token ${i} — ü€😀"}\n\n`).join(''));

test('gzip, x-gzip, deflate and br bodies come back decoded, byte for byte', async () => {
  const encoded = {
    gzip: gzipSync(text),
    'x-gzip': gzipSync(text),
    deflate: deflateSync(text),
    br: brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  };
  for (const [encoding, body] of Object.entries(encoded)) {
    const answer = await fetchAnswered(body, { 'Content-Encoding': encoding });
    assert.deepEqual(await readAll(answer), text, encoding);
  }
  assert.equal(each.server.connections.length, 1);
});

test('a corrupt or truncated compressed body fails the read instead of hanging', NO_HANG, async () => {
  const whole = gzipSync(text);
  const corrupt = Buffer.concat([whole.subarray(0, 10), Buffer.alloc(5000, 0x5a)]);
  for (const body of [corrupt, whole.subarray(0, whole.length >> 1)]) {
    await assert.rejects(readAll(await fetchAnswered(body, { 'Content-Encoding': 'gzip' })));
  }
});

test('cancel after the last event of a compressed body drains its rest undecoded: the connection is kept', NO_HANG, async () => {
  // The events, then 100 MB of zeros (~100 KB), then a gzip member that is corrupt: decoding the rest would reach it
  // and fail, closing the connection; the rest drained as it came keeps the connection for the next request.
  const events = 'data: {"n":1}\n\ndata: [DONE]\n\n';
  const corruptMember = Buffer.concat([gzipSync('x').subarray(0, 10), Buffer.alloc(4096, 0x5a)]);
  const body = Buffer.concat([gzipSync(events), gzipBomb(100), corruptMember]);
  const reader = (await fetchAnswered(body, { 'Content-Encoding': 'gzip' })).body!.getReader();
  await readThrough(reader, '[DONE]\n\n');
  await reader.cancel();
  const next = await fetchAnswered(Buffer.from('again'), {});
  assert.deepEqual(await readAll(next), Buffer.from('again'));
  assert.equal(each.server.connections.length, 1);
});

test('a gzip bomb (1 GB of zeros in 1 MB) read through the client ceiling stops at it, memory bounded', NO_HANG, async () => {
  const bomb = gzipBomb(1024);
  const rssBefore = process.memoryUsage().rss;
  const answer = await fetchAnswered(bomb, { 'Content-Encoding': 'gzip' });
  const socketClosed = closed(each.server.connections[0]);
  const reading = readBoundedText(
    answer.body,
    MB,
    'answer',
    () => undefined,
    (error) => error as Error,
  );
  await assert.rejects(reading, ResponseTooLargeError);
  await socketClosed;
  const grown = process.memoryUsage().rss - rssBefore;
  assert.ok(grown < 128 * MB, `rss grew ${Math.round(grown / MB)} MB`);
});

test('a compressed body aborted mid-way: the pending read rejects with the signal reason', NO_HANG, async () => {
  const controller = new AbortController();
  const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
  const [, res] = await each.server.nextRequest();
  const whole = gzipSync(text);
  res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': String(whole.length) }).write(whole.subarray(0, whole.length >> 1));
  const reader = (await answerP).body!.getReader();
  assert.equal((await reader.read()).done, false);
  const pending = reader.read();
  const reason = new Error('stopped');
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
});

test('a 200 MB body from a fast server is held back while the reader reads slowly, then cancelled', NO_HANG, async () => {
  const size = 200 * MB;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
  const [, res] = await each.server.nextRequest();
  res.on('error', () => undefined);
  res.writeHead(200, { 'Content-Length': String(size) });
  // The server itself keeps to the socket's pace: what piles up is what the client takes in.
  const pump = () => {
    while (written < size && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
  const rssBefore = process.memoryUsage().rss;
  const reader = (await answerP).body!.getReader();
  let read = 0;
  for (let i = 0; i < 4; i++) {
    await quiet(() => written);
    const next = await reader.read();
    read += next.value?.byteLength ?? 0;
  }
  await quiet(() => written);
  const grown = process.memoryUsage().rss - rssBefore;
  assert.ok(written - read < 32 * MB, `the server got ${Math.round(written / MB)} MB out while the reader took ${Math.round(read / MB)} MB`);
  assert.ok(grown < 64 * MB, `rss grew ${Math.round(grown / MB)} MB`);
  const socketClosed = closed(each.server.connections[0]);
  await reader.cancel();
  await socketClosed;
});

test('headers and then nothing: the answer comes, and a read waits until the signal aborts it', NO_HANG, async () => {
  const controller = new AbortController();
  const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
  const [, res] = await each.server.nextRequest();
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.flushHeaders();
  const answer = await answerP;
  assert.equal(answer.status, 200);
  let settled = false;
  const pending = answer.body!.getReader().read();
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  await quiet(() => 0);
  assert.equal(settled, false);
  const reason = new Error('the user stopped');
  const socketClosed = closed(each.server.connections[0]);
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
  await socketClosed;
});
