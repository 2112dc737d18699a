/**
 * A local HTTP server that answers each request with what the test set for its
 * path: status, headers and body chunks (a function may stream forever or
 * write hundreds of megabytes). For answers the emulator would never give.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HostileServer {
  baseUrl: string;
  /** Answers requests to `path` (e.g. `/v1/models`) with `handler`. */
  on(path: string, handler: Handler): void;
  /** The Authorization headers received, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const handlers = new Map<string, Handler>();
  const authorizations: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    req.resume();
    const handler = handlers.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    on: (path, handler) => void handlers.set(path, handler),
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
