/**
 * A driver for CPU profiles of the per-request path (issue 25): the client as the extension
 * builds it, alone in the process, so a profile shows its costs and little else.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx test/bench/profileRequest.ts stream|barestream|first|plain|bare|barehttp [rounds]
 * `stream` replays a 20,000-delta responses stream; `first`, `plain` and `bare` make requests to the first text delta.
 * Prints the process's CPU time per round, which is what the bench's ratios come from. With
 * PROFILE_WINDOWS=<file>, the first-delta modes write each request's call → first delta interval
 * (profiler clock, µs) there, so a profile can be read for those intervals alone.
 */
import { writeFileSync } from 'node:fs';
import { startEmulator } from '../emulator/server';
import { extensionClient } from './extensionClient';
import { GatewayClient } from '../../src/gateway/common';
import { bareFirstDelta, bareHttpFirstDelta, clientFirstDelta } from './firstEvent';
import { closeBareHttp } from './bareHttp';
import { bareParser, captureStream, countDeltas, startReplay } from './throughput';

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'stream';
  const rounds = Number(process.argv[3] ?? (mode === 'stream' ? 40 : 2000));
  const emulator = await startEmulator({ port: 0, keys: [{ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }], rpm: 1_000_000, tpm: 1_000_000_000 });
  try {
    if (mode === 'stream' || mode === 'barestream') await profileStream(emulator, rounds, mode);
    else await profileFirst(emulator.baseUrl, rounds, mode);
  } finally {
    await emulator.close();
  }
}

/** `first` is the extension's client, `plain` the client alone, `bare` a bare fetch of the same request, `barehttp` the same over bare node:http. */
async function profileFirst(baseUrl: string, rounds: number, mode: string): Promise<void> {
  const ext = extensionClient(baseUrl, 'bench-key');
  const plain = new GatewayClient({ baseUrl: () => baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' });
  const bare = { bare: () => bareFirstDelta(baseUrl), barehttp: () => bareHttpFirstDelta(baseUrl) }[mode];
  const once = bare ?? (() => clientFirstDelta(mode === 'plain' ? plain : ext.client));
  try {
    for (let i = 0; i < 20; i++) await once();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const windows: [number, number][] = [];
    for (let i = 0; i < rounds; i++) {
      const startedUs = Number(process.hrtime.bigint() / 1000n);
      const sample = await once();
      windows.push([startedUs, startedUs + sample.ms * 1000]);
    }
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - started;
    // The profiler's clock is the monotonic one hrtime reads: a profile's samples can be cut to these windows.
    if (process.env.PROFILE_WINDOWS) writeFileSync(process.env.PROFILE_WINDOWS, JSON.stringify(windows));
    console.log(
      `${mode}: ${rounds} requests, CPU ${((used.user + used.system) / 1000 / rounds).toFixed(3)} ms, wall ${(wall / rounds).toFixed(3)} ms a request`,
    );
  } finally {
    closeBareHttp();
    await ext.close();
  }
}

/** `stream` is the extension's client, `barestream` eventsource-parser and JSON.parse alone. */
async function profileStream(emulator: Awaited<ReturnType<typeof startEmulator>>, rounds: number, mode: string): Promise<void> {
  const { bytes, limitHeaders } = await captureStream(emulator, 'bench-key', 20_000);
  const replay = await startReplay(bytes, limitHeaders);
  const ext = extensionClient(replay.baseUrl, 'bench-key');
  try {
    const once = mode === 'barestream' ? () => bareParser(replay.baseUrl) : () => countDeltas(ext.client);
    await once();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < rounds; i++) await once();
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - started;
    console.log(`${mode}: ${rounds} rounds, CPU ${((used.user + used.system) / 1000 / rounds).toFixed(1)} ms, wall ${(wall / rounds).toFixed(1)} ms a round`);
  } finally {
    await ext.close();
    await replay.close();
  }
}

void main();
