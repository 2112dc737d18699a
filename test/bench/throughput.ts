/**
 * Stream throughput: how many text deltas per second each consumer gets through
 * a long responses stream. The stream is produced once by the emulator (no delay)
 * and then replayed byte for byte from memory in 64 KiB writes, so the figure is
 * the consumer's cost, not the emulator's generation speed.
 */
import { createParser } from 'eventsource-parser';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { GatewayClient } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import { extensionClient } from './extensionClient';
import { median } from './stats';
import { barePost } from './bareHttp';

export interface ThroughputResult {
  deltas: number;
  bytes: number;
  /** Median deltas per second per consumer. */
  bare: number;
  /** The same parser over bare node:http: the floor under the extension's client. */
  bareHttp: number;
  client: number;
  /** The client as the extension builds it (extensionClient.ts). */
  extension: number;
  openai: number;
}

export async function measureThroughput(emulator: Emulator, deltas: number, rounds: number): Promise<ThroughputResult> {
  const { bytes: captured, limitHeaders } = await captureStream(emulator, 'demo-key', deltas);
  const replay = await startReplay(captured, limitHeaders);
  // One client for every round, as the extension keeps one: its shared window and usage log files persist between requests.
  const ext = extensionClient(replay.baseUrl, 'demo-key');
  try {
    const consumers = {
      bare: () => bareParser(replay.baseUrl),
      bareHttp: () => bareHttpParser(replay.baseUrl),
      client: () => countDeltas(new GatewayClient({ baseUrl: () => replay.baseUrl, apiKey: { getApiKey: async () => 'demo-key' }, userAgent: 'bench' })),
      extension: () => countDeltas(ext.client),
      openai: () => viaOpenAI(replay.baseUrl),
    };
    const times: Record<keyof typeof consumers, number[]> = { bare: [], bareHttp: [], client: [], extension: [], openai: [] };
    for (const name of Object.keys(consumers) as (keyof typeof consumers)[]) {
      const counted = await consumers[name]();
      if (counted !== deltas) throw new Error(`${name} saw ${counted} deltas, expected ${deltas}`);
    }
    // Interleaved rounds, so drift of the machine hits every consumer alike.
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(consumers) as (keyof typeof consumers)[]) {
        const started = performance.now();
        await consumers[name]();
        times[name].push(performance.now() - started);
      }
    }
    const rate = (ms: number[]) => deltas / (median(ms) / 1000);
    return {
      deltas,
      bytes: captured.length,
      bare: rate(times.bare),
      bareHttp: rate(times.bareHttp),
      client: rate(times.client),
      extension: rate(times.extension),
      openai: rate(times.openai),
    };
  } finally {
    await ext.close();
    await replay.close();
  }
}

/**
 * One responses stream of `deltas` text deltas as the emulator sends it, with its `x-ratelimit-*` headers:
 * replayed with the stream, they tell a client that keeps its window between requests (the extension's)
 * the emulator's limits, so it does not pace the rounds under the default limits it assumes without them.
 */
export async function captureStream(emulator: Emulator, key: string, deltas: number): Promise<{ bytes: Buffer; limitHeaders: Record<string, string> }> {
  emulator.script(key, [{ text: 'tok ', repeat: deltas, chunkChars: 4 }]);
  const res = await fetch(`${emulator.baseUrl}/responses`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'gw-code', input: 'bench', stream: true }),
  });
  const limitHeaders: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name.startsWith('x-ratelimit-')) limitHeaders[name] = value;
  });
  return { bytes: Buffer.from(await res.arrayBuffer()), limitHeaders };
}

export async function startReplay(bytes: Buffer, limitHeaders: Record<string, string> = {}) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { ...limitHeaders, 'content-type': 'text/event-stream', 'x-request-id': 'req_bench' });
      for (let offset = 0; offset < bytes.length; offset += 65536) res.write(bytes.subarray(offset, offset + 65536));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const body = JSON.stringify({ model: 'gw-code', input: 'bench', stream: true });

/** eventsource-parser and JSON.parse, counting the text deltas: what both baselines run on the bytes. */
function deltaCounter(): { feed(chunk: Uint8Array): void; readonly count: number } {
  let count = 0;
  const parser = createParser({
    onEvent: (event) => {
      const payload = JSON.parse(event.data) as { type: string; delta?: string };
      if (payload.type === 'response.output_text.delta') count++;
    },
  });
  const decoder = new TextDecoder();
  return {
    feed: (chunk) => parser.feed(decoder.decode(chunk, { stream: true })),
    get count() {
      return count;
    },
  };
}

/** The practical limit: fetch, eventsource-parser and JSON.parse, nothing else. */
export async function bareParser(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/responses`, { method: 'POST', headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' }, body });
  const counter = deltaCounter();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) counter.feed(chunk);
  return counter.count;
}

/** The same parser fed by bare node:http (bareHttp.ts). */
export async function bareHttpParser(baseUrl: string): Promise<number> {
  const counter = deltaCounter();
  await barePost({
    url: `${baseUrl}/responses`,
    headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
    body,
    onChunk: (chunk) => counter.feed(chunk),
  });
  return counter.count;
}

export async function countDeltas(client: GatewayClient): Promise<number> {
  // Deltas of one network read arrive merged into one text event; count the wire deltas by their text ('tok ').
  let chars = 0;
  for await (const event of client.respondStream({ model: 'gw-code', input: 'bench' }, { signal: new AbortController().signal })) {
    if (event.type === 'text') chars += event.text.length;
  }
  return chars / 4;
}

async function viaOpenAI(baseUrl: string): Promise<number> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'demo-key', maxRetries: 0 });
  let count = 0;
  const stream = await client.responses.create({ model: 'gw-code', input: 'bench', stream: true });
  for await (const event of stream) if (event.type === 'response.output_text.delta') count++;
  return count;
}
