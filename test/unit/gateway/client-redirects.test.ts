// A redirect from the gateway's address is never followed: the conversation does not go on to another origin
// (plain http included), and the error names where it pointed and the setting to check. Real HTTP, two servers.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { EndpointError, RedirectRefusedError } from '../../../src/gateway/common';
import { collect, MemoryLogger, makeClient, signal } from '../helpers/clients';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

/** What reached the other origin: every request, with its body. */
interface Received {
  method: string;
  path: string;
  body: string;
  authorization: string | undefined;
}

async function startCollector(): Promise<{ origin: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"chatcmpl-x","object":"chat.completion","choices":[],"data":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let gateway: HostileServer;
let other: Awaited<ReturnType<typeof startCollector>>;
before(async () => {
  gateway = await startHostileServer();
  other = await startCollector();
});
after(async () => {
  await gateway.close();
  await other.close();
});
afterEach(() => {
  other.received.length = 0;
  gateway.authorizations.length = 0;
});

const secretPrompt = 'the secret plan: ship on Friday';
const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: secretPrompt }] };

function redirectAll(status: number, location: string): void {
  for (const path of ['/v1/chat/completions', '/v1/responses', '/v1/models']) {
    gateway.on(path, (_req, res) => res.writeHead(status, { location, 'x-request-id': 'req_redirect' }).end());
  }
}

describe('redirects', () => {
  for (const status of [307, 308, 301, 302, 303]) {
    test(`a ${status} to another origin: nothing reaches it, and the error names it and gateway.baseUrl`, async () => {
      redirectAll(status, `${other.origin}/v1/chat/completions`);
      const logger = new MemoryLogger();
      const error = await makeClient(gateway.baseUrl, 'sk-redirect-key', { logger })
        .chat(chat, { signal: signal() })
        .then(
          () => assert.fail('the redirect was followed'),
          (e: unknown) => e,
        );
      assert.deepEqual(other.received, []);
      assert.ok(error instanceof RedirectRefusedError, String(error));
      assert.ok(error instanceof EndpointError, 'the UI offers Open Settings for it');
      assert.equal(error.status, status);
      assert.equal(error.targetOrigin, other.origin);
      assert.match(error.message, new RegExp(`redirect \\(${status}\\) to another address, ${other.origin.replace(/\./g, '\\.')}`));
      assert.match(error.message, /not followed/);
      assert.match(error.message, /"gateway\.baseUrl"/);
      assert.equal(gateway.authorizations.length, 1, 'not retried');
      assert.doesNotMatch(logger.lines.join('\n') + error.message, /sk-redirect-key/);
    });
  }

  test('a streamed request and the model list are not sent on either', async () => {
    redirectAll(307, `${other.origin}/collect`);
    const client = makeClient(gateway.baseUrl, 'k');
    await assert.rejects(collect(client.respondStream({ model: 'gw-code', input: secretPrompt }, { signal: signal() })), RedirectRefusedError);
    await assert.rejects(client.listModels({ signal: signal() }), RedirectRefusedError);
    assert.deepEqual(other.received, []);
  });

  test('a redirect on the same server is not followed either, and the error names the path', async () => {
    gateway.on('/v2/chat/completions', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    redirectAll(308, '/v2/chat/completions');
    const error = await makeClient(gateway.baseUrl, 'k')
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RedirectRefusedError, String(error));
    assert.equal(error.targetOrigin, new URL(gateway.baseUrl).origin);
    assert.match(error.message, /to \/v2\/chat\/completions on the same server, which is not followed/);
    assert.equal(gateway.authorizations.length, 1);
  });

  test('a redirect without a usable target, or one carrying the key, names no target and never the key', async () => {
    redirectAll(307, 'http://[not a url');
    let error = await makeClient(gateway.baseUrl, 'k')
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RedirectRefusedError);
    assert.equal(error.targetOrigin, undefined);
    assert.match(error.message, /to an address it did not name/);
    redirectAll(307, `http://sk-key-in-host-1234567890.invalid:1/x`);
    error = await makeClient(gateway.baseUrl, 'sk-key-in-host-1234567890')
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RedirectRefusedError);
    assert.doesNotMatch(`${error.message} ${error.targetOrigin}`, /sk-key-in-host-1234567890/);
  });
});
