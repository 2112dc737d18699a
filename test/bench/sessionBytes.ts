/**
 * Bytes sent per request over a 30-turn tool-using agent session: the stateful
 * chain (only the new items, with previous_response_id) against what a
 * stateless client sends (the whole history every turn).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentEngine } from '../../src/agent/common/engine/engine';
import { DEFAULT_BUDGETS } from '../../src/settings/common/valueSets';
import { AGENT_INSTRUCTIONS } from '../../src/customization/common/instructions';
import { addUserMessage, newSession } from '../../src/sessionModel/common/sessionState';
import { type ResponseInputItem } from '../../src/gateway/common';
import type { Emulator } from '../emulator/server';
import type { ScriptedTurn } from '../emulator/types';
import { benchEngineDeps } from './benchEngine';

/** A session to measure: it fills a fresh workspace folder and says what the scripted model does in it, turn by turn. */
export interface SessionWorkload {
  task: string;
  prepare(root: string): ScriptedTurn[];
}

export interface SessionBytesResult {
  /** Size of each request body as sent, with previous_response_id. */
  stateful: number[];
  /** Size of the same request carrying the whole history instead. */
  stateless: number[];
  /** Bytes of each stateful request that are not its new input items (model, instructions, tools, flags). */
  fixed: number[];
}

/** A project AGENTS.md for the session, sent as the extension does (`input`: one input item) or in `instructions` on every request. */
export interface ProjectInstructionsVariant {
  agentsMd: string;
  via: 'input' | 'instructions';
}

export async function measureSessionBytes(emulator: Emulator, workload: SessionWorkload, project?: ProjectInstructionsVariant): Promise<SessionBytesResult> {
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  try {
    const turns = workload.prepare(root);
    if (project) writeFileSync(join(root, 'AGENTS.md'), project.agentsMd);
    emulator.script('bench-key', turns);
    const before = emulator.requests.length;
    const state = newSession({ id: 'bench', title: workload.task, model: 'gw-code', now: Date.now() });
    addUserMessage(state, workload.task);
    await benchEngine(emulator, root, turns.length, project).run(state, new AbortController().signal, () => undefined);
    if (state.status !== 'done' || state.turns !== turns.length)
      throw new Error(`bench session ended ${state.status} after ${state.turns} turns: ${state.statusReason}`);
    // The figure is the chain's: a compaction would start a new chain and measure something else.
    if (state.compactions?.length) throw new Error(`the ${turns.length}-turn bytes session compacted; it must fit gw-code's window`);
    const bodies = emulator.requests
      .slice(before)
      .filter((r) => r.path === '/v1/responses')
      .map((r) => r.body as Record<string, unknown>);
    return {
      stateful: bodies.map((body) => JSON.stringify(body).length),
      stateless: bodies.map((body) => JSON.stringify(withFullHistory(body, state.transcript)).length),
      fixed: bodies.map((body) => JSON.stringify({ ...body, input: [] }).length),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function benchEngine(emulator: Emulator, root: string, turns: number, project?: ProjectInstructionsVariant): AgentEngine {
  return new AgentEngine({
    ...benchEngineDeps(() => emulator.baseUrl, root),
    // Unbounded tokens: the emulator bills each turn for the whole conversation, and the bench measures bytes, not budgets.
    budgets: () => ({ ...DEFAULT_BUDGETS, maxTurns: turns + 1, maxTokens: Number.MAX_SAFE_INTEGER }),
    instructions: project?.via === 'instructions' ? `${AGENT_INSTRUCTIONS}\n\n${project.agentsMd}` : AGENT_INSTRUCTIONS,
    projectInstructions: project?.via !== 'instructions',
    // As the extension runs by default (gateway.agent.subagents on): run_subagent's definition goes with every request.
    subagents: true,
    // gw-code's window on the emulator: the 30-turn session fits under its threshold, so it never compacts.
    modelLimits: () => ({ contextWindow: 128_000, maxOutputTokens: 4_096, source: 'setting' }),
  });
}

/** The request a stateless client sends instead: no previous_response_id, and every item of the session so far. */
function withFullHistory(body: Record<string, unknown>, transcript: ResponseInputItem[]): Record<string, unknown> {
  const input = body.input as ResponseInputItem[];
  const lastSent = JSON.stringify(input.at(-1));
  const historyLength = transcript.findIndex((item) => JSON.stringify(item) === lastSent) + 1;
  if (historyLength === 0) throw new Error('a sent item is missing from the transcript');
  const { previous_response_id: _chain, ...rest } = body;
  return { ...rest, input: transcript.slice(0, historyLength) };
}
