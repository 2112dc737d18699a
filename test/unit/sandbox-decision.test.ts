// The security decision of the agent's commands, without VS Code: whether a command of a session runs in the
// sandbox (and so unasked), under which mode decided when, the no-sandbox warning, and the guard per session.
// The machine's sandbox is a recording double of its port: whether bubblewrap works here is what it answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsApproval, type ApprovalMode } from '../../src/agent/common/approvalPolicy';
import { sessionPolicy } from '../../src/agent/common/sessionPolicy';
import type { Logger } from '../../src/base/common/ports';
import type { ControlFileGuard } from '../../src/terminal/common/commandPorts';
import type { SandboxLaunch } from '../../src/terminal/common/sandbox';
import { SandboxDecision, type SandboxAvailability, type SandboxSession, type SandboxSettings } from '../../src/terminal/common/sandboxDecision';
import { toolsFor } from '../../src/tools/common/registry';

type LaunchRequest = Parameters<SandboxSession['launch']>[0];

/** A machine sandbox that answers `available` as told and records the sessions and launches it makes. */
class RecordingSandbox {
  availability: SandboxAvailability = { ok: true };
  readonly made: string[] = [];
  readonly launches: { sessionId: string; request: LaunchRequest }[] = [];
  readonly disposed: string[] = [];
  failDispose = false;

  available(): Promise<SandboxAvailability> {
    return Promise.resolve(this.availability);
  }

  forSession(sessionId: string): SandboxSession {
    this.made.push(sessionId);
    return {
      launch: (request) => {
        this.launches.push({ sessionId, request });
        return Promise.resolve({ argv: ['bwrap', '--', request.command] } as unknown as SandboxLaunch);
      },
      dispose: () => {
        this.disposed.push(sessionId);
        return this.failDispose ? Promise.reject(new Error('EBUSY')) : Promise.resolve();
      },
    };
  }
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => {};
  return { warnings, trace: ignore, debug: ignore, info: ignore, error: ignore, warn: (message) => warnings.push(message) };
}

function setup(approval: ApprovalMode = 'auto', options: { guard?: boolean } = {}) {
  const sandbox = new RecordingSandbox();
  const settings: SandboxSettings & { approval: ApprovalMode } = { approval, protectedFiles: ['.env'], sandboxNetwork: false };
  const logger = recordingLogger();
  const shown: string[] = [];
  const guards: { root: string; sessionId: string; willSandbox: () => boolean }[] = [];
  const decision = new SandboxDecision({
    sandbox,
    settings: () => settings,
    logger,
    warnUser: (message) => shown.push(message),
    ...(options.guard
      ? {
          controlGuard: (root: string, sessionId: string, willSandbox: () => boolean) => {
            guards.push({ root, sessionId, willSandbox });
            return {} as ControlFileGuard;
          },
        }
      : {}),
  });
  return { sandbox, settings, logger, shown, guards, decision };
}

const signal = new AbortController().signal;
const command = (sessionId: string, line = 'npm test') => ({ sessionId, root: '/w', command: line, cwd: '/w/src' });
/** Whether the engine asks before `npm test` under the policy the decision gives now. */
const asksForCommand = (decision: SandboxDecision, sessionId: string, approval: ApprovalMode) =>
  needsApproval(sessionPolicy(decision, sessionId, { approval, deniedCommands: ['rm -rf'], protectedFiles: [] }), 'command', 'npm test');

describe('the sandbox decision of agent commands', () => {
  test('auto with a sandbox: the command runs unasked, in the session sandbox, with the protected files and network setting', async () => {
    const { decision, sandbox } = setup('auto');
    await decision.probe();
    assert.equal(asksForCommand(decision, 's1', 'auto'), false);
    assert.equal(decision.commandsSandboxed('s1'), true);
    const launch = await decision.sandboxFor(command('s1'), signal);
    assert.ok(launch);
    assert.deepEqual(sandbox.launches, [
      { sessionId: 's1', request: { root: '/w', cwd: '/w/src', command: 'npm test', protectedFiles: ['.env'], network: false } },
    ]);
  });

  test('before the probe has answered nothing is sandboxed: auto asks', async () => {
    const { decision, sandbox } = setup('auto');
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
    assert.deepEqual(sandbox.made, []);
  });

  test('a switch out of auto between the decision and the run does not unsandbox the command already decided', async () => {
    const { decision, settings, sandbox } = setup('auto');
    await decision.probe();
    assert.equal(asksForCommand(decision, 's1', 'auto'), false);
    settings.approval = 'ask';
    assert.equal(decision.commandsSandboxed('s1'), true);
    assert.ok(await decision.sandboxFor(command('s1'), signal));
    assert.equal(sandbox.launches.length, 1);
    // The next decision is made under `ask`: that command asks, and once approved runs outside the sandbox.
    assert.equal(asksForCommand(decision, 's1', 'ask'), true);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
  });

  test('a switch into auto after an ask decision sandboxes the command too (the mode now is auto)', async () => {
    const { decision, settings } = setup('ask');
    await decision.probe();
    assert.equal(asksForCommand(decision, 's1', 'ask'), true);
    settings.approval = 'auto';
    assert.equal(decision.commandsSandboxed('s1'), true);
  });

  test('ask and auto-edit: commands ask and run outside the sandbox; no sandbox session is made', async () => {
    for (const mode of ['ask', 'auto-edit'] as const) {
      const { decision, sandbox } = setup(mode);
      await decision.probe();
      assert.equal(asksForCommand(decision, 's1', mode), true, mode);
      assert.equal(await decision.sandboxFor(command('s1'), signal), undefined, mode);
      assert.deepEqual(sandbox.made, [], mode);
    }
  });

  test('the decided mode is per session', async () => {
    const { decision, settings } = setup('auto');
    await decision.probe();
    sessionPolicy(decision, 'a', { approval: 'auto', deniedCommands: [], protectedFiles: [] });
    sessionPolicy(decision, 'b', { approval: 'ask', deniedCommands: [], protectedFiles: [] });
    settings.approval = 'ask';
    assert.equal(decision.commandsSandboxed('a'), true);
    assert.equal(decision.commandsSandboxed('b'), false);
    assert.equal(decision.commandsSandboxed('never-decided'), false);
  });

  test('a deleted session forgets its decision', async () => {
    const { decision, settings } = setup('auto');
    await decision.probe();
    decision.decide('s1', 'auto');
    settings.approval = 'ask';
    decision.forget('s1');
    assert.equal(decision.commandsSandboxed('s1'), false);
  });

  test('no sandbox here: auto asks, nothing is sandboxed, and the user is warned once per window, in the log too', async () => {
    const { decision, sandbox, shown, logger } = setup('auto');
    sandbox.availability = { ok: false, reason: 'bwrap: not found' };
    await decision.probe();
    await decision.probe();
    const warning = 'Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (bwrap: not found).';
    assert.deepEqual(shown, [warning]);
    assert.deepEqual(logger.warnings, [warning]);
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
    assert.equal(decision.commandsSandboxed('s1'), false);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
    assert.deepEqual(sandbox.made, []);
  });

  test('no sandbox outside auto: no warning, until a run starts in auto', async () => {
    const { decision, sandbox, shown, settings } = setup('auto-edit');
    sandbox.availability = { ok: false, reason: 'user namespaces are off' };
    await decision.probe();
    assert.deepEqual(shown, []);
    settings.approval = 'auto';
    await decision.probe();
    assert.equal(shown.length, 1);
  });

  test('the probe answers each run: a sandbox that stops working unsandboxes the next run (it asks)', async () => {
    const { decision, sandbox } = setup('auto');
    await decision.probe();
    assert.equal(decision.commandsSandboxed('s1'), true);
    sandbox.availability = { ok: false, reason: 'gone' };
    await decision.probe();
    assert.equal(decision.commandsSandboxed('s1'), false);
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
  });

  test("a session's commands share one sandbox until its run ends; another session has its own", async () => {
    const { decision, sandbox, logger } = setup('auto');
    await decision.probe();
    await decision.sandboxFor(command('s1'), signal);
    await decision.sandboxFor(command('s1', 'ls'), signal);
    await decision.sandboxFor(command('s2'), signal);
    assert.deepEqual(sandbox.made, ['s1', 's2']);
    sandbox.failDispose = true;
    decision.endSession('s1');
    await decision.sandboxFor(command('s1'), signal);
    assert.deepEqual(sandbox.made, ['s1', 's2', 's1'], 'a new run gets a new sandbox (and /tmp)');
    decision.dispose();
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(sandbox.disposed.sort(), ['s1', 's1', 's2']);
    assert.ok(logger.warnings.some((line) => line.includes("agent session s1: removing its sandbox's /tmp failed: Error: EBUSY")));
  });

  test('the control-file guard guards exactly the commands that go into the sandbox', async () => {
    const { decision, settings, guards } = setup('auto', { guard: true });
    await decision.probe();
    assert.ok(decision.controlGuardFor('s1', '/w'));
    assert.deepEqual(
      guards.map(({ root, sessionId }) => ({ root, sessionId })),
      [{ root: '/w', sessionId: 's1' }],
    );
    const willSandbox = guards[0].willSandbox;
    assert.equal(willSandbox(), true);
    settings.approval = 'ask';
    assert.equal(willSandbox(), false, 'approved outside the sandbox: the user’s own command');
    decision.decide('s1', 'auto');
    assert.equal(willSandbox(), true);
    assert.equal(setup('auto').decision.controlGuardFor('s1', '/w'), undefined, 'no guard where the machine has none');
  });

  test('an untrusted workspace offers no command tool at all: nothing is left to decide', () => {
    assert.deepEqual(
      toolsFor(false).filter((tool) => tool.kind === 'command'),
      [],
    );
    assert.ok(toolsFor(true).some((tool) => tool.kind === 'command'));
  });
});
