/**
 * `npm run bench`: speed figures as ratios against baselines measured in the
 * same run, so they mean the same on any machine. Prints; never fails on a figure.
 */
import { startEmulator } from '../emulator/server';
import { measureFirstEvent } from './firstEvent';
import { fmt } from './stats';
import { measureThroughput } from './throughput';
import { measureSessionBytes } from './sessionBytes';

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0, keys: [{ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }], rpm: 1_000_000, tpm: 1_000_000_000 });
  try {
    const t = await measureThroughput(emulator, 20_000, 15);
    console.log(`\nStream throughput: a responses stream of ${t.deltas} text deltas (${fmt(t.bytes / 1e6)} MB), median of 15 interleaved rounds`);
    console.log(`  bare eventsource-parser + JSON.parse  ${fmt(t.bare, 0)} deltas/s   (baseline, the practical limit)`);
    console.log(`  GatewayClient.respondStream           ${fmt(t.client, 0)} deltas/s   ${fmt(t.client / t.bare)}× bare   (target ≥ 0.80×)`);
    console.log(`  openai package responses.create       ${fmt(t.openai, 0)} deltas/s   ${fmt(t.openai / t.bare)}× bare`);
    console.log('  (the client merges the text deltas of one network read into one event; the figure counts wire deltas)');
    console.log(`  client / openai package               ${fmt(t.client / t.openai)}×`);

    const f = await measureFirstEvent(emulator, 200);
    console.log(`\nFirst-event overhead: call → first text delta, ${f.samples} interleaved samples against the emulator`);
    console.log(`  bare fetch        median ${fmt(f.bareMedianMs, 3)} ms   (baseline)`);
    console.log(`  GatewayClient     median ${fmt(f.clientMedianMs, 3)} ms   ${fmt(f.clientMedianMs / f.bareMedianMs)}× bare`);
    console.log(`  overhead          median ${fmt(f.overheadMedianMs, 3)} ms, p90 ${fmt(f.overheadP90Ms, 3)} ms   (target < 1 ms median)`);

    for (const lines of [60, 300]) printSessionBytes(await measureSessionBytes(emulator, 30, lines), 30, lines);
  } finally {
    await emulator.close();
  }
}

function printSessionBytes(b: { stateful: number[]; stateless: number[] }, turns: number, lines: number): void {
  const sum = (values: number[]) => values.reduce((a, v) => a + v, 0);
  console.log(`\nBytes sent per request over a ${turns}-turn tool-using agent session, each turn reading a ${lines}-line file (~${Math.round((lines * 26) / 100) / 10} KB)`);
  console.log('  turn   stateful (previous_response_id)   stateless (full history)');
  const max = b.stateless.at(-1)!;
  for (let i = 0; i < b.stateful.length; i++) {
    if (i < 3 || i % 5 === 4 || i === b.stateful.length - 1) {
      console.log(`  ${String(i + 1).padStart(4)}   ${String(b.stateful[i]).padStart(12)} B ${bar(b.stateful[i], max)}   ${String(b.stateless[i]).padStart(9)} B ${bar(b.stateless[i], max)}`);
    }
  }
  const later = b.stateful.slice(1);
  console.log(`  totals: ${sum(b.stateful).toLocaleString('en-US')} B against ${sum(b.stateless).toLocaleString('en-US')} B: ratio ${fmt(sum(b.stateful) / sum(b.stateless), 3)} (target ≤ 0.100)`);
  console.log(`  per-request size after the first: min ${Math.min(...later)} B, max ${Math.max(...later)} B (max/min ${fmt(Math.max(...later) / Math.min(...later))}×: flat)`);
  console.log(`  every request also carries the instructions and the six tool definitions (${b.stateful[0] - 120} B or so), which the interface does not carry over`);
}

function bar(value: number, max: number): string {
  return '#'.repeat(Math.max(1, Math.round((value / max) * 20))).padEnd(20);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
