// Answers no HTTP library of a real gateway sends, written raw on the socket: the client's HTTP exchange
// (node:http, src/gateway/node) must end each with a clear error or the answer, never wait forever.
// Before the exchange listened for a closed request, a 101 left the request pending past every abort.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConnectionError } from '../../../src/gateway/common';
import { makeClient, signal } from '../helpers/clients';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hi' }] };
const completion = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
});

let server: HostileServer;
before(async () => (server = await startHostileServer()));
after(() => server.close());

/** The error a chat request met when the server answered with `raw`; fails the test if it met none. */
async function errorOfChatAnswered(raw: string): Promise<unknown> {
  answerRaw(raw);
  return makeClient(server.baseUrl, 'sk-raw-key', { retry: { maxRetries: 1 } })
    .chat(chat, { signal: signal() })
    .then(
      () => assert.fail(`${JSON.stringify(raw.slice(0, 20))} was taken as an answer`),
      (e: unknown) => e,
    );
}

/** Answers /v1/chat/completions with `raw` bytes on the socket, whatever HTTP says. */
function answerRaw(raw: string): void {
  server.on('/v1/chat/completions', (_req, res) => {
    res.socket?.write(raw);
    res.socket?.end();
  });
}

describe('raw answers on the socket', { timeout: 10_000 }, () => {
  test('a 101 Switching Protocols nobody asked for fails the request with the connection error, not a wait', async () => {
    const error = await errorOfChatAnswered('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nhello');
    assert.ok(error instanceof ConnectionError, String(error));
    assert.match(error.message, /switched protocols \(101\)/);
    assert.doesNotMatch(error.message, /sk-raw-key/);
  });

  test('bytes that are not HTTP fail the request with the connection error that names the parse failure', async () => {
    const error = await errorOfChatAnswered('garbage that is no status line\r\n\r\n');
    assert.ok(error instanceof ConnectionError, String(error));
    assert.match(error.message, /Could not reach the Gateway .*\(Parse Error/);
  });

  test('an informational 103 before the answer is passed over: the 200 after it is read', async () => {
    const body = completion;
    answerRaw(
      'HTTP/1.1 103 Early Hints\r\nLink: </x>; rel=preload\r\n\r\n' +
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const result = await makeClient(server.baseUrl, 'sk-raw-key').chat(chat, { signal: signal() });
    assert.equal(result.text, 'ok');
  });
});
