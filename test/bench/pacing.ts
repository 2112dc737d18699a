/**
 * Pacing under bursts, in real time on a short emulator window: how many 429s a
 * burst meets and how close it finishes to the ideal schedule (requests sent the
 * moment the window has room). The same burst sent unpaced is the control.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../src/gateway/common';
import { LimitTracker } from '../../src/rateLimits/common/limitTracker';
import { type ConfiguredLimits } from '../../src/settings/common/valueSets';
import { type SharedWindow } from '../../src/rateLimits/common/sharedWindowSync';
import { systemClock } from '../../src/base/common/ports';
import { FileSharedWindow } from '../../src/rateLimits/node/fileSharedWindow';
import { startEmulator, type Emulator } from '../emulator/server';

export const PACING_WINDOW_MS = 1000;
const RPM = 10;
const TPM = 10_000;
/** About 4,000 prompt tokens: 40 % of the TPM. */
const FORTY_PERCENT = 'word '.repeat(3200);

export interface BurstFigures {
  name: string;
  requests: number;
  tooMany: number;
  elapsedMs: number;
  idealMs: number;
  /** The same requests sent at once without pacing: the 429s they met. */
  unpacedTooMany: number;
}

interface Burst {
  name: string;
  key: string;
  requests: number;
  perWindow: number;
  body: (i: number) => { path: '/chat/completions' | '/responses'; body: Record<string, unknown> };
}

const chatBody = (i: number) => ({
  path: '/chat/completions' as const,
  body: { model: 'gw-chat', messages: [{ role: 'user', content: `[r${i}] hello` }], text: `[r${i}] hello` },
});
const bigResponse = (i: number) => ({ path: '/responses' as const, body: { model: 'gw-code', input: `[r${i}] ${FORTY_PERCENT}` } });

const BURSTS: Burst[] = [
  { name: `${3 * RPM} chats at once, 3× a ${RPM}-request limit, with headers`, key: 'rpm-key', requests: 3 * RPM, perWindow: RPM, body: chatBody },
  { name: `${3 * RPM} chats at once, 3× a ${RPM}-request limit, no headers`, key: 'rpm-blind-key', requests: 3 * RPM, perWindow: RPM, body: chatBody },
  { name: '4 responses at once, 40 % of TPM each, with headers', key: 'tpm-key', requests: 4, perWindow: 2, body: bigResponse },
  { name: '4 responses at once, 40 % of TPM each, no headers', key: 'tpm-blind-key', requests: 4, perWindow: 2, body: bigResponse },
];

/**
 * Two extension hosts (each a client with its own tracker) bursting together on one
 * key, 15 chats each at a 10-request limit: alone each paces only its own requests;
 * sharing the window through a file in (a temporary) global storage they pace together.
 */
export async function measureTwoHosts(): Promise<BurstFigures[]> {
  const emulator = await startEmulator({
    port: 0,
    windowMs: PACING_WINDOW_MS,
    keys: [
      { key: 'rpm-key', rpm: RPM },
      { key: 'rpm-blind-key', rpm: RPM, rateLimitHeaders: false },
    ],
  });
  const storage = await mkdtemp(join(tmpdir(), 'gateway-bench-shared-'));
  try {
    const figures: BurstFigures[] = [];
    const limits = { requestsPerMinute: RPM, tokensPerMinute: 1_000_000 };
    for (const [key, headers] of [
      ['rpm-key', 'with headers'],
      ['rpm-blind-key', 'no headers'],
    ] as const) {
      for (const shared of [false, true]) {
        emulator.reset();
        const file = join(storage, `${key}-${String(shared)}.json`);
        const hosts = [0, 1].map(() => pacedClient(emulator, key, limits, shared ? new FileSharedWindow(file) : undefined));
        const from = emulator.requests.length;
        const start = performance.now();
        await Promise.all(hosts.flatMap((host) => Array.from({ length: 15 }, (_, i) => send(host, chatBody(i)))));
        const elapsedMs = performance.now() - start;
        figures.push({
          name: `2 hosts × 15 chats, ${RPM}-request limit, ${headers}, ${shared ? 'sharing the file' : 'each alone'}`,
          requests: 30,
          tooMany: emulator.requests.slice(from).filter((r) => r.status === 429).length,
          elapsedMs,
          idealMs: 2 * PACING_WINDOW_MS,
          unpacedTooMany: 20,
        });
        await sleep(PACING_WINDOW_MS + 50);
      }
    }
    return figures;
  } finally {
    await emulator.close();
    await rm(storage, { recursive: true, force: true });
  }
}

export async function measurePacing(): Promise<BurstFigures[]> {
  const emulator = await startEmulator({
    port: 0,
    windowMs: PACING_WINDOW_MS,
    keys: [
      { key: 'rpm-key', rpm: RPM },
      { key: 'rpm-blind-key', rpm: RPM, rateLimitHeaders: false },
      { key: 'tpm-key', rpm: 1000, tpm: TPM },
      { key: 'tpm-blind-key', rpm: 1000, tpm: TPM, rateLimitHeaders: false },
    ],
  });
  try {
    const figures: BurstFigures[] = [];
    for (const burst of BURSTS) figures.push(await measureBurst(emulator, burst));
    return figures;
  } finally {
    await emulator.close();
  }
}

async function measureBurst(emulator: Emulator, burst: Burst): Promise<BurstFigures> {
  emulator.reset();
  const limits: ConfiguredLimits =
    burst.perWindow === RPM ? { requestsPerMinute: RPM, tokensPerMinute: 1_000_000 } : { requestsPerMinute: 1000, tokensPerMinute: TPM };
  const client = pacedClient(emulator, burst.key, limits);
  // A request alone gives the latency the ideal schedule cannot avoid (the least of three, past the first's warm-up); then the window empties.
  let latencyMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const aloneStart = performance.now();
    await send(client, chatBody(-1 - i));
    latencyMs = Math.min(latencyMs, performance.now() - aloneStart);
  }
  await sleep(PACING_WINDOW_MS + 50);
  emulator.reset();

  const from = emulator.requests.length;
  const start = performance.now();
  await Promise.all(Array.from({ length: burst.requests }, (_, i) => send(client, burst.body(i))));
  const elapsedMs = performance.now() - start;
  const tooMany = emulator.requests.slice(from).filter((r) => r.status === 429).length;

  await sleep(PACING_WINDOW_MS + 50);
  emulator.reset();
  const unpaced = await Promise.all(Array.from({ length: burst.requests }, (_, i) => rawSend(emulator, burst.key, burst.body(i))));
  await sleep(PACING_WINDOW_MS + 50);
  return {
    name: burst.name,
    requests: burst.requests,
    tooMany,
    elapsedMs,
    idealMs: (Math.ceil(burst.requests / burst.perWindow) - 1) * PACING_WINDOW_MS + latencyMs,
    unpacedTooMany: unpaced.filter((status) => status === 429).length,
  };
}

function pacedClient(emulator: Emulator, key: string, limits: ConfiguredLimits, shared?: SharedWindow): GatewayClient {
  return new GatewayClient({
    baseUrl: () => emulator.baseUrl,
    apiKey: { getApiKey: async () => key },
    userAgent: 'gateway-vscode-bench/0.0.0',
    clock: systemClock,
    limits: new LimitTracker(systemClock, limits, PACING_WINDOW_MS, shared),
    retry: { maxRetries: 10 },
  });
}

/** The same request through the client (chat or responses, as the raw body says). */
async function send(client: GatewayClient, request: { path: string; body: Record<string, unknown> }): Promise<void> {
  const call = { signal: AbortSignal.timeout(60_000) };
  if (request.path === '/responses') await client.respond({ model: 'gw-code', input: String(request.body.input) }, call);
  else await client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: String(request.body.text) }] }, call);
}

async function rawSend(emulator: Emulator, key: string, request: { path: string; body: Record<string, unknown> }): Promise<number> {
  const { text: _text, ...wire } = request.body;
  const answer = await fetch(`${emulator.baseUrl}${request.path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(wire),
  });
  await answer.arrayBuffer();
  return answer.status;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
