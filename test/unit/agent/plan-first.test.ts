// Plan first (issue 40): the plan a planning session answers, parsed (well-formed, loose, hostile); the read-only
// tool set, held against the model over real HTTP under every approval mode; a started session's seeded todo list.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  MAX_PARSED_STEP_CHARS,
  MAX_PARSED_STEPS,
  PLAN_TOOLS,
  parsePlanText,
  planAnswerOf,
  planDocument,
  planTaskOf,
  planningAgent,
  seededPlan,
  taskWithPlan,
} from '../../../src/agent/common/engine/planMode';
import { limitTools } from '../../../src/agent/common/engine/agentTools';
import { agentStartNotes, instructionsWith, isPlanningSession } from '../../../src/agent/common/engine/sessionAgent';
import { parseSessionAgent } from '../../../src/sessionModel/common/savedSession';
import { planStartNoLongerApplies } from '../../../src/sessionModel/common/staleActions';
import { toolsFor } from '../../../src/tools/common/registry';
import { parsePlan } from '../../../src/tools/common/updatePlan';
import { AGENT_INSTRUCTIONS } from '../../../src/customization/common/instructions';
import { RunningSessions } from '../../../src/agent/common/sessions/runningSessions';
import { SessionCheckpoints, type SavedSessions } from '../../../src/agent/common/sessions/sessionCheckpoints';
import { SessionRuns } from '../../../src/agent/common/sessions/sessionRuns';
import { type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { type AgentEvent } from '../../../src/sessionModel/common/agentEvents';
import { silentLogger, systemClock } from '../../../src/base/common/ports';
import { NodeCheckpointFolder } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeCheckpointShelf } from '../../../src/checkpoints/node/nodeCheckpointShelf';
import { SandboxDecision } from '../../../src/terminal/common/sandboxDecision';
import type { ApprovalMode } from '../../../src/settings/common/valueSets';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';

describe('parsePlanText', () => {
  test('a numbered plan after a preamble: its steps, in order, the rest left out', () => {
    const text =
      'I read the client and its tests.\n\nHere is the plan:\n\n1. Add `retry` to src/client.ts\n2. Test it in test/client.test.ts\n3. Update the README\n\nThat is all.';
    assert.deepEqual(parsePlanText(text), ['Add `retry` to src/client.ts', 'Test it in test/client.test.ts', 'Update the README']);
  });

  test('the loose forms: 1), bold, Step 1:, headings, checkboxes, bullets when nothing is numbered', () => {
    assert.deepEqual(parsePlanText('1) one\n2) two'), ['one', 'two']);
    assert.deepEqual(parsePlanText('**1. Read the code**\n**2.** Change it'), ['Read the code', 'Change it']);
    assert.deepEqual(parsePlanText('Step 1: read\nStep 2: write'), ['read', 'write']);
    assert.deepEqual(parsePlanText('### 1. Read\n### 2. Write'), ['Read', 'Write']);
    assert.deepEqual(parsePlanText('- [ ] read\n- [x] write\n* test'), ['read', 'write', 'test']);
    // Numbered steps win over their bullets (sub-points), and a rule or an empty item is no step.
    assert.deepEqual(parsePlanText('1. Read\n   - the client\n   - its tests\n---\n2. Write\n3.   \n'), ['Read', 'Write']);
    assert.deepEqual(parsePlanText('No plan here.\nJust prose, 2024 was a year.'), []);
    assert.deepEqual(parsePlanText(''), []);
  });

  test('hostile input: bounded steps and length, one line each, invisible characters spelled out, fast on a huge text', () => {
    const many = Array.from({ length: 100 }, (_, i) => `${i + 1}. step ${i + 1}`).join('\n');
    assert.equal(parsePlanText(many).length, MAX_PARSED_STEPS);
    // At its bounds the todo list is kept whole when the started session is saved and read back.
    const bounded = seededPlan(parsePlanText(`1. ${'y'.repeat(10_000)}\n${many}`));
    assert.deepEqual(parsePlan(JSON.parse(JSON.stringify(bounded))), bounded);
    const [long] = parsePlanText(`1. ${'x'.repeat(10_000)}`);
    assert.equal(long.length, MAX_PARSED_STEP_CHARS);
    assert.ok(long.endsWith('…'));
    const [hidden] = parsePlanText('1. delete\u202e.txt\u0007 then\tgo\u2028on');
    assert.equal(hidden, 'delete⟨U+202E⟩.txt⟨U+0007⟩ then go on');
    const started = Date.now();
    const huge = `${'1. '.repeat(1_000_000)}\n${'- [ '.repeat(100_000)}\n${'a'.repeat(1_000_000)}`;
    parsePlanText(huge);
    parsePlanText('\n'.repeat(1_000_000));
    assert.ok(Date.now() - started < 2_000, 'a huge text is cut before it is read');
  });

  test('the editable document reads back as the same steps (its comment line is no step)', () => {
    const steps = ['Read src/a.ts', 'Change **b**', 'Test it'];
    const doc = planDocument('do -- things\nnow', steps);
    assert.match(doc, /^<!-- Plan for: do - - things now\./);
    assert.deepEqual(parsePlanText(doc), ['Read src/a.ts', 'Change b', 'Test it']);
  });
});

describe('the planning session', () => {
  test('its tools are the read-only ones: reading, listing, search, navigation, problems; never a write, a command or update_plan', () => {
    const agent = planningAgent();
    assert.equal(agent.kind, 'plan');
    const offered = limitTools(toolsFor(true), agent.tools);
    assert.deepEqual(offered.map((tool) => tool.name).sort(), [...PLAN_TOOLS].sort());
    assert.ok(offered.every((tool) => tool.kind === 'read'));
    for (const name of ['write_file', 'edit_file', 'run_command', 'command_output', 'update_plan', 'run_subagent'])
      assert.ok(!offered.some((tool) => tool.name === name), name);
  });

  test('saved and read back it stays a read-only planning session; its instructions and start note say so', () => {
    const saved = parseSessionAgent(JSON.parse(JSON.stringify(planningAgent())));
    assert.deepEqual(saved, planningAgent());
    assert.ok(isPlanningSession({ agent: saved }));
    assert.ok(!isPlanningSession({ agent: { kind: 'agent', name: 'x', path: 'x.md' } }));
    const instructions = instructionsWith(AGENT_INSTRUCTIONS, planningAgent());
    assert.ok(instructions.startsWith(AGENT_INSTRUCTIONS));
    assert.match(instructions, /read-only.*numbered list/s);
    assert.doesNotMatch(instructions, /custom agent/);
    assert.deepEqual(agentStartNotes(planningAgent(), { used: 'gw-code', found: true }), [
      'Planning (read-only): tools read_file, list_files, search_text, code_navigation, get_problems; no writes, no commands.',
    ]);
  });

  test('its answer is its last assistant message; its task its first user message', () => {
    const state = startSession('add retries');
    state.transcript.push({ role: 'assistant', content: 'Looking.' }, { type: 'function_call', call_id: 'c', name: 'read_file', arguments: '{}' });
    state.transcript.push({ type: 'function_call_output', call_id: 'c', output: 'x' }, { role: 'assistant', content: '1. a\n2. b' });
    assert.equal(planAnswerOf(state), '1. a\n2. b');
    assert.equal(planTaskOf(state), 'add retries');
  });

  test('a Start on a plan deleted, still being made or already started does nothing and says why', () => {
    assert.match(planStartNoLongerApplies(undefined, false, undefined)!, /deleted.*\/plan/);
    assert.match(planStartNoLongerApplies({ id: 'p', title: 'T' }, true, undefined)!, /"T" is still being made/);
    assert.match(planStartNoLongerApplies({ id: 'p', title: 'T' }, false, 'at 10:00')!, /"T" was already started \(at 10:00\), so it was not started again/);
    assert.equal(planStartNoLongerApplies({ id: 'p', title: 'T' }, false, undefined), undefined);
  });
});

describe('a planning session over real HTTP', () => {
  const fixture = useEmulatorAndWorkspace({ 'a.txt': 'hello' });
  for (const mode of ['ask', 'auto-edit', 'auto'] as ApprovalMode[]) {
    test(`under ${mode}: only the read-only tools are sent; a write, a command and update_plan are refused as no tool; nothing asks, nothing changes`, async () => {
      const { emulator, workspace } = fixture;
      const state = startSession('plan a change to a.txt');
      state.agent = planningAgent();
      emulator.script('demo-key', [
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'a.txt', content: 'pwned' } },
            { name: 'run_command', arguments: { command: 'echo pwned > a.txt' } },
            { name: 'update_plan', arguments: { steps: [{ step: 'x', status: 'pending' }] } },
          ],
        },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { text: 'The plan:\n\n1. Change a.txt\n2. Test it' },
      ]);
      const { engine, approvals } = makeEngine({
        baseUrl: emulator.baseUrl,
        workspace,
        policy: { mode, deniedCommands: [], commandsSandboxed: true },
        limitTools: (tools) => limitTools(tools, state.agent?.tools),
        instructions: instructionsWith(AGENT_INSTRUCTIONS, state.agent),
      });
      await runToEnd(engine, state);
      assert.equal(state.status, 'done');
      const bodies = emulator.requests
        .filter((r) => r.path === '/v1/responses')
        .map((r) => r.body as { tools: { name: string }[]; instructions: string; input: unknown });
      assert.equal(bodies.length, 3);
      for (const body of bodies) assert.deepEqual(body.tools.map((tool) => tool.name).sort(), [...PLAN_TOOLS].sort());
      const refusals = JSON.stringify(bodies[1].input);
      for (const name of ['write_file', 'run_command', 'update_plan'])
        assert.match(refusals, new RegExp(`There is no tool named \\\\"${name}\\\\" in this session`));
      assert.equal(approvals.length, 0, 'nothing asked');
      assert.equal(state.plan, undefined, 'update_plan did not run');
      assert.equal(readFileSync(join(workspace.root, 'a.txt'), 'utf8'), 'hello');
      assert.deepEqual(parsePlanText(planAnswerOf(state)), ['Change a.txt', 'Test it']);
    });
  }
});

/** Saved sessions in memory, each load a fresh copy. */
class MemorySessions implements SavedSessions {
  readonly saved = new Map<string, AgentSessionState>();
  async save(state: AgentSessionState): Promise<void> {
    this.saved.set(state.id, structuredClone(state));
  }
  replace(state: AgentSessionState): Promise<void> {
    return this.save(state);
  }
  async load(id: string): Promise<AgentSessionState | undefined> {
    const state = this.saved.get(id);
    return state && structuredClone(state);
  }
  async list(): Promise<AgentSessionState[]> {
    return [...this.saved.values()];
  }
  async remove(id: string): Promise<void> {
    this.saved.delete(id);
  }
}

describe('Start: a session with the plan as its todo list, over real HTTP', () => {
  const fixture = useEmulatorAndWorkspace({ 'a.txt': 'hello' });
  const temp: string[] = [];
  after(() => Promise.all(temp.map((folder) => rm(folder, { recursive: true, force: true }))));

  test('the plan is seeded (shown at once), sent in the first message, and the model updates it with update_plan', async () => {
    const { emulator, workspace } = fixture;
    const shelfRoot = await mkdtemp(join(tmpdir(), 'plan-first-'));
    temp.push(shelfRoot);
    const store = new MemorySessions();
    const runs = new RunningSessions();
    const folders = { open: () => [{ uri: `file://${workspace.root}`, name: 'w' }], pathOf: (uri: string) => uri.replace('file://', '') };
    const unavailable = (): never => {
      throw new Error('not in this test');
    };
    const checkpoints = new SessionCheckpoints({
      store,
      runs,
      folders,
      machine: {
        files: unavailable,
        workspaceRestore: unavailable,
        checkpointFolder: (id) => new NodeCheckpointFolder(join(shelfRoot, id)),
        checkpointShelf: new NodeCheckpointShelf(shelfRoot),
        checkpointStorageBytes: () => 1024 * 1024,
      },
      editorFiles: unavailable,
      protectedFiles: () => [],
      logger: silentLogger,
      clock: systemClock,
    });
    const sandbox = new SandboxDecision({
      sandbox: { available: () => Promise.resolve({ ok: false, reason: 'none' }), forSession: unavailable },
      home: { path: '/home/u', realPath: (path) => Promise.resolve(path) },
      settings: () => ({ approval: 'ask', protectedFiles: [], sandboxNetwork: false }),
      logger: silentLogger,
      warnUser: () => {},
    });
    const sessions = new SessionRuns({
      store,
      runs,
      folders,
      checkpoints,
      sandbox,
      engineFor: () => makeEngine({ baseUrl: emulator.baseUrl, workspace, store: undefined }).engine,
      resolveAgentModel: () => Promise.resolve('gw-code'),
      agentModel: () => 'gw-code',
      logger: silentLogger,
    });
    emulator.script('demo-key', [
      {
        toolCalls: [
          {
            name: 'update_plan',
            arguments: {
              steps: [
                { step: 'Read a.txt', status: 'done' },
                { step: 'Say done', status: 'in_progress' },
              ],
            },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    const steps = ['Read a.txt', 'Say done'];
    const events: AgentEvent[] = [];
    const state = await sessions.start(taskWithPlan('check a.txt', steps), {
      sink: { onEvent: (event) => events.push(event) },
      plan: seededPlan(steps),
      title: 'check a.txt',
    });
    assert.equal(state.title, 'check a.txt');
    // Shown before the first request: the checklist of the seeded plan.
    assert.deepEqual(
      events.find((event) => event.type === 'plan'),
      {
        type: 'plan',
        plan: [
          { step: 'Read a.txt', status: 'pending' },
          { step: 'Say done', status: 'pending' },
        ],
      },
    );
    const first = emulator.requests.find((r) => r.path === '/v1/responses')!.body as { input: { role?: string; content?: string }[] };
    const message = first.input.find((item) => item.role === 'user')!.content!;
    assert.match(message, /^check a\.txt\n\nFollow this plan.*update_plan.*\n\n1\. Read a\.txt\n2\. Say done$/s);
    assert.deepEqual(state.plan, [
      { step: 'Read a.txt', status: 'done' },
      { step: 'Say done', status: 'in_progress' },
    ]);
  });
});
