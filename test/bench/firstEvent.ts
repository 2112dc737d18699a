/**
 * First-event overhead: time from the call to the first text delta, the client
 * against a bare fetch of the same request to the same emulator, interleaved.
 * Two clients: a plain one (global fetch; no shared window, no key origin, no usage
 * log) and the one the extension builds (extensionClient.ts: node:http and all it has
 * switched on), whose figure has the target. A second baseline, the same request over
 * bare node:http, gives the client's own cost apart from the HTTP stack's.
 */
import { GatewayClient } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import { extensionClient } from './extensionClient';
import { median, percentile } from './stats';
import { barePost } from './bareHttp';

export interface ClientFirstEvent {
  medianMs: number;
  overheadMedianMs: number;
  overheadP90Ms: number;
  /** The process's CPU time from the call to the first delta, over the bare fetch's (medians): what a loaded machine does not inflate. */
  cpuOverheadMedianMs: number;
  /** Over bare node:http instead (medians): the client's own code. */
  overHttpMedianMs: number;
  cpuOverHttpMedianMs: number;
}

/** One sample: wall time and the process's CPU time (user and system, every thread) from the call to the first text delta. */
interface Sample {
  ms: number;
  cpuMs: number;
}

export interface FirstEventResult {
  samples: number;
  bareMedianMs: number;
  bareCpuMedianMs: number;
  bareHttpMedianMs: number;
  bareHttpCpuMedianMs: number;
  /** The client alone: nothing of the extension's switched on. */
  plain: ClientFirstEvent;
  /** What the extension has switched on: shared window file, key origin, redaction, usage record. */
  extension: ClientFirstEvent;
}

export async function measureFirstEvent(emulator: Emulator, samples: number): Promise<FirstEventResult> {
  const plainClient = new GatewayClient({ baseUrl: () => emulator.baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' });
  const ext = extensionClient(emulator.baseUrl, 'bench-key');
  const bare: Sample[] = [];
  const bareHttp: Sample[] = [];
  const plain: Sample[] = [];
  const extension: Sample[] = [];
  try {
    for (let i = 0; i < samples + 10; i++) {
      const b = await bareFirstDelta(emulator.baseUrl);
      const h = await bareHttpFirstDelta(emulator.baseUrl);
      const p = await clientFirstDelta(plainClient);
      const e = await clientFirstDelta(ext.client);
      if (i < 10) continue; // warm-up: JIT and connection pool
      bare.push(b);
      bareHttp.push(h);
      plain.push(p);
      extension.push(e);
    }
  } finally {
    await ext.close();
  }
  const ms = (samples: Sample[]) => samples.map((sample) => sample.ms);
  const cpuMs = (samples: Sample[]) => samples.map((sample) => sample.cpuMs);
  const figures = (ours: Sample[]): ClientFirstEvent => ({
    medianMs: median(ms(ours)),
    overheadMedianMs: median(ms(ours)) - median(ms(bare)),
    overheadP90Ms: percentile(
      ours.map((c, i) => c.ms - bare[i].ms),
      90,
    ),
    cpuOverheadMedianMs: median(cpuMs(ours)) - median(cpuMs(bare)),
    overHttpMedianMs: median(ms(ours)) - median(ms(bareHttp)),
    cpuOverHttpMedianMs: median(cpuMs(ours)) - median(cpuMs(bareHttp)),
  });
  return {
    samples,
    bareMedianMs: median(ms(bare)),
    bareCpuMedianMs: median(cpuMs(bare)),
    bareHttpMedianMs: median(ms(bareHttp)),
    bareHttpCpuMedianMs: median(cpuMs(bareHttp)),
    plain: figures(plain),
    extension: figures(extension),
  };
}

function sampleFrom(started: number, cpu: NodeJS.CpuUsage): Sample {
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

export async function bareFirstDelta(baseUrl: string): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { Authorization: 'Bearer bench-key', 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }], stream: true, stream_options: { include_usage: true } }),
  });
  const decoder = new TextDecoder();
  let buffer = '';
  let first: Sample | undefined;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    if (!first && buffer.includes('"content":"')) first = sampleFrom(started, cpu);
  }
  if (!first) throw new Error('the bare fetch saw no text delta');
  return first;
}

/** The same request over bare node:http (bareHttp.ts): the floor under the extension's client. */
export async function bareHttpFirstDelta(baseUrl: string): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const decoder = new TextDecoder();
  let buffer = '';
  let first: Sample | undefined;
  await barePost({
    url: `${baseUrl}/chat/completions`,
    headers: { Authorization: 'Bearer bench-key', 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }], stream: true, stream_options: { include_usage: true } }),
    onChunk: (chunk) => {
      buffer += decoder.decode(chunk, { stream: true });
      if (!first && buffer.includes('"content":"')) first = sampleFrom(started, cpu);
    },
  });
  if (!first) throw new Error('bare node:http saw no text delta');
  return first;
}

export async function clientFirstDelta(client: GatewayClient): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let first: Sample | undefined;
  for await (const event of client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }] }, { signal: new AbortController().signal })) {
    if (event.type === 'text' && !first) first = sampleFrom(started, cpu);
  }
  if (!first) throw new Error('the client saw no text delta');
  return first;
}
