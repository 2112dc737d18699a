// run_subagent: read-only sub-sessions on their own chain, whose final answer alone reaches the parent; depth 1,
// bounded counts, counted in the parent's usage and budgets, stopped with the parent. Against the emulator over HTTP.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSavedSession } from '../../../src/sessionModel/common/savedSession';
import { SUBAGENT_LIMITS } from '../../../src/agent/common/engine/subagents';
import { renderTranscript, subagentMarkdown } from '../../../src/agent/common/sessions/transcriptMarkdown';
import type { AgentEvent } from '../../../src/sessionModel/common/agentEvents';
import { allTools, runSubagentTool } from '../../../src/tools/common/registry';
import type { AgentTool } from '../../../src/tools/common/tool';
import type { UsageRecord } from '../../../src/usage/common';
import type { RecordedRequest, ScriptedTurn } from '../../emulator/types';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';

const MARKER = 'ONLY_THE_SUBAGENT_READS_THIS_LINE';
const fixture = useEmulatorAndWorkspace({ 'src/time.ts': `export function parseDuration(text: string): number {\n  // ${MARKER}\n  return 0;\n}\n` });

const TASK = 'Find where parseDuration is defined; answer with the path and line.';
const ANSWER = 'parseDuration is defined in src/time.ts:1.';
const callSubagent = (task = TASK, callId?: string): ScriptedTurn => ({
  toolCalls: [{ name: 'run_subagent', arguments: { task }, ...(callId ? { callId } : {}) }],
});
/** The sub-session: a search, a read, then its answer. */
const subSession: ScriptedTurn[] = [
  { toolCalls: [{ name: 'search_text', arguments: { pattern: 'parseDuration' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'src/time.ts' } }] },
  { text: ANSWER },
];

function responsesRequests(): RecordedRequest[] {
  return fixture.emulator.requests.filter((request) => request.path === '/v1/responses');
}
const bodyOf = (request: RecordedRequest) => request.body as { tools: { name: string }[]; input: unknown; previous_response_id?: string; instructions: string };
const toolNames = (request: RecordedRequest) => bodyOf(request).tools.map((tool) => tool.name);

describe('run_subagent', () => {
  test('is in no tool list: offered only by an engine with subagents on, and its definition is short', async () => {
    assert.ok(!allTools.includes(runSubagentTool));
    const definition = JSON.stringify({ name: runSubagentTool.name, description: runSubagentTool.description, parameters: runSubagentTool.parameters });
    assert.ok(definition.length < 300, `${definition.length} bytes`);
    fixture.emulator.script('demo-key', [{ text: 'Hello.' }]);
    await runToEnd(makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace }).engine, startSession('hi'));
    assert.ok(!toolNames(responsesRequests()[0]).includes('run_subagent'));
  });

  test('runs a read-only sub-session on its own chain; the parent reads its final answer only, and counts its usage', async () => {
    fixture.emulator.script('demo-key', [callSubagent(), ...subSession, { text: 'Done.' }]);
    const records: UsageRecord[] = [];
    const { engine, store } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true, onUsage: (r) => records.push(r) });
    const state = startSession('Tidy the time helpers');
    const events = await runToEnd(engine, state);
    assert.equal(state.status, 'done');

    const [parentFirst, childFirst, childSecond, childThird, parentLast] = responsesRequests();
    assert.ok(toolNames(parentFirst).includes('run_subagent'));
    // The sub-session: the read-only tools (no update_plan, no writes or commands, no run_subagent: depth 1), its own instructions and chain.
    for (const child of [childFirst, childSecond, childThird])
      assert.deepEqual(toolNames(child), ['read_file', 'list_files', 'search_text', 'get_problems', 'code_navigation']);
    assert.match(bodyOf(childFirst).instructions, /read-only helper/);
    assert.equal(bodyOf(childFirst).previous_response_id, undefined);
    assert.deepEqual(bodyOf(childFirst).input, [{ role: 'user', content: TASK }]);
    assert.ok(bodyOf(childSecond).previous_response_id);
    assert.notEqual(bodyOf(childSecond).previous_response_id, bodyOf(parentLast).previous_response_id);
    // The parent continues its own chain with the answer alone: the file the sub-session read never reaches it.
    const parentInput = bodyOf(parentLast).input as { type: string; output: string }[];
    assert.equal(parentInput.length, 1);
    assert.equal(parentInput[0].output, ANSWER);
    assert.ok(JSON.stringify(bodyOf(childThird).input).includes(MARKER));
    for (const request of [parentFirst, parentLast]) assert.ok(!JSON.stringify(request.body).includes(MARKER));

    // Its requests and tokens are the session's: in its turns, its usage, and the usage log under its id.
    assert.equal(state.turns, 5);
    assert.equal(records.length, 5);
    assert.ok(records.every((record) => record.sessionId === state.id));
    assert.equal(
      state.usage.inputTokens,
      records.reduce((sum, record) => sum + record.input, 0),
    );
    assert.equal(
      state.usage.outputTokens,
      records.reduce((sum, record) => sum + record.output, 0),
    );
    assert.deepEqual(state.subagents, [
      { task: TASK, atItem: 2, status: 'done', steps: ['Search for parseDuration', 'Read src/time.ts'], turns: 3, tokens: state.subagents?.[0].tokens },
    ]);
    assert.ok((state.subagents?.[0].tokens ?? 0) > 0);

    // The surface sees its steps as progress, and the call's outcome names the run for the nested line.
    assert.deepEqual(
      events.filter((e): e is Extract<AgentEvent, { type: 'subagent_step' }> => e.type === 'subagent_step').map((e) => e.summary),
      ['Search for parseDuration', 'Read src/time.ts'],
    );
    const finished = events.find((e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished' && e.call.name === 'run_subagent');
    assert.deepEqual(finished?.outcome.subagent, { sessionId: state.id, task: TASK, steps: 2, tokens: state.subagents?.[0].tokens });
    // Saved with the session, and shown nested in its transcript.
    const saved = parseSavedSession(JSON.parse(JSON.stringify(await store.load(state.id))));
    assert.deepEqual(saved?.subagents, state.subagents);
    const transcript = renderTranscript(state);
    assert.match(transcript, /> \*\*Subagent:\*\* `Find where parseDuration is defined; answer with the path and line\.`/);
    assert.match(transcript, /> 2 steps · 3 requests · [\d,]+ tokens\n>\n> <details><summary>Steps<\/summary>\n>\n> - `Search for parseDuration`/);
  });

  test('a sub-session cannot write or run commands: a call to write_file there is no tool, and nothing is written', async () => {
    fixture.emulator.script('demo-key', [
      callSubagent('Create notes.txt'),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] },
      { text: 'I cannot write files.' },
      { text: 'Done.' },
    ]);
    const { engine, approvals } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    await runToEnd(engine, state);
    const outputs = responsesRequests()
      .slice(2, 4)
      .map((request) => (bodyOf(request).input as { output: string }[])[0].output);
    assert.match(outputs[0], /There is no tool named "write_file" in this session/);
    assert.match(outputs[1], /There is no tool named "run_command" in this session/);
    assert.deepEqual(approvals, []);
    assert.equal(state.originals.length, 0);
    assert.deepEqual(state.commandsRun, []);
    assert.equal(state.status, 'done');
  });

  test('a host tool of the same name gives way: one run_subagent is offered, and it is the sub-session', async () => {
    const host: AgentTool = {
      name: 'run_subagent',
      description: 'An MCP tool that happens to share the name.',
      kind: 'external',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      prepare: async () => ({ summary: 'host tool', execute: async () => ({ ok: true, output: 'HOST TOOL RAN' }) }),
    };
    fixture.emulator.script('demo-key', [callSubagent(), { text: ANSWER }, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true, extraTools: [host] });
    await runToEnd(engine, startSession('t'));
    assert.equal(toolNames(responsesRequests()[0]).filter((name) => name === 'run_subagent').length, 1);
    assert.equal((bodyOf(responsesRequests()[2]).input as { output: string }[])[0].output, ANSWER);
  });

  test('a sub-session cannot start one (depth 1): run_subagent is not among its tools', async () => {
    fixture.emulator.script('demo-key', [callSubagent(), callSubagent('deeper'), { text: 'No.' }, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    await runToEnd(engine, state);
    const childOutput = (bodyOf(responsesRequests()[2]).input as { output: string }[])[0].output;
    assert.match(childOutput, /There is no tool named "run_subagent"/);
    assert.equal(state.subagents?.length, 1);
  });

  test('at most 3 a step and 8 a session: the rest are refused in words the model can act on, without a request', async () => {
    const calls = [1, 2, 3, 4].map((n) => ({ name: 'run_subagent', arguments: { task: `task ${n}` }, callId: `c${n}` }));
    fixture.emulator.script('demo-key', [{ toolCalls: calls }, { text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    await runToEnd(engine, state);
    assert.equal(responsesRequests().length, 5);
    const outputs = bodyOf(responsesRequests()[4]).input as { output: string }[];
    assert.deepEqual(
      outputs.map((o) => o.output),
      ['a1', 'a2', 'a3', `At most ${SUBAGENT_LIMITS.perTurn} subagents a step: wait for these answers, or do the task yourself.`],
    );

    // A session that already started 8 (a saved one, continued): refused before any request.
    fixture.emulator.reset();
    fixture.emulator.script('demo-key', [callSubagent(), { text: 'Done.' }]);
    const full = startSession('t');
    full.subagents = Array.from({ length: SUBAGENT_LIMITS.perSession }, () => ({
      task: 'old',
      atItem: 0,
      status: 'done' as const,
      steps: [],
      turns: 1,
      tokens: 1,
    }));
    await runToEnd(makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true }).engine, full);
    assert.equal(responsesRequests().length, 2);
    assert.equal(
      (bodyOf(responsesRequests()[1]).input as { output: string }[])[0].output,
      'This session has used its 8 subagents: do the task yourself with your tools.',
    );
  });

  test("the parent run's budget bounds it: the sub-session gets the turns left, and the run stops when they are used", async () => {
    fixture.emulator.script('demo-key', [callSubagent(), ...subSession, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true, budgets: { maxTurns: 3 } });
    const state = startSession('t');
    await runToEnd(engine, state);
    // The parent's one request, then the two the run had left: the sub-session stops before its answer, and so does the parent.
    assert.equal(responsesRequests().length, 3);
    assert.equal(state.turns, 3);
    assert.equal(state.status, 'stopped');
    assert.match(state.statusReason ?? '', /used its 3 turns/);
    assert.equal(state.subagents?.[0].status, 'stopped');
    const output = state.transcript.find((item) => item.type === 'function_call_output');
    assert.match(output?.type === 'function_call_output' ? output.output : '', /^The subagent did not finish \(This run used its 2 turns/);
  });

  test("the parent's stop ends the sub-session: no request after it, and the session pauses", async () => {
    fixture.emulator.script('demo-key', [callSubagent(), ...subSession, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    const stop = new AbortController();
    // Stopped when the sub-session's first tool call finishes: its next request must not go.
    await engine.run(state, stop.signal, (event) => event.type === 'subagent_step' && stop.abort());
    assert.equal(responsesRequests().length, 2);
    assert.equal(state.status, 'paused');
    assert.equal(state.statusReason, 'Stopped by the user.');
    assert.equal(state.subagents?.[0].status, 'paused');
    assert.equal(state.turns, 2);
  });

  test('its answer is bounded; the chat shows its line and the start of its answer nested, fences closed', async () => {
    const long = `${'word '.repeat(4000)}end`;
    fixture.emulator.script('demo-key', [callSubagent(), { text: long, chunkChars: 5000 }, { text: 'Done.' }]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    await runToEnd(engine, state);
    const output = (bodyOf(responsesRequests()[2]).input as { output: string }[])[0].output;
    assert.equal(output, `${long.slice(0, SUBAGENT_LIMITS.answerBytes)}\n(answer cut at ${SUBAGENT_LIMITS.answerBytes} bytes)`);

    const shown = subagentMarkdown({ sessionId: 's', task: 'Review\nthe diff', steps: 4, tokens: 12345 }, 'Found:\n```ts\nconst a = 1;');
    assert.equal(shown, '\n\n> **Subagent:** `Review the diff` — 4 steps · 12,345 tokens\n>\n> Found:\n> ```ts\n> const a = 1;\n> ```\n\n');
  });

  test("a saved file's records are bounded, malformed ones dropped, one saved while it ran read as paused", () => {
    const record = { task: 't'.repeat(10_000), atItem: 2, status: 'running', steps: ['s'.repeat(1000), 7, ...Array(100).fill('step')], turns: 2, tokens: 50 };
    const saved = parseSavedSession({ id: 'x', status: 'paused', subagents: [record, { task: 1 }, ...Array(20).fill(record)] });
    assert.equal(saved?.subagents?.length, 7);
    const first = saved?.subagents?.[0];
    assert.equal(first?.status, 'paused');
    assert.equal(first?.task.length, 4000);
    assert.equal(first?.steps.length, 40);
    assert.equal(first?.steps[0].length, 300);
    assert.equal(parseSavedSession({ id: 'y', status: 'done' })?.subagents, undefined);
  });

  test('a task that is empty or too long is refused before anything runs', async () => {
    fixture.emulator.script('demo-key', [
      { toolCalls: [{ name: 'run_subagent', arguments: { task: 'x'.repeat(5000) } }] },
      callSubagent('  '),
      { text: 'Done.' },
    ]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, subagents: true });
    const state = startSession('t');
    await runToEnd(engine, state);
    const outputs = state.transcript
      .filter((item) => item.type === 'function_call_output')
      .map((item) => (item.type === 'function_call_output' ? item.output : ''));
    assert.match(outputs[0], /The task has 5000 characters; keep it under 4000/);
    assert.match(outputs[1], /The task is empty/);
    assert.equal(state.subagents, undefined);
    assert.equal(responsesRequests().length, 3);
  });
});
