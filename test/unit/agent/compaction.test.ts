// Long sessions against the emulator, which enforces context windows and call/output pairing:
// compaction, the window learned from the gateway's error, the bounded replay, a reload mid-compaction.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { ModelWindows, memoryWindowStore } from '../../../src/models/common/modelWindows';
import { chainItems, compactionNotice, contextUsage } from '../../../src/agent/common/engine/compaction';
import { renderTranscript } from '../../../src/agent/common/sessions/transcriptMarkdown';
import { cutPoints, tokensOfItems, trimToFit } from '../../../src/agent/common/engine/contextBudget';
import type { AgentEvent } from '../../../src/sessionModel/common/agentEvents';
import { startEmulator, type Emulator } from '../../emulator/server';
import type { ScriptedTurn } from '../../emulator/types';
import { RecordingStore, makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';

let emulator: Emulator;
let workspace: TempWorkspace;
before(async () => {
  emulator = await startEmulator({ port: 0, rpm: 1_000_000, tpm: 1_000_000_000, contextWindows: { 'gw-code': 32_000, 'gw-chat': 8_000 } });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
});
afterEach(() => workspace.dispose());

const responses = () => emulator.requests.filter((r) => r.path === '/v1/responses');
const bodyOf = (r: { body: unknown }) => r.body as Record<string, any>;

/** `turns` turns that each read a file of about `bytes` bytes, then an answer. */
function readingSession(turns: number, bytes: number): ScriptedTurn[] {
  const line = '  total = total * 31 + 7; // keep the sum bounded\n';
  for (let i = 0; i < turns; i++) workspace.write(`src/m${i}.ts`, `export function f${i}(total: number) {\n${line.repeat(Math.ceil(bytes / line.length))}}\n`);
  return [
    ...Array.from({ length: turns }, (_, i) => ({ text: `Reading m${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `src/m${i}.ts` } }] })),
    { text: 'All read.' },
  ];
}

const windowsOf = (models: Record<string, { contextWindow?: number }>) =>
  new ModelWindows(
    () => models,
    () => emulator.baseUrl,
    memoryWindowStore(),
  );

describe('compaction on a 32k-window model', () => {
  // 60 turns of 10 KB fill the window as often as 200 turns of 3 KB did (7 compactions, each at about 25k
  // tokens), at a third of the requests: a request costs the same whatever the turn count, as the chain fills the window.
  test('a 60-turn session reading a 10 KB file a turn completes: no context error, every request under the threshold, pairs valid', async () => {
    emulator.script('demo-key', readingSession(60, 10_000));
    const { engine } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      store: new RecordingStore(undefined, { keepSnapshots: false }),
      windows: windowsOf({ 'gw-code': { contextWindow: 32_000 } }),
      budgets: { maxTurns: 100, maxTokens: Number.MAX_SAFE_INTEGER },
    });
    const state = startSession('Read every module and summarise them.');
    const events = await runToEnd(engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(state.turns, 61);
    const sent = responses();
    // The emulator enforces the window and the pairing: any slip would be a 400 here.
    assert.deepEqual(
      sent.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body).slice(0, 200)),
      [],
    );
    const threshold = 32_000 * 0.8;
    const largest = Math.max(...sent.map((r) => r.inputTokens ?? Infinity));
    assert.ok(largest <= threshold, `largest request ${largest} tokens, threshold ${threshold}`);
    const compactions = state.compactions ?? [];
    assert.ok(compactions.length >= 5, `${compactions.length} compactions`);
    assert.ok(
      compactions.every((c) => c.how === 'summary' && c.after < c.before / 2),
      JSON.stringify(compactions.map((c) => [c.how, c.before, c.after])),
    );
    assert.equal(events.filter((e) => e.type === 'compacted').length, compactions.length);
    // Each summary request continues the chain, without tools, and the next request starts a new chain.
    for (const [i, r] of sent.entries()) {
      if (bodyOf(r).tools !== undefined) continue;
      assert.match(bodyOf(r).previous_response_id, /^resp_/);
      assert.match(bodyOf(r).input.at(-1).content, /## Task/);
      const next = bodyOf(sent[i + 1]);
      assert.equal(next.previous_response_id, undefined);
      assert.match(next.input[0].content, /^\[This session was compacted/);
      assert.match(next.input[0].content, /Read every module and summarise them\./);
    }
    // The full transcript stays: every read and its output.
    assert.equal(state.transcript.filter((item) => item.type === 'function_call_output').length, 60);
  });

  test('the compaction notice reads "Compacted: 61,200 → 7,900 tokens"', () => {
    assert.equal(compactionNotice(61_200, 7_900), 'Compacted: 61,200 → 7,900 tokens');
  });

  test('a manual compaction of a finished session: the next follow-up starts the new chain', async () => {
    emulator.script('demo-key', readingSession(3, 2_000));
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, windows: windowsOf({ 'gw-code': { contextWindow: 32_000 } }) });
    const state = startSession('Read three modules.');
    await runToEnd(engine, state);
    const events: AgentEvent[] = [];
    await engine.compact(state, new AbortController().signal, (e) => events.push(e));
    assert.equal(state.status, 'done');
    assert.equal(state.compactions?.length, 1);
    const summary = bodyOf(responses().at(-1)!);
    assert.equal(summary.tools, undefined);
    assert.ok(events.some((e) => e.type === 'compacted'));
    // The transcript view keeps every item and shows where the compaction happened.
    const markdown = renderTranscript(state);
    assert.match(markdown, /> \*\*Compacted: [\d,]+ → [\d,]+ tokens\*\*/);
    assert.equal(markdown.match(/```json/g)?.length, 3, 'every call still shown');
    assert.match(contextUsage(state) ?? '', /^context [\d.]+k? \/ 32k$/);
    state.transcript.push({ role: 'user', content: 'and now?' });
    state.unsent.push({ role: 'user', content: 'and now?' });
    emulator.script('demo-key', [{ text: 'Done.' }]);
    await runToEnd(engine, state);
    const next = bodyOf(responses().at(-1)!);
    assert.equal(next.previous_response_id, undefined);
    assert.match(next.input[0].content, /^\[This session was compacted/);
    assert.deepEqual(next.input.at(-1), { role: 'user', content: 'and now?' });
  });
  test('the project instructions are sent again in the new chain a summary starts', async () => {
    workspace.write('AGENTS.md', 'Run npm test after every change.');
    // Enough steps that the developer item is not among the recent items a summary keeps.
    emulator.script('demo-key', readingSession(12, 3_000));
    const { engine } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      projectInstructions: true,
      windows: windowsOf({ 'gw-code': { contextWindow: 32_000 } }),
    });
    const state = startSession('Read twelve modules.');
    await runToEnd(engine, state);
    assert.deepEqual(state.projectInstructions?.files, ['AGENTS.md']);
    await engine.compact(state, new AbortController().signal, () => undefined);
    state.transcript.push({ role: 'user', content: 'and now?' });
    state.unsent.push({ role: 'user', content: 'and now?' });
    emulator.script('demo-key', [{ text: 'Done.' }]);
    await runToEnd(engine, state);
    const next = bodyOf(responses().at(-1)!);
    assert.equal(next.previous_response_id, undefined);
    const developer = next.input.filter((item: any) => item.role === 'developer');
    assert.equal(developer.length, 1, JSON.stringify(next.input).slice(0, 500));
    assert.match(developer[0].content, /Run npm test after every change/);
  });
});

describe('when the window is not known', () => {
  test("learns it from the gateway's error, trims the oldest outputs to notes, and retries once instead of pausing", async () => {
    emulator.script(
      'demo-key',
      readingSession(12, 3_000).map((turn) => ({ ...turn, model: 'gw-chat' })),
    );
    const store = memoryWindowStore();
    const windows = new ModelWindows(
      () => ({}),
      () => emulator.baseUrl,
      store,
    );
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, windows });
    const state = startSession('Read the modules.', 'gw-chat');
    await runToEnd(engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    const sent = responses();
    const failed = sent.filter((r) => r.status === 400);
    assert.equal(failed.length, 1, 'one overflow, then the learned window');
    assert.equal(failed[0].inputTokens, undefined);
    assert.deepEqual(store.get(), { [`${emulator.baseUrl} gw-chat`]: 8_000 });
    assert.equal(windows.limitsOf('gw-chat').contextWindow, 8_000);
    const retry = bodyOf(sent[sent.indexOf(failed[0]) + 1]);
    assert.equal(retry.previous_response_id, undefined);
    assert.ok(retry.input.some((item: any) => item.type === 'function_call_output' && /left out to fit the context window/.test(item.output)));
    assert.equal(state.compactions?.[0].how, 'trim');
  });
});

describe('the bounded replay', () => {
  test('after previous_response_not_found the chain is replayed under the threshold, not the whole transcript', async () => {
    emulator.script('demo-key', readingSession(20, 3_000));
    const { engine } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      windows: windowsOf({ 'gw-code': { contextWindow: 128_000 } }),
      budgets: { maxTurns: 14 },
    });
    const state = startSession('Read the modules.');
    await runToEnd(engine, state);
    assert.equal(state.status, 'stopped');
    const whole = tokensOfItems(state.transcript);
    assert.ok(whole > 8_000, `the whole transcript (${whole} tokens) would not fit`);
    emulator.forgetResponses();
    const small = makeEngine({ baseUrl: emulator.baseUrl, workspace, windows: windowsOf({ 'gw-code': { contextWindow: 8_000 } }) }).engine;
    // Pretend the chain is small, so no compaction starts: the replay itself must stay bounded.
    state.contextTokens = 100;
    await runToEnd(small, state);
    const sent = responses();
    const lost = sent.findIndex((r) => r.status === 400);
    assert.equal(bodyOf(sent[lost]).error ?? 'previous_response_not_found', 'previous_response_not_found');
    const replay = sent[lost + 1];
    assert.equal(replay.status, 200);
    assert.equal(bodyOf(replay).previous_response_id, undefined);
    assert.ok(replay.inputTokens! <= 8_000 * 0.8, `replay of ${replay.inputTokens} tokens`);
    assert.equal(state.status, 'done', state.statusReason);
  });

  test('the trim keeps every call with its output and the first item', () => {
    const items = [
      { role: 'user' as const, content: 'task' },
      ...Array.from({ length: 10 }, (_, i) => [
        { type: 'function_call' as const, call_id: `c${i}`, name: 'read_file', arguments: '{}' },
        { type: 'function_call_output' as const, call_id: `c${i}`, output: 'x'.repeat(4_000) },
      ]).flat(),
    ];
    const trimmed = trimToFit(items, 3_000);
    assert.ok(tokensOfItems(trimmed) <= 3_000);
    assert.deepEqual(trimmed[0], items[0]);
    assert.equal(cutPoints(trimmed).at(-1), trimmed.length, 'every call has its output');
    assert.match((trimmed[2] as { output: string }).output, /^\[read_file output left out/);
    assert.equal(trimmed.at(-1), items.at(-1), 'the newest output stays verbatim');
    const dropped = trimToFit(items, 40);
    assert.deepEqual(dropped[0], items[0]);
    assert.equal(cutPoints(dropped).at(-1), dropped.length);
  });
});

describe('a reload in the middle of a compaction', () => {
  test('resumes it: the summary request continues the saved chain, then the new chain starts', async () => {
    emulator.script('demo-key', readingSession(20, 3_000));
    const store = new RecordingStore();
    const windows = windowsOf({ 'gw-code': { contextWindow: 16_000 } });
    const first = makeEngine({ baseUrl: emulator.baseUrl, workspace, store, windows }).engine;
    const state = startSession('Read the modules.');
    const controller = new AbortController();
    // The window closes the moment the compaction starts: the summary request never completes.
    await first.run(state, controller.signal, (e) => {
      if (e.type === 'compacting') controller.abort();
    });
    assert.equal(state.status, 'paused');
    const saved = (await store.load(state.id))!;
    assert.ok(saved.compacting, 'saved as under way');
    const chain = saved.previousResponseId;
    const before = responses().length;
    const second = makeEngine({ baseUrl: emulator.baseUrl, workspace, store, windows }).engine;
    await runToEnd(second, saved);
    assert.equal(saved.status, 'done', saved.statusReason);
    const after = responses().slice(before);
    assert.equal(bodyOf(after[0]).tools, undefined, 'the summary request first');
    assert.equal(bodyOf(after[0]).previous_response_id, chain);
    assert.equal(bodyOf(after[1]).previous_response_id, undefined);
    assert.equal(saved.compacting, undefined);
    assert.ok((saved.compactions ?? []).length >= 1);
    assert.ok(after.every((r) => r.status === 200));
    assert.deepEqual(chainItems(saved).length > 0, true);
  });
});

describe('tool outputs stay lean', () => {
  test('an output over a share of the window is cut with a note on how to get the rest', async () => {
    workspace.write('big.txt', 'y'.repeat(30_000));
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] }, { text: 'ok' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, windows: windowsOf({ 'gw-code': { contextWindow: 8_000 } }) });
    const state = startSession('read big.txt');
    await runToEnd(engine, state);
    const output = bodyOf(responses()[1]).input[0].output as string;
    assert.ok(output.length < 8_000 * 0.2 * 4 + 400);
    assert.match(output, /Output cut at 6,400 of [\d,]+ characters.*read_file with startLine\/endLine/);
  });

  test('a read_file page over the share is cut after a whole line, and the note names the startLine to go on from', async () => {
    const line = (n: number) => `${String(n).padStart(4, '0')} ${'z'.repeat(55)}`;
    workspace.write('big.txt', Array.from({ length: 1_000 }, (_, i) => line(i + 1)).join('\n'));
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt', startLine: 300, endLine: 900 } }] },
      { text: 'ok' },
    ]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, windows: windowsOf({ 'gw-code': { contextWindow: 8_000 } }) });
    await runToEnd(engine, startSession('read big.txt'));
    const outputs = responses()
      .slice(1)
      .map((r) => bodyOf(r).input.find((item: { type: string }) => item.type === 'function_call_output').output as string);
    // 6,400 characters hold 104 whole lines of 61 characters (60 and the line break).
    assert.ok(outputs[0].startsWith(`${line(1)}\n`) && outputs[0].includes(`\n${line(104)}\n[`), outputs[0].slice(-300));
    assert.match(
      outputs[0],
      /\n\[Output cut at 6,343 of [\d,]+ characters, after its line 104, to fit the context window\. For the rest, call read_file again with startLine=105\.\]$/,
    );
    assert.match(outputs[1], /after its line 104, to fit the context window\. For the rest, call read_file again with startLine=404, endLine=900\.\]$/);
  });
});
