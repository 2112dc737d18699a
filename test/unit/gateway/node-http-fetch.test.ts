// The extension's HTTP exchange over node:http/node:https (src/gateway/node/nodeHttpFetch.ts), each promise it makes
// in place of fetch checked against a real local server: what an answer carries, what a request sends, kept-alive
// connections, aborts at every stage, cut and refused connections, redirects, HTTPS. Bodies: node-http-fetch-bodies.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createNodeHttpFetch } from '../../../src/gateway/node';
import { closed, init, quiet, readAll, requestBody, startLocalServer, readThrough, serverAndAdapterPerTest } from '../helpers/localHttpServer';
import { makeSelfSignedCert } from '../helpers/selfSignedCert';

/** A safety net only: a promise that never settles fails its test instead of hanging the run. */
const NO_HANG = { timeout: 20_000 };

const each = serverAndAdapterPerTest();

/** Answers the next request with `body` whole. */
async function answerNext(body: string | Buffer = 'ok', headers: Record<string, string> = {}): Promise<void> {
  const [, res] = await each.server.nextRequest();
  res.writeHead(200, headers).end(body);
}

/** One GET to `path` read whole, while the server answers it with `body`. */
async function getWhole(path: string, body = 'ok'): Promise<string> {
  const [answer] = await Promise.all([each.adapter.fetch(each.server.origin + path, init(new AbortController().signal)), answerNext(body)]);
  return (await readAll(answer)).toString();
}

/** Rejection with exactly this value (the signal's reason, not a wrapper). */
const isReason = (reason: Error) => (error: unknown) => error === reason;

describe('what an answer carries', () => {
  test('status, ok, url, headers read case-insensitively (repeats joined as fetch joins them, missing → null) and the exact bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
    const url = `${each.server.origin}/v1/models?x=1`;
    const answerP = each.adapter.fetch(url, init(new AbortController().signal));
    const [, res] = await each.server.nextRequest();
    res.setHeader('X-RateLimit-Remaining', ['5', '4']);
    res.setHeader('Retry-After', ['1', '2']);
    res.writeHead(201, { 'Content-Type': 'application/octet-stream' }).end(bytes);
    const answer = await answerP;
    assert.equal(answer.status, 201);
    assert.equal(answer.ok, true);
    assert.equal(answer.url, url);
    assert.equal(answer.headers.get('content-TYPE'), 'application/octet-stream');
    assert.equal(answer.headers.get('x-ratelimit-remaining'), '5, 4');
    assert.equal(answer.headers.get('Retry-After'), '1, 2');
    assert.equal(answer.headers.get('x-missing'), null);
    assert.equal(answer.headers.get('constructor'), null);
    assert.deepEqual(await readAll(answer), bytes);
  });

  test('an error status is not ok, and its body is still there', async () => {
    const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
    const [, res] = await each.server.nextRequest();
    res.writeHead(429, { 'Content-Type': 'application/json' }).end('{"error":"slow down"}');
    const answer = await answerP;
    assert.deepEqual([answer.status, answer.ok], [429, false]);
    assert.equal((await readAll(answer)).toString(), '{"error":"slow down"}');
  });
});

describe('what a request sends', () => {
  test('method, headers and a UTF-8 body with its byte length as Content-Length, never chunked', async () => {
    const body = JSON.stringify({ prompt: 'héllo — 世界 🎉'.repeat(1000) });
    const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer k' };
    const answerP = each.adapter.fetch(`${each.server.origin}/v1/responses`, init(new AbortController().signal, { method: 'POST', headers, body }));
    const [req, res] = await each.server.nextRequest();
    const received = await requestBody(req);
    res.end('ok');
    await readAll(await answerP);
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/responses');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.authorization, 'Bearer k');
    assert.equal(req.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(req.headers['transfer-encoding'], undefined);
    assert.deepEqual(received, Buffer.from(body, 'utf8'));
  });

  test('a GET sends no body and no body headers', async () => {
    const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
    const [req, res] = await each.server.nextRequest();
    assert.equal((await requestBody(req)).length, 0);
    res.end();
    await readAll(await answerP);
    assert.equal(req.method, 'GET');
    assert.deepEqual([req.headers['content-length'], req.headers['transfer-encoding']], [undefined, undefined]);
  });
});

describe('kept-alive connections', () => {
  test('two requests in turn share one connection', async () => {
    assert.equal(await getWhole('/a', 'first'), 'first');
    assert.equal(await getWhole('/b', 'second'), 'second');
    assert.equal(each.server.connections.length, 1);
  });

  test('a reader that stops at its last event and cancels before reading the end leaves the connection for the next request', async () => {
    const events = 'data: {"n":1}\n\ndata: [DONE]\n\n';
    const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
    await answerNext(events, { 'Content-Type': 'text/event-stream' });
    const reader = (await answerP).body!.getReader();
    await readThrough(reader, '[DONE]\n\n');
    await reader.cancel();
    assert.equal(await getWhole('/next', 'again'), 'again');
    assert.equal(each.server.connections.length, 1);
  });

  test('cancel mid-body closes the connection, and the next request opens another', async () => {
    const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
    const [, res] = await each.server.nextRequest();
    res.writeHead(200, { 'Content-Length': '1000' }).write('part');
    const reader = (await answerP).body!.getReader();
    assert.equal(Buffer.from((await reader.read()).value!).toString(), 'part');
    const socketClosed = closed(each.server.connections[0]);
    await reader.cancel();
    await socketClosed;
    assert.equal(await getWhole('/next', 'again'), 'again');
    assert.equal(each.server.connections.length, 2);
  });
});

describe('the signal', NO_HANG, () => {
  test('aborted before the headers: the promise rejects with its reason and the server sees the request closed', async () => {
    const controller = new AbortController();
    const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
    const [req] = await each.server.nextRequest();
    const socketClosed = closed(req.socket);
    const reason = new Error('the user stopped');
    controller.abort(reason);
    await assert.rejects(answerP, isReason(reason));
    await socketClosed;
    assert.equal(req.complete, true);
  });

  test('aborted at once, before any connection, or already aborted: rejects with its reason', async () => {
    const controller = new AbortController();
    const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
    const reason = new Error('stopped at once');
    controller.abort(reason);
    await assert.rejects(answerP, isReason(reason));
    await assert.rejects(each.adapter.fetch(each.server.origin, init(controller.signal)), isReason(reason));
  });

  test('aborted mid-body: the pending read rejects with its reason', async () => {
    const controller = new AbortController();
    const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
    const [, res] = await each.server.nextRequest();
    res.writeHead(200).write('first event');
    const reader = (await answerP).body!.getReader();
    await reader.read();
    const pending = reader.read();
    const reason = new Error('stopped mid-body');
    const socketClosed = closed(each.server.connections[0]);
    controller.abort(reason);
    await assert.rejects(pending, isReason(reason));
    await socketClosed;
  });

  test('aborted once the body is whole: the body still reads to its end and the connection serves the next request', async () => {
    const controller = new AbortController();
    const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
    await answerNext('whole');
    const reader = (await answerP).body!.getReader();
    const first = await reader.read();
    controller.abort(new Error('too late'));
    assert.equal(Buffer.from(first.value!).toString(), 'whole');
    assert.deepEqual(await reader.read(), { done: true });
    assert.equal(await getWhole('/next', 'again'), 'again');
    assert.equal(each.server.connections.length, 1);
  });
});

describe('failures', NO_HANG, () => {
  test('a connection cut or closed mid-body, plain or gzip, fails the read', async () => {
    const gzipped = gzipSync('x'.repeat(100_000));
    for (const [encoding, cut] of [
      ['identity', 'reset'],
      ['identity', 'end'],
      ['gzip', 'reset'],
      ['gzip', 'end'],
    ]) {
      const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
      const [req, res] = await each.server.nextRequest();
      res.writeHead(200, { 'Content-Length': '100000', 'Content-Encoding': encoding! }).write(gzipped.subarray(0, 50), () => {
        if (cut === 'reset') req.socket.destroy();
        else req.socket.end();
      });
      const reader = (await answerP).body!.getReader();
      await assert.rejects(async () => {
        for (;;) if ((await reader.read()).done) return;
      }, `${encoding} ${cut}`);
    }
  });

  test('an answer whose body nobody reads, plain or gzip, cut or aborted mid-body: no error is left unhandled', async () => {
    const gzipped = gzipSync('x'.repeat(100_000));
    for (const [encoding, cut] of [
      ['identity', 'server'],
      ['identity', 'signal'],
      ['gzip', 'server'],
      ['gzip', 'signal'],
    ]) {
      const controller = new AbortController();
      const answerP = each.adapter.fetch(each.server.origin, init(controller.signal));
      const [req, res] = await each.server.nextRequest();
      res.writeHead(200, { 'Content-Length': '100000', 'Content-Encoding': encoding! }).write(gzipped.subarray(0, 50));
      await answerP;
      const socketClosed = closed(req.socket);
      if (cut === 'server') req.socket.destroy();
      else controller.abort(new Error('stopped'));
      await socketClosed;
      // The client's side hears the cut within a turn or two; an 'error' nobody listens to would fail the run here.
      await quiet(() => 0);
    }
  });

  test('a server that closes before answering: an Error whose cause has a code (ECONNRESET)', async () => {
    const answerP = each.adapter.fetch(each.server.origin, init(new AbortController().signal));
    const [req] = await each.server.nextRequest();
    req.socket.destroy();
    await assert.rejects(answerP, (error: Error) => error instanceof Error && (error.cause as { code?: string }).code === 'ECONNRESET');
  });

  test('nothing listening: an Error whose cause.code is ECONNREFUSED (the transport releases the reservation on it)', async () => {
    const gone = await startLocalServer();
    const origin = gone.origin;
    await gone.close();
    for (const url of [origin, origin.replace('127.0.0.1', 'localhost')]) {
      await assert.rejects(each.adapter.fetch(url, init(new AbortController().signal)), (error: Error) => {
        return error instanceof Error && (error.cause as { code?: string }).code === 'ECONNREFUSED';
      });
    }
  });
});

test('redirects come back as they are, never followed', NO_HANG, async () => {
  const other = await startLocalServer();
  try {
    for (const status of [301, 302, 307, 308]) {
      const answerP = each.adapter.fetch(`${each.server.origin}/v1/responses`, init(new AbortController().signal, { method: 'POST', body: '{}' }));
      const [, res] = await each.server.nextRequest();
      res.writeHead(status, { Location: `${other.origin}/elsewhere` }).end('moved');
      const answer = await answerP;
      assert.deepEqual([answer.status, answer.ok, answer.headers.get('location')], [status, false, `${other.origin}/elsewhere`]);
      assert.equal((await readAll(answer)).toString(), 'moved');
    }
    assert.equal(await getWhole('/after'), 'ok');
    assert.equal(other.connections.length, 0);
  } finally {
    await other.close();
  }
});

test('HTTPS with a trusted self-signed certificate: a request and a stream share one connection', NO_HANG, async () => {
  const tls = makeSelfSignedCert();
  const secure = await startLocalServer(tls);
  const client = createNodeHttpFetch({ https: { ca: tls.cert } });
  try {
    // Together, so a refused certificate fails the test at once instead of leaving it waiting for the request.
    const [answer] = await Promise.all([
      client.fetch(`${secure.origin}/v1/models`, init(new AbortController().signal)),
      secure.nextRequest().then(([, res]) => res.end('{"data":[]}')),
    ]);
    assert.equal((await readAll(answer)).toString(), '{"data":[]}');
    const streamP = client.fetch(`${secure.origin}/v1/responses`, init(new AbortController().signal, { method: 'POST', body: '{}' }));
    const [, streamRes] = await secure.nextRequest();
    streamRes.writeHead(200, { 'Content-Type': 'text/event-stream' }).write('data: 1\n\n');
    const reader = (await streamP).body!.getReader();
    assert.equal(Buffer.from((await reader.read()).value!).toString(), 'data: 1\n\n');
    streamRes.end('data: 2\n\n');
    assert.equal(Buffer.from((await reader.read()).value!).toString(), 'data: 2\n\n');
    assert.deepEqual(await reader.read(), { done: true });
    assert.equal(secure.connections.length, 1);
    await assert.rejects(each.adapter.fetch(secure.origin, init(new AbortController().signal)), (error: Error) => error.cause !== undefined);
  } finally {
    client.close();
    await secure.close();
  }
});
