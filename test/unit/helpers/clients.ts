/** Builds real GatewayClients for tests, with a clock that records waits instead of sleeping through them. */
import { GatewayClient, LimitTracker, type GatewayClientOptions } from '../../../src/core/api';
import type { Clock, Logger } from '../../../src/core/ports';

/** Real time, but `sleep` returns at once (still honouring abort) and remembers how long it was asked to wait. */
export class RecordingClock implements Clock {
  readonly sleeps: number[] = [];
  now(): number {
    return Date.now();
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) throw signal.reason;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw signal.reason;
  }
}

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  trace = (m: string) => void this.lines.push(`trace ${m}`);
  debug = (m: string) => void this.lines.push(`debug ${m}`);
  info = (m: string) => void this.lines.push(`info ${m}`);
  warn = (m: string) => void this.lines.push(`warn ${m}`);
  error = (m: string) => void this.lines.push(`error ${m}`);
}

export function makeClient(
  baseUrl: string,
  key: string | undefined,
  overrides: Partial<GatewayClientOptions> = {},
): GatewayClient {
  const clock = overrides.clock ?? new RecordingClock();
  return new GatewayClient({
    baseUrl: () => baseUrl,
    siteUrl: () => 'https://gateway.example',
    apiKey: { getApiKey: async () => key },
    userAgent: 'gateway-vscode-tests/0.0.0',
    clock,
    limits: overrides.limits ?? new LimitTracker(clock),
    random: () => 0.5,
    ...overrides,
  });
}

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const signal = () => new AbortController().signal;
