/**
 * What export to a team's collector costs a request (issue 41): a whole streamed request (call → end of the
 * stream, usage recorded) through the client as the extension builds it, with export off (the baseline)
 * against export on to a collector that is down (nothing listens: every export fails and is retried) and to one
 * that hangs (accepts, never answers), interleaved in the same run (a second client with export off gives the run's
 * noise). Exports every second, so failing exports are in flight throughout; a ratio within the noise is "unchanged".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { silentLogger } from '../../src/base/common';
import { TeamTelemetry, type ExporterConfig } from '../../src/telemetry/common';
import { loadOtlpExporter } from '../../src/telemetry/node';
import type { GatewayClient } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import { extensionClient } from './extensionClient';
import { fmt, median } from './stats';

export interface TelemetryCost {
  samples: number;
  offMs: number;
  /** A second client with export off: off against off is the noise of the run. */
  offAgainMs: number;
  downMs: number;
  hangingMs: number;
  failedExports: number;
}

export async function measureTelemetryCost(emulator: Emulator, samples: number): Promise<TelemetryCost> {
  const hanging = await hangingCollector();
  const down = await closedPort();
  const telemetryTo = async (endpoint: string) => {
    const telemetry = new TeamTelemetry({ loadExporter: loadOtlpExporter, logger: silentLogger, priceOf: () => ({ inputPerMillion: 1, outputPerMillion: 2 }) });
    await telemetry.configure(config(endpoint), AbortSignal.timeout(5_000));
    return telemetry;
  };
  const downTelemetry = await telemetryTo(down);
  const hangingTelemetry = await telemetryTo(hanging.endpoint);
  const arms = [
    { name: 'off', client: extensionClient(emulator.baseUrl, 'bench-key'), times: [] as number[] },
    { name: 'offAgain', client: extensionClient(emulator.baseUrl, 'bench-key'), times: [] as number[] },
    { name: 'down', client: extensionClient(emulator.baseUrl, 'bench-key', downTelemetry), times: [] as number[] },
    { name: 'hanging', client: extensionClient(emulator.baseUrl, 'bench-key', hangingTelemetry), times: [] as number[] },
  ];
  try {
    for (let i = 0; i < samples + 10; i++) {
      // Each round in another order, so no arm always follows the same one.
      for (let k = 0; k < arms.length; k++) {
        const arm = arms[(i + k) % arms.length]!;
        const ms = await wholeRequest(arm.client.client);
        if (i >= 10) arm.times.push(ms); // the first rounds warm up the JIT and the connection pools
      }
    }
  } finally {
    await Promise.all(arms.map((arm) => arm.client.close()));
  }
  const medianOf = (name: string) => median(arms.find((arm) => arm.name === name)!.times);
  const failedExports = downTelemetry.failedExports + hangingTelemetry.failedExports;
  await Promise.all([
    downTelemetry.dispose(AbortSignal.timeout(1_000)).catch(() => undefined),
    hangingTelemetry.dispose(AbortSignal.timeout(1_000)).catch(() => undefined),
  ]);
  await hanging.close();
  return { samples, offMs: medianOf('off'), offAgainMs: medianOf('offAgain'), downMs: medianOf('down'), hangingMs: medianOf('hanging'), failedExports };
}

export function printTelemetryCost(t: TelemetryCost): void {
  console.log(`\nExport to a team's collector: a whole streamed request (call → stream end), median of ${t.samples} interleaved samples`);
  console.log(`  export off                          ${fmt(t.offMs, 3)} ms   (baseline)`);
  console.log(`  export off, a second client         ${fmt(t.offAgainMs, 3)} ms   ${fmt(t.offAgainMs / t.offMs)}× off   (the run's noise)`);
  console.log(`  export on, collector down           ${fmt(t.downMs, 3)} ms   ${fmt(t.downMs / t.offMs)}× off   (target: 1.00× within noise)`);
  console.log(`  export on, collector hanging        ${fmt(t.hangingMs, 3)} ms   ${fmt(t.hangingMs / t.offMs)}× off`);
  console.log(
    `  (an export every ${fmt(EXPORT_MS / 1000, 1)} s, 60× the extension's rate, each failing or timing out meanwhile: ${t.failedExports} failed exports during the run)`,
  );
}

/** How often the bench exports (BENCH_EXPORT_MS to change): far more often than the extension's 60 s, so exports fail throughout. */
const EXPORT_MS = Number(process.env.BENCH_EXPORT_MS ?? 1000);

function config(endpoint: string): ExporterConfig {
  return {
    url: `${endpoint}/v1/metrics`,
    protocol: 'http/protobuf',
    headers: {},
    serviceVersion: 'bench',
    userId: 'bench',
    hostId: 'bench',
    currency: 'USD',
    exportIntervalMs: EXPORT_MS,
    exportTimeoutMs: EXPORT_MS / 2,
  };
}

async function wholeRequest(client: GatewayClient): Promise<number> {
  const started = performance.now();
  for await (const event of client.chatStream(
    { model: 'gw-chat', messages: [{ role: 'user', content: 'first' }] },
    { signal: AbortSignal.timeout(10_000), origin: { surface: 'chat' } },
  ))
    void event;
  return performance.now() - started;
}

/** An address nothing listens on: a port the system gave and took back. */
async function closedPort(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}`;
}

/** A collector that accepts each export and never answers. */
async function hangingCollector(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(() => undefined);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
