/**
 * `npm run bench`: speed figures as ratios against baselines measured in the
 * same run, so they mean the same on any machine. Prints; never fails on a figure.
 */
import { startEmulator, type Emulator } from '../emulator/server';
import { measureFirstEvent, type ClientFirstEvent } from './firstEvent';
import { PACING_WINDOW_MS, measurePacing, measureTwoHosts, type BurstFigures } from './pacing';
import { BENCH_FAIRNESS, largestShareGap, measureFairness, median } from './fairness';
import { fmt } from './stats';
import { measureThroughput } from './throughput';
import { measureSessionBytes, type SessionBytesResult } from './sessionBytes';
import { oneFilePerTurn, retryJitterTask } from './sessionWorkloads';
import { measureWorkspaceSearch } from './workspaceSearch';
import { measureNearMiss } from './nearMiss';
import { LONG_TURNS, SMALL_WINDOW, measureSaveTimes, type LongSessionResult, type SaveTimes } from './longSession';
import { measureSubagents } from './subagents';
import { measureHostCost, measureLongSessionCost, printHeapAfterClose, type HeapBaseline } from './hostCost';
import { closeBareHttp } from './bareHttp';
import { measureSandboxCost } from './sandboxCost';
import { measureTelemetryCost, printTelemetryCost } from './telemetryCost';

async function main(): Promise<void> {
  // `npm run bench -- sandbox`: what the auto sandbox adds to a command (issue 36).
  if (process.argv.includes('sandbox')) return measureSandboxCost();
  // `npm run bench -- search`: the workspace search figures alone.
  if (process.argv.includes('search')) return measureWorkspaceSearch();
  // `npm run bench -- host`: the agent's own time per step, the event-loop blocks and the heap (issue 25).
  if (process.argv.includes('host')) return measureHostAlone();
  // `npm run bench -- subagents`: the parent's billed input tokens with and without run_subagent (a few seconds).
  if (process.argv.includes('subagents')) return measureSubagents();
  // `npm run bench -- edits`: the near-miss edit table alone (no emulator, a few seconds).
  if (process.argv.includes('edits')) return void measureNearMiss();
  // `npm run bench -- pacing`: the pacing bursts alone, on the emulator's short window (about half a minute).
  if (process.argv.includes('pacing')) return printPacing();
  // `npm run bench -- fairness`: three background sessions and chat questions on one key (issue 40, about 20 s).
  if (process.argv.includes('fairness')) return printFairness();
  const emulator = await startEmulator({ port: 0, keys: [{ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }], rpm: 1_000_000, tpm: 1_000_000_000 });
  // `npm run bench -- bytes`: the 30-turn session bytes figure alone (a few seconds).
  if (process.argv.includes('bytes')) return printSessionBytesOnly(emulator);
  // `npm run bench -- request`: the per-request figures alone (stream throughput and first-event overhead).
  if (process.argv.includes('request')) return printPerRequestOnly(emulator);
  // `npm run bench -- telemetry`: requests with export on to a collector that is down, against export off (issue 41).
  if (process.argv.includes('telemetry')) return printTelemetryOnly(emulator);
  try {
    await printPerRequest(emulator);
    printTelemetryCost(await measureTelemetryCost(emulator, 200));
    printSessionBytes(await measureSessionBytes(emulator, retryJitterTask), retryJitterTask.task);
    await printProjectInstructionBytes(emulator);
    console.log('\n  The same ratio when every turn reads one file of a given size (what each turn adds decides it):');
    for (const lines of [30, 60, 150, 300, 400]) {
      const b = await measureSessionBytes(emulator, oneFilePerTurn(lines));
      console.log(`    ${String(lines).padStart(4)} lines (~${fmt((lines * 26) / 1024, 1)} KB) a turn: ratio ${fmt(sum(b.stateful) / sum(b.stateless), 3)}`);
    }
  } finally {
    closeBareHttp();
    await emulator.close();
  }
  await printPacing();
  await printFairness();
  printHeapAfterClose(await printLongSession200());
  await measureHostCost();
  await measureWorkspaceSearch();
  measureNearMiss();
  await measureSandboxCost();
}

/** The long session's figures; once this returns nothing holds the session (closed), so its heap may be collected. */
async function printLongSession200(): Promise<HeapBaseline> {
  const { long, baseline } = await measureLongSessionCost();
  printLongSession(long, await measureSaveTimes(long.finalState));
  return baseline;
}

async function measureHostAlone(): Promise<void> {
  printHeapAfterClose(await printLongSession200());
  await measureHostCost();
}

/** Stream throughput and first-event overhead, each beside its target. */
async function printPerRequest(emulator: Emulator): Promise<void> {
  const t = await measureThroughput(emulator, 20_000, 15);
  console.log(`\nStream throughput: a responses stream of ${t.deltas} text deltas (${fmt(t.bytes / 1e6)} MB), median of 15 interleaved rounds`);
  console.log(`  bare eventsource-parser + JSON.parse  ${fmt(t.bare, 0)} deltas/s   (baseline, the practical limit)`);
  console.log(
    `  the same over bare node:http          ${fmt(t.bareHttp, 0)} deltas/s   ${fmt(t.bareHttp / t.bare)}× bare   (second baseline: the extension's client sends over node:http)`,
  );
  console.log(`  GatewayClient.respondStream (fetch)   ${fmt(t.client, 0)} deltas/s   ${fmt(t.client / t.bare)}× bare`);
  console.log(
    `    as the extension builds it          ${fmt(t.extension, 0)} deltas/s   ${fmt(t.extension / t.bare)}× bare   (target ≥ 0.95×); ${fmt(t.extension / t.bareHttp)}× bare node:http`,
  );
  console.log(`  openai package responses.create       ${fmt(t.openai, 0)} deltas/s   ${fmt(t.openai / t.bare)}× bare`);
  console.log('  (the client merges the text deltas of one network read into one event; the figure counts wire deltas)');
  console.log(`  extension's client / openai package   ${fmt(t.extension / t.openai)}×   (target ≥ 7×)`);

  const f = await measureFirstEvent(emulator, 200);
  console.log(`\nFirst-event overhead: call → first text delta, ${f.samples} interleaved samples against the emulator`);
  console.log(`  bare fetch                     median ${fmt(f.bareMedianMs, 3)} ms, CPU ${fmt(f.bareCpuMedianMs, 3)} ms   (baseline)`);
  console.log(
    `  bare node:http                 median ${fmt(f.bareHttpMedianMs, 3)} ms, CPU ${fmt(f.bareHttpCpuMedianMs, 3)} ms   (second baseline: the extension's client sends over node:http)`,
  );
  const client = (name: string, c: ClientFirstEvent, target: string) =>
    console.log(
      `  ${name.padEnd(30)} median ${fmt(c.medianMs, 3)} ms, overhead ${fmt(c.overheadMedianMs, 3)} ms (p90 ${fmt(c.overheadP90Ms, 3)} ms)${target}; ` +
        `CPU overhead ${fmt(c.cpuOverheadMedianMs, 3)} ms`,
    );
  client('GatewayClient alone (fetch)', f.plain, '');
  client('as the extension builds it', f.extension, '   (target ≤ 0.3 ms median)');
  console.log(
    '    (node:http, shared rate-window file and its lock, key-origin check, key redaction, usage log file; the CPU figure is what load does not inflate)',
  );
  console.log(
    `    over bare node:http: ${fmt(f.extension.overHttpMedianMs, 3)} ms median, CPU ${fmt(f.extension.cpuOverHttpMedianMs, 3)} ms   (the client's own code, the HTTP stack apart)`,
  );
}

async function printPerRequestOnly(emulator: Emulator): Promise<void> {
  try {
    await printPerRequest(emulator);
  } finally {
    closeBareHttp();
    await emulator.close();
  }
}

async function printTelemetryOnly(emulator: Emulator): Promise<void> {
  try {
    printTelemetryCost(await measureTelemetryCost(emulator, 200));
  } finally {
    closeBareHttp();
    await emulator.close();
  }
}

async function printSessionBytesOnly(emulator: Emulator): Promise<void> {
  try {
    printSessionBytes(await measureSessionBytes(emulator, retryJitterTask), retryJitterTask.task);
  } finally {
    await emulator.close();
  }
}

async function printPacing(): Promise<void> {
  console.log(`\nPacing under bursts: requests sent at once on a ${PACING_WINDOW_MS} ms emulator window, real time`);
  console.log("  (ideal: each request sent the moment the window has room, plus one request's latency; goal 0 429s and ≥ 0.90)");
  for (const b of await measurePacing()) printBurst(b, `(unpaced: ${b.unpacedTooMany} of ${b.requests} refused)`);
  console.log('  Two VS Code windows on one key (two clients, each with its own tracker):');
  for (const b of await measureTwoHosts()) printBurst(b, '');
}

async function printFairness(): Promise<void> {
  const f = await measureFairness(BENCH_FAIRNESS);
  const { windowMs, rpm, durationMs, questions } = f.options;
  console.log(
    `\nSessions sharing the key: 3 background sessions (tool rounds of 0, 20 and 60 ms between requests) and ${questions} chat questions, ` +
      `${fmt(durationMs / 1000, 0)} s on a ${windowMs} ms emulator window of ${rpm} requests, real time`,
  );
  console.log(`  429s                                   ${f.tooMany}   (target 0)`);
  console.log(
    `  chat's extra wait for its first event  median ${fmt(median(f.chatExtraWaitsMs), 0)} ms, max ${fmt(Math.max(...f.chatExtraWaitsMs), 0)} ms ` +
      `(alone ${fmt(f.chatAloneMedianMs, 1)} ms)   (target ≤ one slot, ${fmt(f.slotMs, 0)} ms)`,
  );
  const total = f.sessionRequests.reduce((sum, n) => sum + n, 0);
  console.log(
    `  each session's share of requests       ${f.sessionRequests.map((n) => `${fmt((100 * n) / Math.max(1, total), 1)} %`).join(', ')} of ${total}; ` +
      `largest gap from equal ${fmt(100 * largestShareGap(f.sessionRequests), 1)} %   (target ≤ 20 %)`,
  );
}

function printBurst(b: BurstFigures, note: string): void {
  console.log(
    `  ${b.name.padEnd(60)} 429s ${String(b.tooMany).padStart(2)}   ${fmt(b.elapsedMs, 0).padStart(5)} ms against ideal ${fmt(b.idealMs, 0).padStart(5)} ms: ` +
      `utilisation ${fmt(b.idealMs / b.elapsedMs)}   ${note}`,
  );
}

function printLongSession(r: LongSessionResult, saves: SaveTimes): void {
  const { compacted: c, uncompacted: u } = r;
  console.log(`\nLong session: ${LONG_TURNS} scripted turns, each reading a 3 KB file, on a model with a ${SMALL_WINDOW.toLocaleString('en-US')}-token window`);
  console.log(
    `  with compaction     ${c.status} after ${c.turns} turns, ${c.requests} requests, ${c.compactions} compactions, ${c.contextErrors} context errors, ${c.otherErrors} other errors`,
  );
  console.log(
    `  largest request     ${c.largestInput.toLocaleString('en-US')} input tokens   (threshold ${r.threshold.toLocaleString('en-US')}: 80 % of the window)`,
  );
  console.log(
    `  without compaction  ${u.status} after ${u.turns} turns on a ${(1_000_000).toLocaleString('en-US')}-token window, largest request ${u.largestInput.toLocaleString('en-US')} tokens`,
  );
  console.log(
    `  billed input        ${c.billedInput.toLocaleString('en-US')} against ${u.billedInput.toLocaleString('en-US')} tokens: ratio ${fmt(c.billedInput / u.billedInput, 3)}   (target ≤ 0.35)`,
  );
  const j = saves.journal;
  const w = saves.wholeFile;
  console.log(
    '  save time per step, the session saved again item by item (median at turns 5–15 → 190–200; mean at turns 1–40 → 161–200, periodic snapshots included):',
  );
  console.log(
    `    journal + snapshot   ${fmt(j.early, 3)} → ${fmt(j.late, 3)} ms: ${fmt(j.late / j.early)}×; mean ${fmt(j.earlyMean, 3)} → ${fmt(j.lateMean, 3)} ms: ${fmt(j.lateMean / j.earlyMean)}×   (target ≤ 2×)`,
  );
  console.log(
    `    whole-file rewrite   ${fmt(w.early, 3)} → ${fmt(w.late, 3)} ms: ${fmt(w.late / w.early)}×; mean ${fmt(w.earlyMean, 3)} → ${fmt(w.lateMean, 3)} ms: ${fmt(w.lateMean / w.earlyMean)}×   (the old way, for reference)`,
  );
}

function printSessionBytes(b: SessionBytesResult, task: string): void {
  const turns = b.stateful.length;
  console.log(`\nBytes sent per request over a ${turns}-turn agent session on real code ("${task}")`);
  console.log('  turn   stateful (previous_response_id)   stateless (full history)');
  const max = Math.max(...b.stateless);
  for (let i = 0; i < turns; i++) {
    console.log(
      `  ${String(i + 1).padStart(4)}   ${String(b.stateful[i]).padStart(12)} B ${bar(b.stateful[i], max)}   ${String(b.stateless[i]).padStart(9)} B ${bar(b.stateless[i], max)}`,
    );
  }
  console.log(
    `  totals: ${sum(b.stateful).toLocaleString('en-US')} B against ${sum(b.stateless).toLocaleString('en-US')} B: ratio ${fmt(sum(b.stateful) / sum(b.stateless), 3)} (target ≤ 0.100 at 30 turns)`,
  );
  const fixed = [...new Set(b.fixed.slice(1))].join(' or ');
  console.log(
    `  flat: every later stateful request is ${fixed} B of model, instructions, tools and previous_response_id (the interface carries none of them over) plus only that turn's new items;` +
      ` the stateless request grows by ${fmt((b.stateless.at(-1)! - b.stateless[0]) / (turns - 1), 0)} B a turn on average`,
  );
}

/** Where a project's AGENTS.md goes: one input item (kept in the chain) against `instructions` (sent again with every request). */
async function printProjectInstructionBytes(emulator: Emulator): Promise<void> {
  const agentsMd = sampleAgentsMd();
  const asItem = await measureSessionBytes(emulator, retryJitterTask, { agentsMd, via: 'input' });
  const inInstructions = await measureSessionBytes(emulator, retryJitterTask, { agentsMd, via: 'instructions' });
  console.log(`\n  With a ${fmt(agentsMd.length / 1024, 1)} KB AGENTS.md in the same session:`);
  console.log(
    `    sent once as an input item (what the extension does)  ${sum(asItem.stateful).toLocaleString('en-US')} B, ratio ${fmt(sum(asItem.stateful) / sum(asItem.stateless), 3)}`,
  );
  console.log(
    `    in \`instructions\` with every request                   ${sum(inInstructions.stateful).toLocaleString('en-US')} B, ratio ${fmt(sum(inInstructions.stateful) / sum(inInstructions.stateless), 3)}`,
  );
}

/** A plausible project AGENTS.md of about 2 KB. */
function sampleAgentsMd(): string {
  const rules = [
    '# Working in this repository',
    '- Run `npm run lint` and `npm test` after every change; both must pass.',
    '- TypeScript strict mode; no `any` outside tests. Prefer small functions with names that say what they do.',
    '- Every async function takes an AbortSignal and passes it on.',
    '- Errors the user must tell apart get their own class in src/gateway/common/errors.ts.',
    '- Tests run against the local emulator over real HTTP; never mock fetch.',
    '- Do not reformat code you do not otherwise change.',
    '- Comments say why, not what. Keep the README in step with user-visible changes.',
  ];
  return `${rules.join('\n')}\n`.repeat(3);
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
