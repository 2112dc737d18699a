/**
 * Serves recorded SSE bytes over real HTTP, cut into chunks at chosen or random
 * places, so the client's parser sees the byte boundaries a network produces.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingServer {
  baseUrl: string;
  /** Sets what the next requests receive. */
  serve(bytes: Buffer, chunkSizes: () => number, status?: number): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  let body: Buffer = Buffer.alloc(0);
  let nextChunk = () => body.length;
  let statusCode = 200;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(statusCode, { 'content-type': 'text/event-stream', 'x-request-id': 'req_recording' });
      let offset = 0;
      const writeNext = () => {
        if (offset >= body.length) {
          res.end();
          return;
        }
        const size = Math.max(1, nextChunk());
        res.write(body.subarray(offset, offset + size));
        offset += size;
        setImmediate(writeNext);
      };
      writeNext();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    serve(bytes, chunkSizes, status = 200) {
      body = bytes;
      nextChunk = chunkSizes;
      statusCode = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The .jsonl recordings are one payload a line; on the wire each is `event: <type>` + `data: <line>`. */
export function frameJsonl(text: string): Buffer {
  const frames = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
  return Buffer.from(frames.join(''), 'utf8');
}

/** A small deterministic PRNG (mulberry32), so a failing chunking can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
