// The security decision of the agent's commands, without VS Code: whether a command of a session runs in the
// sandbox (and so unasked), under which mode decided when, the no-sandbox warning, and the guard per session.
// The machine's sandbox is a recording double of its port: whether bubblewrap works here is what it answers.
// The home folder is a double too (/home/u, real paths as given), but on a real temp folder where symlinks count.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { commandApprovalReason, needsApproval } from '../../../src/agent/common/approvals/approvalPolicy';
import { type ApprovalMode } from '../../../src/settings/common/valueSets';
import { sessionPolicy } from '../../../src/agent/common/sessions/sessionPolicy';
import type { Logger } from '../../../src/base/common/ports';
import type { ControlFileGuard } from '../../../src/terminal/common/commandPorts';
import type { SandboxLaunch } from '../../../src/terminal/common/sandbox';
import {
  SandboxDecision,
  type HomeFolder,
  type SandboxAvailability,
  type SandboxSession,
  type SandboxSettings,
} from '../../../src/terminal/common/sandboxDecision';
import { nodeHomeFolder } from '../../../src/terminal/node/homeFolder';
import { toolsFor } from '../../../src/tools/common/registry';
import { TempWorkspace } from '../helpers/agent';

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

/** The home folder /home/u of a machine without symlinks: every path is its own real path. */
const plainHome: HomeFolder = { path: '/home/u', realPath: (path) => Promise.resolve(path) };

function setup(approval: ApprovalMode = 'auto', options: { guard?: boolean; home?: HomeFolder; windowFolders?: readonly string[] } = {}) {
  const sandbox = new RecordingSandbox();
  const settings: SandboxSettings & { approval: ApprovalMode } = { approval, protectedFiles: ['.env'], sandboxNetwork: false };
  const logger = recordingLogger();
  const shown: string[] = [];
  const guards: { root: string; sessionId: string; willSandbox: () => boolean }[] = [];
  const decision = new SandboxDecision({
    sandbox,
    settings: () => settings,
    logger,
    home: options.home ?? plainHome,
    warnUser: (message) => shown.push(message),
    ...(options.windowFolders ? { windowFolders: () => options.windowFolders ?? [] } : {}),
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
/** The run of a session in the workspace /w (outside the home folder). */
const run = { root: '/w' };
const command = (sessionId: string, line = 'npm test', root = '/w') => ({ sessionId, root, command: line, cwd: `${root.replace(/\/$/, '')}/src` });
const policyOf = (decision: SandboxDecision, sessionId: string, approval: ApprovalMode, root = '/w') =>
  sessionPolicy(decision, { id: sessionId, root }, { approval, deniedCommands: ['rm -rf'], protectedFiles: [] });
/** Whether the engine asks before `npm test` under the policy the decision gives now. */
const asksForCommand = (decision: SandboxDecision, sessionId: string, approval: ApprovalMode, root = '/w') =>
  needsApproval(policyOf(decision, sessionId, approval, root), 'command', 'npm test');
/** What a command's approval says, and the warning the user gets once per window, when the workspace is or holds the home folder. */
const HOLDS_HOME_REASON =
  'the workspace is your home folder (or holds it): a sandboxed command could read and change your shell and editor files, so commands ask.';
const NO_SANDBOX_REASON = 'there is no sandbox here, so in the auto mode commands ask.';
const homeWarning =
  'Gateway: in the auto mode, the workspace is your home folder (or holds it): a sandboxed command could read and change your shell and editor files, so commands ask before they run.';

describe('the sandbox decision of agent commands', () => {
  test('auto with a sandbox: the command runs unasked, in the session sandbox, with the protected files and network setting', async () => {
    const { decision, sandbox } = setup('auto');
    await decision.probe(run);
    assert.equal(asksForCommand(decision, 's1', 'auto'), false);
    assert.equal(decision.commandsSandboxed('s1', '/w'), true);
    const launch = await decision.sandboxFor(command('s1'), signal);
    assert.ok(launch);
    assert.deepEqual(sandbox.launches, [
      { sessionId: 's1', request: { root: '/w', cwd: '/w/src', command: 'npm test', protectedFiles: ['.env'], network: false, alsoCovered: [] } },
    ]);
  });

  test("the window's other folders are covered too: a worktree session's launch names the folder it was made from", async () => {
    const { decision, sandbox } = setup('auto', { windowFolders: ['/srv/app', '/srv/lib'] });
    const worktree = '/srv/.app.gateway-worktrees/s1';
    await decision.probe({ root: worktree });
    assert.ok(await decision.sandboxFor(command('s1', 'npm test', worktree), signal));
    assert.deepEqual(sandbox.launches[0]?.request.alsoCovered, ['/srv/app', '/srv/lib']);
    // A session of a window folder: the other folders, not itself again.
    await decision.probe({ root: '/srv/lib' });
    assert.ok(await decision.sandboxFor(command('s2', 'npm test', '/srv/lib'), signal));
    assert.deepEqual(sandbox.launches[1]?.request.alsoCovered, ['/srv/app']);
  });

  test('before the probe has answered nothing is sandboxed: auto asks', async () => {
    const { decision, sandbox } = setup('auto');
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
    assert.deepEqual(sandbox.made, []);
  });

  test('a switch out of auto between the decision and the run does not unsandbox the command already decided', async () => {
    const { decision, settings, sandbox } = setup('auto');
    await decision.probe(run);
    assert.equal(asksForCommand(decision, 's1', 'auto'), false);
    settings.approval = 'ask';
    assert.equal(decision.commandsSandboxed('s1', '/w'), true);
    assert.ok(await decision.sandboxFor(command('s1'), signal));
    assert.equal(sandbox.launches.length, 1);
    // The next decision is made under `ask`: that command asks, and once approved runs outside the sandbox.
    assert.equal(asksForCommand(decision, 's1', 'ask'), true);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
  });

  test('a switch into auto after an ask decision sandboxes the command too (the mode now is auto)', async () => {
    const { decision, settings } = setup('ask');
    await decision.probe(run);
    assert.equal(asksForCommand(decision, 's1', 'ask'), true);
    settings.approval = 'auto';
    assert.equal(decision.commandsSandboxed('s1', '/w'), true);
  });

  test('ask and auto-edit: commands ask and run outside the sandbox; no sandbox session is made', async () => {
    for (const mode of ['ask', 'auto-edit'] as const) {
      const { decision, sandbox } = setup(mode);
      await decision.probe(run);
      assert.equal(asksForCommand(decision, 's1', mode), true, mode);
      assert.equal(await decision.sandboxFor(command('s1'), signal), undefined, mode);
      assert.deepEqual(sandbox.made, [], mode);
    }
  });

  test('the decided mode is per session', async () => {
    const { decision, settings } = setup('auto');
    await decision.probe(run);
    sessionPolicy(decision, { id: 'a', root: '/w' }, { approval: 'auto', deniedCommands: [], protectedFiles: [] });
    sessionPolicy(decision, { id: 'b', root: '/w' }, { approval: 'ask', deniedCommands: [], protectedFiles: [] });
    settings.approval = 'ask';
    assert.equal(decision.commandsSandboxed('a', '/w'), true);
    assert.equal(decision.commandsSandboxed('b', '/w'), false);
    assert.equal(decision.commandsSandboxed('never-decided', '/w'), false);
  });

  test('a deleted session forgets its decision', async () => {
    const { decision, settings } = setup('auto');
    await decision.probe(run);
    decision.decide('s1', { mode: 'auto', root: '/w' });
    settings.approval = 'ask';
    decision.forget('s1');
    assert.equal(decision.commandsSandboxed('s1', '/w'), false);
  });

  test('no sandbox here: auto asks, nothing is sandboxed, and the user is warned once per window, in the log too', async () => {
    const { decision, sandbox, shown, logger } = setup('auto');
    sandbox.availability = { ok: false, reason: 'bwrap: not found' };
    await decision.probe(run);
    await decision.probe(run);
    const warning = 'Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (bwrap: not found).';
    assert.deepEqual(shown, [warning]);
    assert.deepEqual(logger.warnings, [warning]);
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
    assert.equal(decision.commandsSandboxed('s1', '/w'), false);
    assert.equal(await decision.sandboxFor(command('s1'), signal), undefined);
    assert.deepEqual(sandbox.made, []);
  });

  test('no sandbox outside auto: no warning, until a run starts in auto', async () => {
    const { decision, sandbox, shown, settings } = setup('auto-edit');
    sandbox.availability = { ok: false, reason: 'user namespaces are off' };
    await decision.probe(run);
    assert.deepEqual(shown, []);
    settings.approval = 'auto';
    await decision.probe(run);
    assert.equal(shown.length, 1);
  });

  test('the probe answers each run: a sandbox that stops working unsandboxes the next run (it asks)', async () => {
    const { decision, sandbox } = setup('auto');
    await decision.probe(run);
    assert.equal(decision.commandsSandboxed('s1', '/w'), true);
    sandbox.availability = { ok: false, reason: 'gone' };
    await decision.probe(run);
    assert.equal(decision.commandsSandboxed('s1', '/w'), false);
    assert.equal(asksForCommand(decision, 's1', 'auto'), true);
  });

  test("a session's commands share one sandbox until its run ends; another session has its own", async () => {
    const { decision, sandbox, logger } = setup('auto');
    await decision.probe(run);
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
    await decision.probe(run);
    assert.ok(decision.controlGuardFor('s1', '/w'));
    assert.deepEqual(
      guards.map(({ root, sessionId }) => ({ root, sessionId })),
      [{ root: '/w', sessionId: 's1' }],
    );
    const willSandbox = guards[0].willSandbox;
    assert.equal(willSandbox(), true);
    settings.approval = 'ask';
    assert.equal(willSandbox(), false, 'approved outside the sandbox: the user’s own command');
    decision.decide('s1', { mode: 'auto', root: '/w' });
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

describe('auto in a workspace that is the home folder or holds it', () => {
  // The sandbox binds the workspace writable over the emptied home folder: with the home folder inside the workspace,
  // shell history, VS Code's state and ~/.bashrc would be back. So there commands ask, as in auto-edit, and run outside it.
  for (const root of ['/home/u', '/home/u/', '/home/u/./', '/home/x/../u', '/home', '/home/', '/']) {
    test(`workspace ${root}: every command asks, says why, and runs (once approved) outside the sandbox`, async () => {
      const { decision, sandbox, shown, logger, guards } = setup('auto', { guard: true });
      await decision.probe({ root });
      assert.equal(asksForCommand(decision, 's1', 'auto', root), true);
      assert.equal(commandApprovalReason(policyOf(decision, 's1', 'auto', root), 'npm test'), HOLDS_HOME_REASON);
      assert.deepEqual(shown, [homeWarning]);
      assert.deepEqual(logger.warnings, [homeWarning]);
      assert.equal(decision.commandsSandboxed('s1', root), false);
      assert.equal(await decision.sandboxFor(command('s1', 'npm test', root), signal), undefined);
      assert.deepEqual(sandbox.made, []);
      assert.ok(decision.controlGuardFor('s1', root));
      assert.equal(guards[0].willSandbox(), false, 'the guard watches only sandboxed commands: an approved one is the user’s own');
    });
  }

  test('a folder inside the home folder, or beside it with a name that starts the same, is sandboxed unasked as before', async () => {
    for (const root of ['/home/u/project', '/home/u/project/', '/home/user', '/home/u2/project', '/srv/u']) {
      const { decision, sandbox, shown } = setup('auto');
      await decision.probe({ root });
      assert.equal(asksForCommand(decision, 's1', 'auto', root), false, root);
      assert.ok(await decision.sandboxFor(command('s1', 'npm test', root), signal), root);
      assert.deepEqual(sandbox.made, ['s1'], root);
      assert.deepEqual(shown, [], root);
    }
  });

  test('the warning comes once per window; each session in the home folder asks; one elsewhere still runs unasked', async () => {
    const { decision, shown } = setup('auto');
    await decision.probe({ root: '/home/u' });
    await decision.probe({ root: '/home/u' });
    await decision.probe({ root: '/' });
    await decision.probe(run);
    assert.deepEqual(shown, [homeWarning]);
    assert.equal(asksForCommand(decision, 'a', 'auto', '/home/u'), true);
    assert.equal(asksForCommand(decision, 'b', 'auto', '/'), true);
    assert.equal(asksForCommand(decision, 'c', 'auto', '/w'), false);
  });

  test('outside auto no warning (every command asks anyway) until a run starts in auto; a switch into auto mid-run still asks', async () => {
    const { decision, shown, settings } = setup('auto-edit');
    await decision.probe({ root: '/home/u' });
    assert.deepEqual(shown, []);
    assert.equal(asksForCommand(decision, 's1', 'auto-edit', '/home/u'), true);
    settings.approval = 'auto';
    assert.equal(asksForCommand(decision, 's1', 'auto', '/home/u'), true);
    assert.equal(decision.commandsSandboxed('s1', '/home/u'), false);
    await decision.probe({ root: '/home/u' });
    assert.deepEqual(shown, [homeWarning]);
  });

  test('no sandbox either: the no-sandbox warning and reason, not the home folder’s', async () => {
    const { decision, sandbox, shown } = setup('auto');
    sandbox.availability = { ok: false, reason: 'bwrap: not found' };
    await decision.probe({ root: '/home/u' });
    assert.deepEqual(shown, ['Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (bwrap: not found).']);
    assert.equal(commandApprovalReason(policyOf(decision, 's1', 'auto', '/home/u'), 'npm test'), NO_SANDBOX_REASON);
  });

  test('a workspace not yet checked asks (it cannot be shown to be outside the home folder); a command sent anyway goes into the sandbox', async () => {
    const { decision } = setup('auto');
    await decision.probe(run);
    assert.equal(asksForCommand(decision, 's1', 'auto', '/elsewhere'), true);
    assert.match(commandApprovalReason(policyOf(decision, 's1', 'auto', '/elsewhere'), 'npm test') ?? '', /not been checked/);
    assert.equal(decision.commandsSandboxed('s1', '/elsewhere'), true);
  });

  test('a failing real-path lookup compares the paths as written', async () => {
    const { decision } = setup('auto', { home: { path: '/home/u', realPath: () => Promise.reject(new Error('EACCES')) } });
    await decision.probe({ root: '/home/' });
    assert.equal(asksForCommand(decision, 's1', 'auto', '/home/'), true);
  });

  test('real paths: a home folder given through a symlink, a workspace opened through one, and a parent of either', async () => {
    const temp = new TempWorkspace();
    try {
      const base = (await nodeHomeFolder().realPath(temp.root))!;
      const realHome = join(base, 'data', 'u');
      mkdirSync(join(realHome, 'project'), { recursive: true });
      mkdirSync(join(base, 'home'));
      symlinkSync(realHome, join(base, 'home', 'u'));
      symlinkSync(realHome, join(base, 'ws'));
      const cases: [home: string, root: string, asks: boolean][] = [
        // $HOME is the symlink; the workspace is the folder it leads to, or that folder's parent.
        [join(base, 'home', 'u'), realHome, true],
        [join(base, 'home', 'u'), `${realHome}/`, true],
        [join(base, 'home', 'u'), join(base, 'data'), true],
        // The workspace holds the symlink itself: a command could re-point the user's home folder.
        [join(base, 'home', 'u'), join(base, 'home'), true],
        // $HOME is real; the workspace is opened through a symlink to it.
        [realHome, join(base, 'ws'), true],
        [realHome, `${join(base, 'ws')}/`, true],
        // Inside the home folder, however reached: sandboxed as before.
        [join(base, 'home', 'u'), join(realHome, 'project'), false],
        [realHome, join(base, 'ws', 'project'), false],
        [join(base, 'home', 'u'), join(base, 'home', 'u', 'project'), false],
      ];
      for (const [home, root, asks] of cases) {
        const { decision } = setup('auto', { home: nodeHomeFolder(home) });
        await decision.probe({ root });
        assert.equal(asksForCommand(decision, 's1', 'auto', root), asks, `home ${home}, workspace ${root}`);
        assert.equal(decision.commandsSandboxed('s1', root), !asks, `home ${home}, workspace ${root}`);
      }
    } finally {
      temp.dispose();
    }
  });
});
