/**
 * The second baseline: the same request over node:http itself (a kept-alive agent, the body's
 * chunks as they come), the floor under any client that uses it, as the extension's does
 * (src/gateway/node). Overheads against it are the client's own code and nothing of the HTTP stack.
 */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true });

export interface BarePost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Sees every chunk of the body as it comes. */
  onChunk(chunk: Buffer): void;
}

/** Posts and calls onChunk for each chunk of the answer; resolves at its end. */
export function barePost({ url, headers, body, onChunk }: BarePost): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      res.on('data', onChunk);
      res.once('end', resolve);
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** Closes the kept-alive connections, so the bench's process can end. */
export function closeBareHttp(): void {
  agent.destroy();
}
