/**
 * Bytes sent per request over a 30-turn tool-using agent session: the stateful
 * chain (only the new items, with previous_response_id) against what a
 * stateless client sends (the whole history every turn).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentEngine } from '../../src/core/agent/engine';
import { DEFAULT_BUDGETS } from '../../src/core/agent/budgets';
import { AGENT_INSTRUCTIONS } from '../../src/core/agent/instructions';
import { addUserMessage, newSession, type AgentSessionState } from '../../src/core/agent/sessionState';
import { GatewayClient, type ResponseInputItem } from '../../src/core/api';
import { systemClock, type SessionStore } from '../../src/core/ports';
import { allTools } from '../../src/core/tools/registry';
import { defaultProtectedFiles } from '../../src/core/tools/tool';
import { NodeCommandRunner, NodeFileChanges, NodeWorkspaceFiles } from '../../src/node';
import type { Emulator } from '../emulator/server';

export interface SessionBytesResult {
  stateful: number[];
  stateless: number[];
}

export async function measureSessionBytes(emulator: Emulator, turns: number, linesPerFile: number): Promise<SessionBytesResult> {
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  try {
    // One file to read each turn, of `linesPerFile` lines of code (about 26 bytes a line).
    for (let i = 0; i < turns; i++) writeFileSync(join(root, `module${i}.ts`), `export function f${i}(x: number): number {\n${'  x = x * 2 + 1; // step\n'.repeat(linesPerFile)}  return x;\n}\n`);
    emulator.script('bench-key', [
      ...Array.from({ length: turns - 1 }, (_, i) => ({ text: `Reading module${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `module${i}.ts` } }] })),
      { text: 'All modules read.' },
    ]);
    const before = emulator.requests.length;
    const state = newSession({ id: 'bench', title: 'read every module', model: 'gw-code', now: Date.now() });
    addUserMessage(state, 'Read every module and summarise them.');
    const store: SessionStore<AgentSessionState> = { save: async () => undefined, load: async () => undefined, list: async () => [] };
    const engine = new AgentEngine({
      client: new GatewayClient({ baseUrl: () => emulator.baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' }),
      store,
      approver: { approve: async () => true },
      tools: () => allTools,
      toolContext: { files: new NodeWorkspaceFiles(root), changes: new NodeFileChanges(root), commands: new NodeCommandRunner(root), protectedFiles: defaultProtectedFiles },
      policy: () => ({ mode: 'auto', deniedCommands: [] }),
      budgets: () => ({ ...DEFAULT_BUDGETS, maxTurns: turns + 1 }),
      instructions: AGENT_INSTRUCTIONS,
      clock: systemClock,
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    await engine.run(state, new AbortController().signal, () => undefined);
    if (state.status !== 'done' || state.turns !== turns) throw new Error(`bench session ended ${state.status} after ${state.turns} turns: ${state.statusReason}`);
    const bodies = emulator.requests.slice(before).filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, unknown>);
    const stateful = bodies.map((body) => JSON.stringify(body).length);
    const stateless = bodies.map((body) => {
      const input = body.input as ResponseInputItem[];
      const historyUpTo = state.transcript.indexOf(lastItemOf(state.transcript, input.at(-1)!)) + 1;
      const { previous_response_id: _chain, ...rest } = body;
      return JSON.stringify({ ...rest, input: state.transcript.slice(0, historyUpTo) }).length;
    });
    return { stateful, stateless };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function lastItemOf(transcript: ResponseInputItem[], item: ResponseInputItem): ResponseInputItem {
  const found = transcript.find((candidate) => JSON.stringify(candidate) === JSON.stringify(item));
  if (!found) throw new Error('a sent item is missing from the transcript');
  return found;
}
