/** Builds real GatewayClients for tests, with a virtual clock that records waits instead of sleeping through them. */
import { GatewayClient } from '../../../src/gateway/common';
import { type GatewayClientOptions } from '../../../src/gateway/common/client';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import type { Logger } from '../../../src/base/common/ports';
import { VirtualClock } from './clock';

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  trace = (m: string) => void this.lines.push(`trace ${m}`);
  debug = (m: string) => void this.lines.push(`debug ${m}`);
  info = (m: string) => void this.lines.push(`info ${m}`);
  warn = (m: string) => void this.lines.push(`warn ${m}`);
  error = (m: string) => void this.lines.push(`error ${m}`);
}

export function makeClient(baseUrl: string, key: string | undefined, overrides: Partial<GatewayClientOptions> = {}): GatewayClient {
  const clock = overrides.clock ?? new VirtualClock();
  return new GatewayClient({
    baseUrl: () => baseUrl,
    siteUrl: () => 'https://gateway.example',
    apiKey: { getApiKey: async () => key },
    userAgent: 'gateway-vscode-tests/0.0.0',
    clock,
    limits: overrides.limits ?? new LimitTracker(clock),
    random: () => 0.5,
    ...(clock instanceof VirtualClock ? { fetch: clock.fetch } : {}),
    ...overrides,
  });
}

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const signal = () => new AbortController().signal;
