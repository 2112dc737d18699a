/**
 * The agent's own time per step (issue 25): from the end of a model answer to the next request,
 * with the time its tools took left out: what the engine itself adds (journal save, checkpoint
 * capture, compaction check, usage record, events). On the 39,000-file workspace, in a scripted
 * session that writes 51 files and then reads; the journal, checkpoints and usage log on real
 * files. Then the largest event-loop block while a checkpoint restore puts 50 files back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BUDGETS } from '../../src/settings/common/valueSets';
import { AgentEngine } from '../../src/agent/common/engine/engine';
import { AGENT_INSTRUCTIONS } from '../../src/customization/common/instructions';
import { addUserMessage, newSession, type AgentSessionState } from '../../src/sessionModel/common/sessionState';
import { SessionJournal } from '../../src/sessionModel/common/sessionJournal';
import { NodeJournalFolder } from '../../src/agent/node/nodeJournalFolder';
import { silentLogger, systemClock } from '../../src/base/common/ports';
import type { SessionStore } from '../../src/sessionModel/common/sessionPorts';
import { CheckpointStore } from '../../src/checkpoints/common/checkpoints';
import { NodeCheckpointFolder } from '../../src/checkpoints/node/nodeCheckpoints';
import { NodeWorkspaceRestore } from '../../src/checkpoints/node';
import { GatewayClient } from '../../src/gateway/common';
import { allTools } from '../../src/tools/common/registry';
import { type AgentTool } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { UsageLog } from '../../src/usage/common/usageLog';
import { FileUsageStorage } from '../../src/usage/node/fileUsageStorage';
import type { ScriptedTurn } from '../emulator/types';
import { workspaceFile } from './bigWorkspace';
import { startChildEmulator } from './childEmulator';
import { CPU_SCOPE, hostCpuMs, largestBlock, printBlock } from './hostBlocks';
import { fmt } from './stats';

const WRITES = 51;
const READS = 100;

/** Where the time between two requests went, in wall-clock and in CPU time (hostCpuMs; tools' left out of both). */
class StepClock {
  readonly ownMs: number[] = [];
  readonly ownCpuMs: number[] = [];
  private answerEnded: { wall: number; cpu: number } | undefined;
  private tools = { wall: 0, cpu: 0 };

  requestStarts(): void {
    if (this.answerEnded !== undefined) {
      this.ownMs.push(performance.now() - this.answerEnded.wall - this.tools.wall);
      this.ownCpuMs.push(hostCpuMs() - this.answerEnded.cpu - this.tools.cpu);
    }
    this.answerEnded = undefined;
  }

  answerEnds(): void {
    this.answerEnded = { wall: performance.now(), cpu: hostCpuMs() };
    this.tools = { wall: 0, cpu: 0 };
  }

  async tool<T>(work: () => Promise<T>): Promise<T> {
    const started = { wall: performance.now(), cpu: hostCpuMs() };
    try {
      return await work();
    } finally {
      this.tools.wall += performance.now() - started.wall;
      this.tools.cpu += hostCpuMs() - started.cpu;
    }
  }
}

function percentiles(values: readonly number[]): { median: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99) };
}

/** The client as the engine sees it, with each stream's start and end told to the step clock. */
function timedClient(client: GatewayClient, clock: StepClock): GatewayClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'respondStream') return Reflect.get(target, property, receiver) as unknown;
      return (...args: Parameters<GatewayClient['respondStream']>) => {
        clock.requestStarts();
        const events = target.respondStream(...args);
        return (async function* () {
          try {
            yield* events;
          } finally {
            clock.answerEnds();
          }
        })();
      };
    },
  });
}

/** Each tool with its prepare and execute timed as tool time (left out of the agent's own). */
function timedTools(clock: StepClock): AgentTool[] {
  return allTools.map((tool) => ({
    ...tool,
    prepare: (rawArgs, ctx, signal) =>
      clock.tool(async () => {
        const prepared = await tool.prepare(rawArgs, ctx, signal);
        return { ...prepared, execute: (inner: AbortSignal) => clock.tool(() => prepared.execute(inner)) };
      }),
  }));
}

export async function measureAgentStep(root: string): Promise<void> {
  // In a child process: its work is not the extension's, and this process's CPU time is what is measured.
  const emulator = await startChildEmulator({ rpm: 1_000_000, tpm: 1_000_000_000, signal: AbortSignal.timeout(60_000) });
  const storage = await mkdtemp(join(tmpdir(), 'gateway-bench-step-'));
  try {
    const turns: ScriptedTurn[] = [
      ...Array.from({ length: WRITES }, (_, i) => ({
        text: `Updating file ${i}.`,
        toolCalls: [{ name: 'write_file', arguments: { path: workspaceFile(i * 37), content: `export const step${i} = ${i};\n` } }],
      })),
      ...Array.from({ length: READS }, (_, i) => ({
        text: `Reading file ${i}.`,
        toolCalls: [{ name: 'read_file', arguments: { path: workspaceFile(i * 37 + 1) } }],
      })),
      { text: 'Done.' },
    ];
    const control = AbortSignal.timeout(60_000);
    await emulator.addKey({ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }, control);
    await emulator.script('bench-key', turns, control);
    const clock = new StepClock();
    const usage = new UsageLog(new FileUsageStorage(join(storage, 'usage.jsonl')), systemClock, silentLogger);
    const client = new GatewayClient({
      baseUrl: () => emulator.baseUrl,
      apiKey: { getApiKey: async () => 'bench-key' },
      userAgent: 'bench',
      onUsage: (record) => void usage.record(record, AbortSignal.timeout(10_000)),
    });
    const journal = new SessionJournal(new NodeJournalFolder(join(storage, 'sessions')));
    const store: SessionStore<AgentSessionState> = { save: (state) => journal.save(state), load: async () => undefined, list: async () => [] };
    const checkpoints = new CheckpointStore(new NodeCheckpointFolder(join(storage, 'checkpoints', 'step-bench')), {
      maxBytes: 500_000_000,
      now: Date.now,
      nonce: () => Math.random().toString(36).slice(2, 10),
    });
    const files = new NodeWorkspaceFiles(root, { protectedFiles: () => defaultProtectedFiles });
    const state = newSession({ id: 'step-bench', title: 'Update the modules.', model: 'gw-code', now: Date.now() });
    addUserMessage(state, state.title);
    const engine = new AgentEngine({
      client: timedClient(client, clock),
      store,
      approver: { approve: async () => true },
      tools: () => timedTools(clock),
      toolContext: {
        files,
        changes: new NodeFileChanges(root),
        commands: new NodeCommandRunner(root),
        protectedFiles: defaultProtectedFiles,
        logger: silentLogger,
      },
      policy: () => ({ mode: 'auto', deniedCommands: [] }),
      budgets: () => ({ ...DEFAULT_BUDGETS, maxTurns: WRITES + READS + 10, maxTokens: Number.MAX_SAFE_INTEGER, maxWallTimeMs: Number.MAX_SAFE_INTEGER }),
      instructions: AGENT_INSTRUCTIONS,
      clock: systemClock,
      logger: silentLogger,
      checkpoint: async (current, changed, signal) => {
        const { checkpoint, dropped } = await checkpoints.capture(current, changed, files, signal);
        return { checkpoint: { id: checkpoint.id, label: checkpoint.label }, dropped: dropped.map((gone) => gone.label) };
      },
      keepOriginal: (path, before, signal) => checkpoints.keepOriginal(path, before, signal),
    });
    let events = 0;
    await engine.run(state, new AbortController().signal, () => void events++);
    const wall = percentiles(clock.ownMs);
    const cpu = percentiles(clock.ownCpuMs);
    console.log(
      `\nAgent step: the engine's own time from a model answer to the next request (tools excluded), ${clock.ownMs.length} steps on a ${(39_000).toLocaleString('en-US')}-file workspace, ${WRITES} files touched`,
    );
    console.log(`  (journal save, checkpoint capture, compaction check, usage record and events included; ${CPU_SCOPE}, the waits for a busy core left out)`);
    console.log(`  CPU    median ${fmt(cpu.median, 2)} ms   (target ≤ 5 ms)   p99 ${fmt(cpu.p99, 2)} ms   (target ≤ 50 ms)`);
    console.log(`  wall   median ${fmt(wall.median, 2)} ms   p99 ${fmt(wall.p99, 2)} ms   status ${state.status}, ${events} events`);
    const slowest = clock.ownCpuMs.map((ms, step) => ({ ms, step: step + 1 })).sort((a, b) => b.ms - a.ms);
    console.log(
      `  slowest steps (CPU): ${slowest
        .slice(0, 3)
        .map((s) => `step ${s.step} ${fmt(s.ms, 1)} ms`)
        .join(', ')}`,
    );
    await measureRestoreBlock(state, checkpoints, root);
  } finally {
    await rm(storage, { recursive: true, force: true });
    await emulator.close();
  }
}

/** Back to the first step's checkpoint: the 50 files written after it are put back as they were. */
async function measureRestoreBlock(state: AgentSessionState, checkpoints: CheckpointStore, root: string): Promise<void> {
  const signal = AbortSignal.timeout(300_000);
  const [first] = await checkpoints.list(signal);
  const workspace = { files: new NodeWorkspaceFiles(root, { protectedFiles: () => defaultProtectedFiles }), protectedFiles: defaultProtectedFiles };
  const block = await largestBlock(async () => {
    const plan = await checkpoints.planRestore(state, first.id, workspace, signal);
    await checkpoints.restore(state, plan, false, new NodeWorkspaceRestore(root, { protectedFiles: () => defaultProtectedFiles }), signal);
    return plan;
  });
  console.log('\nLargest event-loop block of the extension host while it works:');
  printBlock(`restore of ${block.result.files.length} files to a checkpoint`, block);
}
