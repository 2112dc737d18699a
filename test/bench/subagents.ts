/**
 * `npm run bench -- subagents`: what run_subagent saves the parent session. The
 * same search-heavy task on a copy of this repository's sources, scripted
 * turn by turn, once with the parent doing the search and the reads itself, once
 * handing them to a subagent that answers in a paragraph. The parent's billed
 * input tokens (the emulator bills each request for its whole chain, as a gateway
 * does, plus the tool definitions it leaves out) are the figure, as a ratio of the two runs; the session's total (the
 * subagent's own requests included) is printed beside it, since that is what the
 * user pays.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentEngine } from '../../src/agent/common/engine/engine';
import { DEFAULT_BUDGETS } from '../../src/settings/common/valueSets';
import { AGENT_INSTRUCTIONS } from '../../src/customization/common/instructions';
import { addUserMessage, newSession } from '../../src/sessionModel/common/sessionState';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ScriptedTurn } from '../emulator/types';
import { benchEngineDeps } from './benchEngine';
import { fmt } from './stats';

const repositoryRoot = join(__dirname, '..', '..');
type Call = NonNullable<ScriptedTurn['toolCalls']>[number];

const TASK = 'Note in the stream reader and the client where retry notices come from.';
const SIDE_TASK = 'Find every caller of respondStream and where its onRetry notices are made; answer with file:line and one line each.';
/** The side task's search and reads: what the parent does itself without a subagent. */
const searching: ScriptedTurn[] = [
  { toolCalls: [{ name: 'search_text', arguments: { pattern: 'respondStream' } }] },
  { toolCalls: [{ name: 'search_text', arguments: { pattern: 'onRetry' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'src/gateway/common/client.ts' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'src/gateway/common/transport.ts' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'src/agent/common/engine/responseStream.ts' } }] },
];
const SUBAGENT_ANSWER = [
  'respondStream callers: src/agent/common/engine/responseStream.ts:16 (streamResponse, every agent turn and compaction summary); src/chat/vscode/participant.ts (chat).',
  'onRetry: passed by streamResponse (responseStream.ts:18) as a retry event; the transport calls it before each retry after a 500/503/429 (src/gateway/common/transport.ts, retry loop), with the delay from Retry-After.',
].join('\n');

export interface SubagentBenchRun {
  /** Input tokens of the parent's own requests. */
  parentInput: number;
  /** Input tokens of every request of the session (the subagent's included). */
  sessionInput: number;
  parentRequests: number;
  requests: number;
}

export async function measureSubagents(): Promise<void> {
  const emulator = await startEmulator({ port: 0, keys: [{ key: 'bench-key', rpm: 1_000_000, tpm: 1_000_000_000 }], rpm: 1_000_000, tpm: 1_000_000_000 });
  try {
    const without = await runSession(emulator, false);
    const withSubagent = await runSession(emulator, true);
    console.log(`\nSubagents: "${TASK}" on a copy of src/, scripted; the side task (2 searches, 3 files read) by the parent or by run_subagent`);
    console.log('  (input tokens of each request: its conversation, instructions and tool definitions)');
    console.log(`  parent does it     parent input ${fmt(without.parentInput, 0)} tokens in ${without.parentRequests} requests (baseline)`);
    console.log(
      `  run_subagent       parent input ${fmt(withSubagent.parentInput, 0)} tokens in ${withSubagent.parentRequests} requests   ratio ${fmt(withSubagent.parentInput / without.parentInput, 3)}`,
    );
    console.log(
      `  whole session      ${fmt(without.sessionInput, 0)} → ${fmt(withSubagent.sessionInput, 0)} input tokens (${without.requests} → ${withSubagent.requests} requests)   ratio ${fmt(withSubagent.sessionInput / without.sessionInput, 3)}`,
    );
  } finally {
    await emulator.close();
  }
}

async function runSession(emulator: Emulator, subagents: boolean): Promise<SubagentBenchRun> {
  const root = mkdtempSync(join(tmpdir(), 'gateway-bench-subagents-'));
  try {
    cpSync(join(repositoryRoot, 'src'), join(root, 'src'), { recursive: true });
    const changing: ScriptedTurn[] = [
      { toolCalls: [addedLine(root, 'src/agent/common/engine/responseStream.ts', '// Retry notices come from the transport (see transport.ts).')] },
      { toolCalls: [addedLine(root, 'src/gateway/common/client.ts', '// onRetry: called by the transport before each retry.')] },
      { text: 'Done: both files say where retry notices come from.' },
    ];
    const side: ScriptedTurn[] = subagents
      ? [{ toolCalls: [{ name: 'run_subagent', arguments: { task: SIDE_TASK } }] }, ...searching, { text: SUBAGENT_ANSWER }]
      : searching;
    const turns = [...side, ...changing];
    emulator.script('bench-key', turns);
    const before = emulator.requests.length;
    const state = newSession({ id: `bench-subagents-${subagents}`, title: TASK, model: 'gw-code', now: Date.now() });
    addUserMessage(state, TASK);
    let parentInput = 0;
    let parentRequests = 0;
    await benchEngine(emulator, root, subagents).run(state, new AbortController().signal, (event) => {
      // A sub-session's turns are not the parent's events: these are the parent's own requests.
      if (event.type !== 'turn') return;
      parentRequests++;
      parentInput += event.usage?.inputTokens ?? 0;
    });
    if (state.status !== 'done' || state.turns !== turns.length)
      throw new Error(`bench session ended ${state.status} after ${state.turns} turns: ${state.statusReason}`);
    // The emulator bills the conversation and the instructions; a gateway also bills the tool definitions: added, ~4 characters a token.
    const bodies = emulator.requests.slice(before).map((request) => request.body as { instructions?: string; tools?: unknown[] });
    const toolTokens = (body: { tools?: unknown[] }) => Math.ceil(JSON.stringify(body.tools ?? []).length / 4);
    const parentTools = bodies.filter((body) => body.instructions === AGENT_INSTRUCTIONS).reduce((sum, body) => sum + toolTokens(body), 0);
    const everyTool = bodies.reduce((sum, body) => sum + toolTokens(body), 0);
    return { parentInput: parentInput + parentTools, sessionInput: state.usage.inputTokens + everyTool, parentRequests, requests: state.turns };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function benchEngine(emulator: Emulator, root: string, subagents: boolean): AgentEngine {
  return new AgentEngine({
    ...benchEngineDeps(() => emulator.baseUrl, root),
    budgets: () => ({ ...DEFAULT_BUDGETS, maxTokens: Number.MAX_SAFE_INTEGER }),
    modelLimits: () => ({ contextWindow: 128_000, maxOutputTokens: 4_096, source: 'setting' }),
    subagents,
  });
}

/** An edit as a model writes one: the file's first lines as old_text, the same lines with one added. */
function addedLine(root: string, path: string, added: string): Call {
  const oldText = readFileSync(join(root, path), 'utf8').split('\n').slice(0, 6).join('\n');
  return { name: 'edit_file', arguments: { path, old_text: oldText, new_text: `${oldText}\n${added}` } };
}
