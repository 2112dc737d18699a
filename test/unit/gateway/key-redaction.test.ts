// A hostile gateway echoes the key back in every place it can: the key must reach no error,
// no log line, no partial text, in any of its common encodings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayError } from '../../../src/gateway/common';
import { redact } from '../../../src/gateway/common/redaction';
import { collect, makeClient, MemoryLogger, signal } from '../helpers/clients';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

const KEY = 'gw_LiveToken0123456789abcdef';
const b64 = (text: string) => Buffer.from(text).toString('base64');
/** Every form a test server echoes, and so every form that must not come out. */
const ECHOES = [
  KEY,
  KEY.toUpperCase(),
  KEY.toLowerCase(),
  b64(KEY),
  b64(`user:${KEY}`),
  b64(KEY).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
  encodeURIComponent(`${KEY}/x y`),
];
const FORBIDDEN = [KEY, KEY.toUpperCase(), KEY.toLowerCase(), b64(KEY).slice(0, 20), b64(`user:${KEY}`).slice(8, 28), 'TGl2ZVRva2Vu'];

let server: HostileServer;
before(async () => (server = await startHostileServer()));
after(() => server.close());

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };

function assertNoKey(where: string, ...texts: unknown[]): void {
  const all = texts.map((t) => (typeof t === 'string' ? t : JSON.stringify(t))).join('\n');
  for (const form of FORBIDDEN) assert.ok(!all.toLowerCase().includes(form.toLowerCase()), `${where} leaked ${form}: ${all}`);
}

async function failure(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error;
  }
  assert.fail('expected a failure');
}

describe('the key echoed by the gateway is redacted at the boundary', () => {
  for (const [index, echo] of ECHOES.entries()) {
    test(`error param, message and x-request-id (echo form ${index})`, async () => {
      server.on('/v1/models', (_req, res) => {
        res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `req-${echo}` });
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'bad', param: `key=${echo}`, message: `Your key ${echo} is odd` } }));
      });
      const logger = new MemoryLogger();
      const error = await failure(() => makeClient(server.baseUrl, KEY, { logger }).listModels({ signal: signal() }));
      assert.match(error.message, /rejected the request/);
      assertNoKey('the error', error.message, error.requestId, (error as { param?: unknown }).param, logger.lines);
    });
  }

  test('the quoted start of a stream event that is not JSON', async () => {
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${KEY.toUpperCase()} is not json\n\n`);
    });
    const error = await failure(() => collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() })));
    assert.match(error.message, /not JSON/);
    assertNoKey('the protocol error', error.message);
  });

  test('an in-stream error event and text deltas', async () => {
    const delta = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': b64(KEY) });
      res.write(delta(`echo ${KEY} and ${b64(KEY)} `));
      res.end(`data: ${JSON.stringify({ error: { type: 'server_error', message: `boom ${encodeURIComponent(KEY)}`, param: KEY } })}\n\n`);
    });
    const logger = new MemoryLogger();
    const error = await failure(() => collect(makeClient(server.baseUrl, KEY, { logger }).chatStream(chat, { signal: signal() })));
    assert.match(error.partialText, /^echo \*\*\* and \*\*\*/);
    assertNoKey('the stream error', error.message, error.partialText, error.requestId, logger.lines);
  });

  test('a key cut in two across network reads, after many clean events', async () => {
    const delta = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const leaking = delta(`the key is ${KEY.toLowerCase()}.`);
    const cut = leaking.indexOf(KEY.toLowerCase()) + 10;
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta('clean ').repeat(50) + leaking.slice(0, cut));
      // A separate network read for the rest of the key.
      setTimeout(() => res.end(leaking.slice(cut) + 'data: [DONE]\n\n'), 20);
    });
    const events = await collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() }));
    const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    assert.match(text, /the key is \*\*\*\./);
    assertNoKey('the streamed text', text);
  });

  test('the key in mixed case or base64, cut in two, the second half sent only after the first read was delivered', async () => {
    const delta = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const mixed = [...KEY].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
    for (const echo of [mixed, b64(KEY)]) {
      const leaking = delta(`the key is ${echo}.`);
      const cut = leaking.indexOf(echo) + Math.floor(echo.length / 2);
      let sendRest: (() => void) | undefined;
      server.on('/v1/chat/completions', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(delta('clean ') + leaking.slice(0, cut));
        sendRest = () => res.end(leaking.slice(cut) + 'data: [DONE]\n\n');
      });
      let text = '';
      for await (const event of makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() })) {
        if (event.type === 'text') text += event.text;
        // The first read's events are out, so the rest comes in a read of its own.
        sendRest?.();
        sendRest = undefined;
      }
      assert.match(text, /^clean the key is \*\*\*/);
      assertNoKey(`the streamed text (${echo})`, text);
    }
  });

  test('a 500 body', async () => {
    server.on('/v1/models', (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `internal: ${KEY.toLowerCase()}` } }));
    });
    const error = await failure(() => makeClient(server.baseUrl, KEY, { retry: { maxRetries: 0 } }).listModels({ signal: signal() }));
    assertNoKey('the server error', error.message);
  });
});

describe('redact', () => {
  test('every form is replaced, ordinary text is kept', () => {
    for (const echo of ECHOES) assertNoKey(`redacting ${echo}`, redact(`before ${echo} after`, [KEY]));
    assert.equal(redact('nothing secret here', [KEY]), 'nothing secret here');
  });

  test('base64 of the key inside longer credentials, at every alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc:', 'Basic user:']) {
      const encoded = b64(`${prefix}${KEY}!trailing`);
      // The characters made of the key's bytes alone.
      const own = encoded.slice(Math.ceil((prefix.length * 8) / 6), Math.floor(((prefix.length + KEY.length) * 8) / 6));
      assert.ok(own.length > 30);
      const redacted = redact(encoded, [KEY]);
      assert.ok(!redacted.includes(own.slice(0, 12)) && !redacted.includes(own.slice(-12)), `${prefix}: ${redacted}`);
    }
  });
});
