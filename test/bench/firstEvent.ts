/**
 * First-event overhead: time from the call to the first text delta, the client
 * against a bare fetch of the same request to the same emulator, interleaved.
 * Two clients: a plain one (no shared window, no key origin, no usage log) and
 * the one the extension builds (extensionClient.ts), whose figure has the target.
 */
import { GatewayClient } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import { extensionClient } from './extensionClient';
import { median, percentile } from './stats';

export interface ClientFirstEvent {
  medianMs: number;
  overheadMedianMs: number;
  overheadP90Ms: number;
}

export interface FirstEventResult {
  samples: number;
  bareMedianMs: number;
  /** The client alone: nothing of the extension's switched on. */
  plain: ClientFirstEvent;
  /** What the extension has switched on: shared window file, key origin, redaction, usage record. */
  extension: ClientFirstEvent;
}

export async function measureFirstEvent(emulator: Emulator, samples: number): Promise<FirstEventResult> {
  const plainClient = new GatewayClient({ baseUrl: () => emulator.baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' });
  const ext = extensionClient(emulator.baseUrl, 'bench-key');
  const bare: number[] = [];
  const plain: number[] = [];
  const extension: number[] = [];
  try {
    for (let i = 0; i < samples + 10; i++) {
      const b = await bareFirstDelta(emulator.baseUrl);
      const p = await clientFirstDelta(plainClient);
      const e = await clientFirstDelta(ext.client);
      if (i < 10) continue; // warm-up: JIT and connection pool
      bare.push(b);
      plain.push(p);
      extension.push(e);
    }
  } finally {
    ext.close();
  }
  const figures = (ours: number[]): ClientFirstEvent => ({
    medianMs: median(ours),
    overheadMedianMs: median(ours) - median(bare),
    overheadP90Ms: percentile(
      ours.map((c, i) => c - bare[i]),
      90,
    ),
  });
  return { samples, bareMedianMs: median(bare), plain: figures(plain), extension: figures(extension) };
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
