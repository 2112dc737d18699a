/**
 * `npm run bench`: speed figures as ratios against baselines measured in the
 * same run, so they mean the same on any machine. Prints; never fails on a figure.
 */
import { startEmulator } from '../emulator/server';
import { measureFirstEvent } from './firstEvent';
import { fmt } from './stats';
import { measureThroughput } from './throughput';

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
  } finally {
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
