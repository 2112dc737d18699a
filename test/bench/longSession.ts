/**
 * A scripted 200-turn agent session on a model with a 32k window, each turn
 * reading a 3 KB file: compaction keeps it going. Against the same session
 * without compaction on a window big enough to hold it all: billed input
 * tokens as the emulator counts them, and the largest request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BUDGETS } from '../../src/core/agent/budgets';
import { AgentEngine } from '../../src/core/agent/engine';
import { AGENT_INSTRUCTIONS } from '../../src/core/agent/instructions';
import { addUserMessage, newSession, type AgentSessionState } from '../../src/core/agent/sessionState';
import { GatewayClient, ModelWindows } from '../../src/core/api';
import { systemClock, type SessionStore } from '../../src/core/ports';
import { allTools } from '../../src/core/tools/registry';
import { defaultProtectedFiles } from '../../src/core/tools/tool';
import { NodeCommandRunner, NodeFileChanges, NodeWorkspaceFiles } from '../../src/node';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ScriptedTurn } from '../emulator/types';

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
  uncompacted: LongSessionRun;
  threshold: number;
}

/** Runs the session twice: gw-code with a 32k window (compacting), gw-chat-pro with a window that holds it all. */
export async function measureLongSession(store?: SessionStore<AgentSessionState>): Promise<LongSessionResult> {
  const emulator = await startEmulator({ port: 0, rpm: 1_000_000, tpm: 1_000_000_000, contextWindows: { 'gw-code': SMALL_WINDOW, 'gw-chat-pro': BIG_WINDOW } });
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-long-'));
  try {
    const line = '  total = total * 31 + 7; // keep the sum bounded\n';
    for (let i = 0; i < LONG_TURNS; i++) writeFileSync(join(root, `m${i}.ts`), `export function f${i}(total: number) {\n${line.repeat(60)}}\n`.slice(0, 3_000));
    const compacted = await runOnce(emulator, root, 'gw-code', SMALL_WINDOW, store);
    const uncompacted = await runOnce(emulator, root, 'gw-chat-pro', BIG_WINDOW);
    return { compacted, uncompacted, threshold: SMALL_WINDOW * 0.8 };
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}

async function runOnce(emulator: Emulator, root: string, model: string, contextWindow: number, store?: SessionStore<AgentSessionState>): Promise<LongSessionRun> {
  const turns: ScriptedTurn[] = [
    ...Array.from({ length: LONG_TURNS }, (_, i) => ({ text: `Reading m${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `m${i}.ts` } }], model })),
    { text: 'All modules read.', model },
  ];
  emulator.reset();
  emulator.addKey({ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 });
  emulator.script('bench-key', turns);
  const state = newSession({ id: `long-${model}`, title: 'Read every module and summarise them.', model, now: Date.now() });
  addUserMessage(state, state.title);
  const windows = new ModelWindows(() => ({ [model]: { contextWindow } }), () => emulator.baseUrl);
  const engine = new AgentEngine({
    client: new GatewayClient({ baseUrl: () => emulator.baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' }),
    store: store ?? { save: async () => undefined, load: async () => undefined, list: async () => [] },
    approver: { approve: async () => true },
    tools: () => allTools,
    toolContext: { files: new NodeWorkspaceFiles(root), changes: new NodeFileChanges(root), commands: new NodeCommandRunner(root), protectedFiles: defaultProtectedFiles },
    policy: () => ({ mode: 'auto', deniedCommands: [] }),
    budgets: () => ({ ...DEFAULT_BUDGETS, maxTurns: LONG_TURNS + 10, maxTokens: Number.MAX_SAFE_INTEGER, maxWallTimeMs: Number.MAX_SAFE_INTEGER }),
    instructions: AGENT_INSTRUCTIONS,
    clock: systemClock,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    modelLimits: (m) => windows.limitsOf(m),
  });
  await engine.run(state, new AbortController().signal, () => undefined);
  const sent = emulator.requests.filter((r) => r.path === '/v1/responses');
  return {
    requests: sent.length,
    contextErrors: sent.filter((r) => r.errorCode === 'context_length_exceeded').length,
    otherErrors: sent.filter((r) => r.status !== 200 && r.errorCode !== 'context_length_exceeded').length,
    largestInput: Math.max(...sent.map((r) => r.inputTokens ?? 0)),
    billedInput: sent.reduce((sum, r) => sum + (r.inputTokens ?? 0), 0),
    compactions: state.compactions?.length ?? 0,
    turns: state.turns,
    status: state.status,
  };
}
