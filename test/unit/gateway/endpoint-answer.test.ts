// A base URL that reaches a web site instead of the API (typically without /v1) is told apart from a broken answer.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { EndpointError } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { collect, makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

/** Answers every request 200 with the body and Content-Type set by the test (none when undefined). */
let server: Server;
let baseUrl: string;
let answer: { contentType: string | undefined; body: string };
let hits = 0;
before(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => {
      if (answer.contentType !== undefined) res.setHeader('content-type', answer.contentType);
      res.writeHead(200);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits = 0;
});

const modelList = JSON.stringify({ object: 'list', data: [{ id: 'gw-chat', object: 'model', owned_by: 'gateway' }] });
const webPage = '<!doctype html><html><body>Gateway — sign in</body></html>';
const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('a 2xx that is not the API', () => {
  for (const contentType of ['text/html; charset=utf-8', 'text/plain']) {
    test(`${contentType}: EndpointError pointing at gateway.baseUrl and /v1, not retried`, async () => {
      answer = { contentType, body: webPage };
      const clock = new VirtualClock();
      const limits = new LimitTracker(clock);
      const error = await makeClient(baseUrl, 'demo-key', { clock, limits })
        .listModels({ signal: signal() })
        .catch((e: unknown) => e);
      assert.ok(error instanceof EndpointError, String(error));
      assert.match(error.message, /"gateway\.baseUrl".*\/v1/);
      assert.match(error.message, new RegExp(contentType.split(';')[0]));
      assert.equal(hits, 1);
      assert.deepEqual(clock.sleeps, []);
      // A web page says nothing about the account's balance.
      assert.equal(limits.snapshot().balance, 'unknown');
    });
  }

  test('a chat answer and a stream get the same error', async () => {
    answer = { contentType: 'text/html', body: webPage };
    const client = makeClient(baseUrl, 'demo-key');
    await assert.rejects(client.chat(chat, { signal: signal() }), EndpointError);
    await assert.rejects(collect(client.chatStream(chat, { signal: signal() })), EndpointError);
    await assert.rejects(collect(client.respondStream({ model: 'gw-code', input: 'hi' }, { signal: signal() })), EndpointError);
  });
});

describe('API answers are read as before', () => {
  for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/vnd.gateway+json', undefined]) {
    test(`Content-Type ${contentType ?? 'missing'}: the model list is read`, async () => {
      answer = { contentType, body: modelList };
      const models = await makeClient(`${baseUrl}/v1`, 'demo-key').listModels({ signal: signal() });
      assert.deepEqual(models, [{ id: 'gw-chat', ownedBy: 'gateway' }]);
    });
  }

  test('Content-Type text/event-stream: the stream is read', async () => {
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    answer = { contentType: 'text/event-stream; charset=utf-8', body: `${chunk({ content: 'Hello' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n` };
    const events = await collect(makeClient(`${baseUrl}/v1`, 'demo-key').chatStream(chat, { signal: signal() }));
    assert.ok(events.some((e) => e.type === 'text' && e.text === 'Hello'));
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'stop' });
  });
});
