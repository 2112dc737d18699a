// update_plan: the model's plan, bounded, saved with the session and shown as a checklist.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseSavedSession } from '../../../src/sessionModel/common/savedSession';
import { allTools, readOnlyTools } from '../../../src/tools/common/registry';
import { MAX_PLAN_STEPS, parsePlan, planChecklist, updatePlanTool } from '../../../src/tools/common/updatePlan';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { silentLogger } from '../../../src/base/common/ports';

let workspace: TempWorkspace;
beforeEach(() => {
  workspace = new TempWorkspace();
});
afterEach(() => workspace.dispose());
const context = (): ToolContext => ({
  files: new NodeWorkspaceFiles(workspace.root),
  changes: new NodeFileChanges(workspace.root),
  commands: new NodeCommandRunner(workspace.root),
  logger: silentLogger,
  protectedFiles: defaultProtectedFiles,
});

describe('the update_plan tool', () => {
  test('is offered in trusted and untrusted workspaces, and its definition stays short', () => {
    assert.ok(allTools.includes(updatePlanTool));
    assert.ok(readOnlyTools.includes(updatePlanTool));
    const definition = JSON.stringify({ name: updatePlanTool.name, description: updatePlanTool.description, parameters: updatePlanTool.parameters });
    assert.ok(definition.length < 480, `${definition.length} bytes`);
  });

  test('returns the plan with each step as one bounded line', async () => {
    const prepared = await updatePlanTool.prepare(
      {
        steps: [
          { step: 'Read\n the code', status: 'done' },
          { step: 'x'.repeat(500), status: 'in_progress' },
          { step: 'Test', status: 'pending' },
        ],
      },
      context(),
    );
    assert.equal(prepared.refusal, undefined);
    assert.equal(prepared.summary, 'Update the plan (1/3 done)');
    const outcome = await prepared.execute(new AbortController().signal);
    assert.equal(outcome.ok, true);
    assert.equal(outcome.plan?.[0].step, 'Read the code');
    assert.equal(outcome.plan?.[1].step.length, 200);
    assert.deepEqual(
      outcome.plan?.map((s) => s.status),
      ['done', 'in_progress', 'pending'],
    );
  });

  test('refuses a bad status, an empty plan and too many steps, in words the model can act on', async () => {
    for (const args of [
      { steps: [{ step: 'a', status: 'started' }] },
      { steps: [] },
      { steps: Array.from({ length: MAX_PLAN_STEPS + 1 }, () => ({ step: 'a', status: 'pending' })) },
    ]) {
      const prepared = await updatePlanTool.prepare(args, context());
      assert.match(prepared.refusal ?? '', /^(Invalid arguments for update_plan: steps|The plan has)/);
    }
  });

  test("the checklist marks done steps, bolds the current one, and shows the model's markup as text", () => {
    assert.equal(
      planChecklist([
        { step: 'Read', status: 'done' },
        { step: 'Edit [x](http://evil)', status: 'in_progress' },
        { step: 'Test', status: 'pending' },
      ]),
      '- [x] Read\n- [ ] **Edit \\[x\\]\\(http://evil\\)**\n- [ ] Test',
    );
  });

  test('a saved plan is read back defensively', () => {
    assert.deepEqual(parsePlan([{ step: 'a', status: 'done' }, { step: 3, status: 'done' }, null, { step: 'b', status: 'weird' }]), [
      { step: 'a', status: 'done' },
    ]);
    assert.equal(parsePlan('nope'), undefined);
    assert.equal(parsePlan([]), undefined);
    assert.equal(parsePlan(Array.from({ length: 100 }, () => ({ step: 's', status: 'pending' })))?.length, MAX_PLAN_STEPS);
  });
});

describe('a session with a plan', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());

  test('keeps the latest plan in its state, announces it, and keeps it through a reload', async () => {
    const steps = [
      { step: 'Read a.txt', status: 'in_progress' },
      { step: 'Change it', status: 'pending' },
    ];
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'update_plan', arguments: { steps } }] },
      {
        toolCalls: [
          {
            name: 'update_plan',
            arguments: {
              steps: [
                { ...steps[0], status: 'done' },
                { ...steps[1], status: 'done' },
              ],
            },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, policy: { mode: 'ask', deniedCommands: [] } });
    const state = startSession('change a.txt');
    const events = await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    assert.equal(approvals.length, 0, 'a plan needs no approval');
    const plans = events.flatMap((e) => (e.type === 'plan' ? [e.plan] : []));
    assert.equal(plans.length, 2);
    assert.deepEqual(plans[0], steps);
    assert.deepEqual(
      state.plan?.map((s) => s.status),
      ['done', 'done'],
    );
    const outputs = state.transcript.filter((item) => item.type === 'function_call_output');
    assert.deepEqual(
      outputs.map((item) => (item.type === 'function_call_output' ? item.output : '')),
      ['Plan updated.', 'Plan updated.'],
    );
    assert.deepEqual(parseSavedSession(JSON.parse(JSON.stringify(state)))?.plan, state.plan);
  });
});
