/**
 * A scripted 200-turn agent session on a model with a 32k window, each turn
 * reading a 3 KB file: compaction keeps it going. Against the same session
 * without compaction on a window big enough to hold it all: billed input
 * tokens as the emulator counts them, and the largest request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BUDGETS } from '../../src/settings/common/valueSets';
import { AgentEngine } from '../../src/agent/common/engine/engine';
import { addUserMessage, newSession, type AgentSessionState } from '../../src/sessionModel/common/sessionState';
import { ModelWindows } from '../../src/models/common/modelWindows';
import { SessionJournal } from '../../src/sessionModel/common/sessionJournal';
import { NodeJournalFolder } from '../../src/agent/node/nodeJournalFolder';
import type { ScriptedTurn } from '../emulator/types';
import { benchEngineDeps } from './benchEngine';
import { largestBlock, type Block } from './hostBlocks';
import { startChildEmulator, type ChildEmulator } from './childEmulator';

export const LONG_TURNS = 200;
export const SMALL_WINDOW = 32_000;
const BIG_WINDOW = 1_000_000;

export interface LongSessionRun {
  requests: number;
  contextErrors: number;
  otherErrors: number;
  largestInput: number;
  billedInput: number;
  compactions: number;
  turns: number;
  status: string;
}

export interface LongSessionResult {
  compacted: LongSessionRun;
  /** The compacted session as it ended. */
  finalState: AgentSessionState;
  uncompacted: LongSessionRun;
  threshold: number;
  /** The largest event-loop block while either session ran: the engine's work only (the files made, the emulator's log read and the clean-up left out). */
  block: Block;
}

/** Runs the session twice: gw-code with a 32k window (compacting), gw-chat-pro with a window that holds it all. */
export async function measureLongSession(): Promise<LongSessionResult> {
  // In a child process: only the extension's own work is counted in this process's figures.
  const emulator = await startChildEmulator({
    rpm: 1_000_000,
    tpm: 1_000_000_000,
    contextWindows: { 'gw-code': SMALL_WINDOW, 'gw-chat-pro': BIG_WINDOW },
    signal: AbortSignal.timeout(60_000),
  });
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-long-'));
  try {
    const line = '  total = total * 31 + 7; // keep the sum bounded\n';
    for (let i = 0; i < LONG_TURNS; i++) writeFileSync(join(root, `m${i}.ts`), `export function f${i}(total: number) {\n${line.repeat(60)}}\n`.slice(0, 3_000));
    const compacted = await runOnce(emulator, root, 'gw-code', SMALL_WINDOW);
    const uncompacted = await runOnce(emulator, root, 'gw-chat-pro', BIG_WINDOW);
    const block = compacted.block.cpuBlockMs >= uncompacted.block.cpuBlockMs ? compacted.block : uncompacted.block;
    return { compacted: compacted.run, finalState: compacted.state, uncompacted: uncompacted.run, threshold: SMALL_WINDOW * 0.8, block };
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}

async function runOnce(
  emulator: ChildEmulator,
  root: string,
  model: string,
  contextWindow: number,
): Promise<{ run: LongSessionRun; state: AgentSessionState; block: Block }> {
  const turns: ScriptedTurn[] = [
    ...Array.from({ length: LONG_TURNS }, (_, i) => ({ text: `Reading m${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `m${i}.ts` } }], model })),
    { text: 'All modules read.', model },
  ];
  const control = AbortSignal.timeout(60_000);
  await emulator.reset(control);
  await emulator.addKey({ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }, control);
  await emulator.script('bench-key', turns, control);
  const state = newSession({ id: `long-${model}`, title: 'Read every module and summarise them.', model, now: Date.now() });
  addUserMessage(state, state.title);
  const windows = new ModelWindows(
    () => ({ [model]: { contextWindow } }),
    () => emulator.baseUrl,
  );
  const engine = new AgentEngine({
    ...benchEngineDeps(() => emulator.baseUrl, root),
    budgets: () => ({ ...DEFAULT_BUDGETS, maxTurns: LONG_TURNS + 10, maxTokens: Number.MAX_SAFE_INTEGER, maxWallTimeMs: Number.MAX_SAFE_INTEGER }),
    modelLimits: (m) => windows.limitsOf(m),
  });
  const { blockMs, cpuBlockMs } = await largestBlock(() => engine.run(state, new AbortController().signal, () => undefined));
  const sent = (await emulator.requests(AbortSignal.timeout(60_000))).filter((r) => r.path === '/v1/responses');
  const run = {
    requests: sent.length,
    contextErrors: sent.filter((r) => r.errorCode === 'context_length_exceeded').length,
    otherErrors: sent.filter((r) => r.status !== 200 && r.errorCode !== 'context_length_exceeded').length,
    largestInput: Math.max(...sent.map((r) => r.inputTokens ?? 0)),
    billedInput: sent.reduce((sum, r) => sum + (r.inputTokens ?? 0), 0),
    compactions: state.compactions?.length ?? 0,
    turns: state.turns,
    status: state.status,
  };
  return { run, state, block: { blockMs, cpuBlockMs } };
}

export interface SaveTimes {
  /** Median ms of one save while the session is at turns 5–15 and 190–200, and the mean at turns 1–40 and 161–200 (periodic snapshots included). */
  journal: { early: number; late: number; earlyMean: number; lateMean: number };
  wholeFile: { early: number; late: number; earlyMean: number; lateMean: number };
}

/**
 * Save time per step as the session grows: the real session's transcript is
 * saved again item by item (each item a step, as the engine saves after each
 * call's output and each answer), once through the journal and once as the
 * whole-file rewrite it replaces. Done after the session, in a quiet process,
 * so the agent's own work does not blur the milliseconds.
 */
export async function measureSaveTimes(final: AgentSessionState): Promise<SaveTimes> {
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-saves-'));
  try {
    const journal = new SessionJournal(new NodeJournalFolder(join(root, 'journal')));
    const whole = new NodeJournalFolder(join(root, 'whole'));
    const journalMs: { turn: number; ms: number }[] = [];
    const wholeMs: { turn: number; ms: number }[] = [];
    const state: AgentSessionState = { ...structuredClone(final), transcript: [], turns: 0, compactions: [] };
    for (const item of final.transcript) {
      state.transcript.push(item);
      if (item.type === 'function_call') state.turns++;
      state.unsent = [item];
      state.updatedAt++;
      let start = performance.now();
      await journal.save(state);
      journalMs.push({ turn: state.turns, ms: performance.now() - start });
      start = performance.now();
      await whole.writeAtomic(`${state.id}.json`, JSON.stringify(state));
      wholeMs.push({ turn: state.turns, ms: performance.now() - start });
    }
    const figures = (all: { turn: number; ms: number }[]) => {
      const pick = (from: number, to: number) => all.filter((s) => s.turn >= from && s.turn <= to).map((s) => s.ms);
      return { early: median(pick(5, 15)), late: median(pick(190, 200)), earlyMean: mean(pick(1, 40)), lateMean: mean(pick(161, 200)) };
    };
    return { journal: figures(journalMs), wholeFile: figures(wholeMs) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
}

function mean(values: number[]): number {
  return values.reduce((a, v) => a + v, 0) / values.length;
}
