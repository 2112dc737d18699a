// Issue 23: a command started in the background under `auto` runs in the same sandbox as any command (the
// same bwrap launch): it cannot write outside the workspace, and once it is stopped, or the session run ends,
// nothing of it runs any more, also what it started with setsid. Checked in the process table, as anyone
// outside sees it, not in our bookkeeping.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger, systemClock } from '../../src/base/common/ports';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { BackgroundCommands } from '../../src/tools/common/backgroundCommands';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeFileChanges, NodeWorkspaceFiles } from '../../src/tools/node';
import { eventually, makeFixture, never, processesWith, sandboxHere, type Fixture } from './harness';

const runCommand = allTools.find((tool) => tool.name === 'run_command')!;
const commandOutput = allTools.find((tool) => tool.name === 'command_output')!;

describe('background commands in the sandbox', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let ctx: ToolContext;
  // Unique sleep lengths: the markers this test looks for in /proc.
  const marker = (n: number) => String(6_000_000 + process.pid * 10 + n);
  const call = async (tool: typeof runCommand, args: Record<string, unknown>) => (await tool.prepare(args, ctx, never)).execute(never);

  before(async () => {
    fixture = await makeFixture();
    const { root, session } = fixture;
    const runner = new NodeCommandRunner(root, {
      killGraceMs: 500,
      sandbox: { launch: (line, cwd) => session.launch({ root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false }, never) },
    });
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: runner,
      controlGuard: fixture.guard,
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      background: new BackgroundCommands({ start: (request) => runner.start(request), clock: systemClock, limits: { quietMs: 300, waitMs: 20_000 } }),
    };
  });
  after(async () => {
    for (let n = 0; n < 4; n++) for (const pid of await processesWith(`sleep ${marker(n)}`)) process.kill(pid, 'SIGKILL');
    await fixture.remove();
  });

  test('it runs sandboxed: nothing written outside the workspace, and a stop leaves nothing running', async () => {
    const outside = [join(fixture.base, 'escaped.txt'), join(fixture.root, '../escaped.txt')];
    const writes = outside.map((path) => `echo x > ${path}`).join('; ');
    const line = `${writes}; echo x > inside.txt; echo "[inside $?]"; setsid sleep ${marker(0)} & echo ready; exec sleep ${marker(1)}`;
    const started = await call(runCommand, { command: line, background: true });
    assert.match(started.output, /^Started in the background as bg1\.\n/);
    assert.match(started.output, /\[inside 0\]/);
    assert.match(started.output, /Ran in the sandbox of the auto approval mode/);
    // Written where the sandbox puts them (its private /tmp, the home folder's scratch tmpfs), never on the host.
    for (const path of outside) await assert.rejects(access(path), /ENOENT/);
    await access(join(fixture.root, 'inside.txt'));
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(0)}`)).length > 0), 'the setsid sleep never ran');
    const stopped = await call(commandOutput, { id: 'bg1', stop: true });
    assert.match(stopped.output, /^Background command bg1 was stopped/);
    // As for any stopped command (processes.test.ts): the namespace's end follows bwrap's within moments.
    for (const n of [0, 1]) assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(n)}`)).length === 0), `sleep ${n} outlived the stop`);
  });

  test("the session run's end stops every background command, with all it started", async () => {
    const line = (n: number) => `setsid sleep ${marker(n)} > /dev/null 2>&1 & echo ready; exec sleep ${marker(n + 1)}`;
    assert.match((await call(runCommand, { command: line(2), background: true })).output, /ready/);
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(2)}`)).length > 0), 'the setsid sleep never ran');
    await ctx.background!.stopAll();
    for (const n of [2, 3]) {
      assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(n)}`)).length === 0), `sleep ${n} outlived the session's end`);
    }
  });
});
