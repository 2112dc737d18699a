/**
 * `npm run bench -- host`, and part of the full run: what the extension costs the extension host
 * (issue 25). The agent's own time per step, the largest event-loop block during each heavy task,
 * and the heap a 200-turn session adds and gives back. Every figure beside its target.
 */
import { rm } from 'node:fs/promises';
import { measureAgentStep } from './agentStep';
import { makeBigWorkspace } from './bigWorkspace';
import { BLOCK_TARGET_MS, CPU_SCOPE, heapUsedMb, measureRetentionBlock, measureSearchBlock, measureUsageBlock, printBlock } from './hostBlocks';
import { LONG_TURNS, measureLongSession, type LongSessionResult } from './longSession';
import { fmt } from './stats';

/** The heap a session may add (issue 25). */
const HEAP_TARGET_MB = 50;

export async function measureHostCost(): Promise<void> {
  const root = await makeBigWorkspace();
  try {
    // The search first: the agent step's writes replace file 0, one of the 100 files that hold the needle.
    console.log('\nLargest event-loop block of the extension host while search_text runs:');
    await measureSearchBlock(root);
    await measureAgentStep(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  await measureUsageBlock();
  await measureRetentionBlock();
}

/** The heap before a long session, to compare with while it is held and after it is let go. */
export interface HeapBaseline {
  beforeMb: number;
}

/**
 * The 200-turn session of longSession.ts, with the largest event-loop block while it runs and the
 * heap it adds (collected, the finished session still held); the largest heap seen meanwhile too.
 */
export async function measureLongSessionCost(): Promise<{ long: LongSessionResult; baseline: HeapBaseline }> {
  const beforeMb = heapUsedMb();
  let peakMb = beforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, process.memoryUsage().heapUsed / (1024 * 1024))), 50);
  try {
    const long = await measureLongSession();
    const heldMb = heapUsedMb();
    console.log(`\nThe extension host during the ${LONG_TURNS}-turn sessions below (two sessions, compacting and not; ${CPU_SCOPE}):`);
    printBlock(`${LONG_TURNS}-turn session (the emulator in a child process)`, long.block);
    console.log(
      `  heap growth: ${fmt(heldMb - beforeMb, 1)} MB with the finished session held, ${fmt(peakMb - beforeMb, 1)} MB at its largest (uncollected)   (target ≤ ${HEAP_TARGET_MB} MB)`,
    );
    return { long, baseline: { beforeMb } };
  } finally {
    clearInterval(sampler);
  }
}

/** Called once nothing holds the session any more: what is left of it after a collection. */
export function printHeapAfterClose(baseline: HeapBaseline): void {
  console.log(`  heap after the session was closed: ${fmt(heapUsedMb() - baseline.beforeMb, 1)} MB above before it   (target: back near 0)`);
}

export { BLOCK_TARGET_MS };
