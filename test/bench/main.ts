/**
 * `npm run bench`: speed figures as ratios against baselines measured in the
 * same run, so they mean the same on any machine. Prints; never fails on a figure.
 */
import { startEmulator } from '../emulator/server';
import { measureFirstEvent } from './firstEvent';
import { PACING_WINDOW_MS, measurePacing, measureTwoHosts, type BurstFigures } from './pacing';
import { fmt } from './stats';
import { measureThroughput } from './throughput';
import { measureSessionBytes, type SessionBytesResult } from './sessionBytes';
import { oneFilePerTurn, retryJitterTask } from './sessionWorkloads';

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

    printSessionBytes(await measureSessionBytes(emulator, retryJitterTask), retryJitterTask.task);
    console.log('\n  The same ratio when every turn reads one file of a given size (what each turn adds decides it):');
    for (const lines of [30, 60, 150, 300, 400]) {
      const b = await measureSessionBytes(emulator, oneFilePerTurn(lines));
      console.log(`    ${String(lines).padStart(4)} lines (~${fmt((lines * 26) / 1024, 1)} KB) a turn: ratio ${fmt(sum(b.stateful) / sum(b.stateless), 3)}`);
    }
  } finally {
    await emulator.close();
  }
  await printPacing();
}

async function printPacing(): Promise<void> {
  console.log(`\nPacing under bursts: requests sent at once on a ${PACING_WINDOW_MS} ms emulator window, real time`);
  console.log('  (ideal: each request sent the moment the window has room, plus one request\'s latency; goal 0 429s and ≥ 0.90)');
  for (const b of await measurePacing()) printBurst(b, `(unpaced: ${b.unpacedTooMany} of ${b.requests} refused)`);
  console.log('  Two VS Code windows on one key (two clients, each with its own tracker):');
  for (const b of await measureTwoHosts()) printBurst(b, '');
}

function printBurst(b: BurstFigures, note: string): void {
  console.log(
    `  ${b.name.padEnd(60)} 429s ${String(b.tooMany).padStart(2)}   ${fmt(b.elapsedMs, 0).padStart(5)} ms against ideal ${fmt(b.idealMs, 0).padStart(5)} ms: ` +
      `utilisation ${fmt(b.idealMs / b.elapsedMs)}   ${note}`,
  );
}

function printSessionBytes(b: SessionBytesResult, task: string): void {
  const turns = b.stateful.length;
  console.log(`\nBytes sent per request over a ${turns}-turn agent session on real code ("${task}")`);
  console.log('  turn   stateful (previous_response_id)   stateless (full history)');
  const max = Math.max(...b.stateless);
  for (let i = 0; i < turns; i++) {
    console.log(`  ${String(i + 1).padStart(4)}   ${String(b.stateful[i]).padStart(12)} B ${bar(b.stateful[i], max)}   ${String(b.stateless[i]).padStart(9)} B ${bar(b.stateless[i], max)}`);
  }
  console.log(`  totals: ${sum(b.stateful).toLocaleString('en-US')} B against ${sum(b.stateless).toLocaleString('en-US')} B: ratio ${fmt(sum(b.stateful) / sum(b.stateless), 3)} (target ≤ 0.100 at 30 turns)`);
  const fixed = [...new Set(b.fixed.slice(1))].join(' or ');
  console.log(
    `  flat: every later stateful request is ${fixed} B of model, instructions, tools and previous_response_id (the interface carries none of them over) plus only that turn's new items;` +
      ` the stateless request grows by ${fmt((b.stateless.at(-1)! - b.stateless[0]) / (turns - 1), 0)} B a turn on average`,
  );
}

function sum(values: number[]): number {
  return values.reduce((a, v) => a + v, 0);
}

function bar(value: number, max: number): string {
  return '#'.repeat(Math.max(1, Math.round((value / max) * 20))).padEnd(20);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
