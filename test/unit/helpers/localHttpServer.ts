/**
 * A bare local HTTP or HTTPS server for the node HTTP adapter's tests (test/unit/node-http-fetch*.test.ts):
 * the test answers each request itself (`await once(server.server, 'request')`) and counts the TCP
 * connections the server accepted, which is how keep-alive reuse shows.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { afterEach, beforeEach } from 'node:test';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createNodeHttpFetch } from '../../../src/gateway/node';
import type { FetchAnswer, FetchBodyReader, FetchInit } from '../../../src/gateway/common';

export interface LocalHttpServer {
  server: Server;
  /** http://127.0.0.1:port (or https://). */
  origin: string;
  /** Every connection accepted, in order. */
  connections: Socket[];
  /** The next request's message and answer. */
  nextRequest(): Promise<[IncomingMessage, ServerResponse]>;
  close(): Promise<void>;
}

export async function startLocalServer(tls?: { key: string; cert: string }): Promise<LocalHttpServer> {
  const server: Server = tls ? createHttpsServer(tls) : createServer();
  const connections: Socket[] = [];
  // TLS servers report the encrypted connection once its handshake is done; plain ones on accept.
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => connections.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    connections,
    nextRequest: () => once(server, 'request') as Promise<[IncomingMessage, ServerResponse]>,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A request as the gateway client sends one. */
export function init(signal: AbortSignal, more: Partial<FetchInit> = {}): FetchInit {
  return { method: 'GET', headers: {}, signal, redirect: 'manual', ...more };
}

/** The whole body, read to its end. */
export async function readAll(answer: FetchAnswer): Promise<Buffer> {
  const reader = answer.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return Buffer.concat(chunks);
    chunks.push(chunk.value);
  }
}

/** The request body as the server received it. */
export async function requestBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type Adapter = ReturnType<typeof createNodeHttpFetch>;

/** Resolves when the server's side of a connection closes (a reset included: `once` would reject on its 'error'). */
export function closed(socket: Socket | undefined): Promise<void> {
  assert.ok(socket, 'no connection to wait on');
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/**
 * Resolves once `progress` has stood still for 20 turns of the event loop, each with its poll for I/O: on loopback
 * what a socket can take moves within a turn or two, so this is when the sockets' buffers are as full as they get.
 */
export async function quiet(progress: () => number): Promise<void> {
  let last = progress();
  for (let still = 0; still < 20;) {
    await new Promise((resolve) => setImmediate(resolve));
    still = progress() === last ? still + 1 : 0;
    last = progress();
  }
}

/** A fresh server and adapter for every test of the file, both closed after it; read them through the getters. */
export function serverAndAdapterPerTest(): { readonly server: LocalHttpServer; readonly adapter: Adapter } {
  let current: { server: LocalHttpServer; adapter: Adapter } | undefined;
  beforeEach(async () => {
    current = { server: await startLocalServer(), adapter: createNodeHttpFetch() };
  });
  afterEach(async () => {
    current?.adapter.close();
    await current?.server.close();
  });
  const now = () => current ?? assert.fail('no test is running');
  return {
    get server() {
      return now().server;
    },
    get adapter() {
      return now().adapter;
    },
  };
}

/** Reads until the text read so far holds `marker` (a stream's last event), failing if the body ends first; returns that text. */
export async function readThrough(reader: FetchBodyReader, marker: string): Promise<string> {
  let received = '';
  while (!received.includes(marker)) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, `the body ended before ${JSON.stringify(marker)}`);
    received += Buffer.from(chunk.value!).toString();
  }
  return received;
}
