/**
 * First-event overhead: time from the call to the first text delta, the client
 * against a bare fetch of the same request to the same emulator, interleaved.
 */
import { GatewayClient } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import { median, percentile } from './stats';

export interface FirstEventResult {
  samples: number;
  bareMedianMs: number;
  clientMedianMs: number;
  overheadMedianMs: number;
  overheadP90Ms: number;
}

export async function measureFirstEvent(emulator: Emulator, samples: number): Promise<FirstEventResult> {
  const client = new GatewayClient({ baseUrl: () => emulator.baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' });
  const bare: number[] = [];
  const ours: number[] = [];
  const overhead: number[] = [];
  for (let i = 0; i < samples + 10; i++) {
    const b = await bareFirstDelta(emulator.baseUrl);
    const c = await clientFirstDelta(client);
    if (i < 10) continue; // warm-up: JIT and connection pool
    bare.push(b);
    ours.push(c);
    overhead.push(c - b);
  }
  return {
    samples,
    bareMedianMs: median(bare),
    clientMedianMs: median(ours),
    overheadMedianMs: median(ours) - median(bare),
    overheadP90Ms: percentile(overhead, 90),
  };
}

async function bareFirstDelta(baseUrl: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { Authorization: 'Bearer bench-key', 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }], stream: true, stream_options: { include_usage: true } }),
  });
  const decoder = new TextDecoder();
  let buffer = '';
  let elapsed = -1;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    if (elapsed < 0 && buffer.includes('"content":"')) elapsed = performance.now() - started;
  }
  return elapsed;
}

async function clientFirstDelta(client: GatewayClient): Promise<number> {
  const started = performance.now();
  let elapsed = -1;
  for await (const event of client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }] }, { signal: new AbortController().signal })) {
    if (event.type === 'text' && elapsed < 0) elapsed = performance.now() - started;
  }
  return elapsed;
}
