// Commands that keep running (issue 23), end to end through the tools with real processes: run_command with
// background starts one through the real NodeCommandRunner, command_output reads it and stops it, and the
// process table (not our bookkeeping) shows it gone. Each command waits on a file the test creates, so
// nothing depends on how fast this machine is.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger, systemClock } from '../../src/base/common/ports';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { BackgroundCommands } from '../../src/tools/common/backgroundCommands';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeFileChanges, NodeWorkspaceFiles } from '../../src/tools/node';
import { eventually, processesWith } from '../security/harness';

const signal = new AbortController().signal;
const runCommand = allTools.find((tool) => tool.name === 'run_command')!;
const commandOutput = allTools.find((tool) => tool.name === 'command_output')!;
// A sleep length no other process has: the marker this test looks for in /proc.
const marker = (n: number) => String(8_000_000 + process.pid * 10 + n);

describe('background commands with real processes', { skip: process.platform === 'win32' ? 'process groups' : false }, () => {
  let root: string;
  let ctx: ToolContext;
  const fresh = (): ToolContext => {
    const runner = ctx.commands as NodeCommandRunner;
    const limits = { waitMs: 20_000, quietMs: 150, maxRunning: 2 };
    return { ...ctx, background: new BackgroundCommands({ start: (request) => runner.start(request), clock: systemClock, limits }) };
  };
  const call = async (tool: typeof runCommand, args: Record<string, unknown>, context: ToolContext) =>
    (await tool.prepare(args, context, signal)).execute(signal);

  before(async () => {
    root = join(await realpath(await mkdtemp(join(tmpdir(), 'tools-background-'))), 'ws');
    await mkdir(root);
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, { shell: '/bin/sh', killGraceMs: 300, drainMs: 100 }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    };
  });
  after(async () => {
    for (let n = 0; n < 4; n++) for (const pid of await processesWith(`sleep ${marker(n)}`)) process.kill(pid, 'SIGKILL');
    await rm(join(root, '..'), { recursive: true, force: true });
  });

  test('started in the background, shown as such for approval; a stop kills its process group', async () => {
    const context = fresh();
    const line = `echo start; sleep ${marker(0)} & echo "ready $$"; wait`;
    const prepared = await runCommand.prepare({ command: line, background: true }, context, signal);
    assert.equal(prepared.summary, `Run in the background ${line}`);
    assert.deepEqual(prepared.command, { line, cwd: '.', background: true });
    const started = await prepared.execute(signal);
    assert.equal(started.ok, true);
    assert.match(started.output, /^Started in the background as bg1\.\nBackground command bg1, output so far:\nstart\nready \d+\nStill running\./);
    const shell = Number(/ready (\d+)/.exec(started.output)![1]);
    // The shell (its command line holds the marker too) and the sleep it started.
    assert.equal((await processesWith(`sleep ${marker(0)}`)).length, 2);
    const stopped = await call(commandOutput, { id: 'bg1', stop: true }, context);
    assert.match(stopped.output, /^Background command bg1 was stopped \(no exit code\); its last output:\n\(no new output\)$/);
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(0)}`)).length === 0), 'the child outlived the stop');
    assert.throws(() => process.kill(shell, 0), /ESRCH/, 'the shell outlived the stop');
  });

  test('a read gives what is new since the last one; the end comes with its exit code', async () => {
    const context = fresh();
    const line = 'echo one; while [ ! -e go ]; do sleep 0.05; done; echo two; exit 4';
    const started = await call(runCommand, { command: line, background: true }, context);
    assert.match(started.output, /output so far:\none\nStill running/);
    await writeFile(join(root, 'go'), '');
    let outputs = '';
    let last = started;
    for (let i = 0; i < 20 && !/ended/.test(last.output); i++) {
      last = await call(commandOutput, { id: 'bg1' }, context);
      outputs += last.output;
    }
    assert.match(outputs, /\ntwo(\n|$)/);
    assert.doesNotMatch(outputs, /one/);
    assert.match(last.output, /^Background command bg1 ended: exit code 4\./);
    assert.equal(last.exitCode, 4);
    await rm(join(root, 'go'));
  });

  test('past the cap the model reads why; at the run end all are stopped', async () => {
    const context = fresh();
    for (let n = 1; n <= 2; n++) {
      const started = await call(runCommand, { command: `echo up; exec sleep ${marker(n)}`, background: true }, context);
      assert.match(started.output, /Still running/);
    }
    const refused = await call(runCommand, { command: `sleep ${marker(3)}`, background: true }, context);
    assert.equal(refused.ok, false);
    assert.match(refused.output, /^2 background commands are running \(bg1, bg2\), the most a session may run at once\./);
    await context.background!.stopAll();
    for (let n = 1; n <= 3; n++) assert.deepEqual(await processesWith(`sleep ${marker(n)}`), [], `sleep ${n} outlived the run`);
  });

  test('a runaway `yes` keeps only the last 8 KB in memory, and a read says how much it dropped', async () => {
    const context = fresh();
    const started = await call(runCommand, { command: `exec yes ${marker(3)}`, background: true }, context);
    // The wait ends as soon as the kept bytes are waiting, not after quietMs (yes never pauses).
    assert.match(started.output, /^Started in the background as bg1\.\nBackground command bg1, output so far:\n/);
    // Read until yes has written past the 8 KB kept: on a loaded machine that takes longer than 50 quick reads (up to 5 s).
    let read = await call(commandOutput, { id: 'bg1' }, context);
    await eventually(async () => {
      read = await call(commandOutput, { id: 'bg1' }, context);
      return /output cut/.test(read.output);
    });
    assert.match(read.output, /^Background command bg1, output so far:\n\(output cut: first \d+ bytes omitted\)\n/);
    assert.ok(context.background!.retainedBytes() <= 8 * 1024, `${context.background!.retainedBytes()} bytes kept`);
    assert.ok(Buffer.byteLength(read.output) < 8 * 1024 + 300);
    await call(commandOutput, { id: 'bg1', stop: true }, context);
    assert.ok(await eventually(async () => (await processesWith(`yes ${marker(3)}`)).length === 0), 'yes outlived the stop');
  });

  test('an unknown id, and a runner that cannot start it, each get a sentence', async () => {
    const context = fresh();
    const unknown = await call(commandOutput, { id: 'bg7' }, context);
    assert.deepEqual(unknown, {
      ok: false,
      output: 'There is no background command "bg7" in this session run. Start one with run_command and background:true.',
    });
    const broken = new NodeCommandRunner(root, { shell: '/nonexistent/shell' });
    const noShell: ToolContext = { ...context, background: new BackgroundCommands({ start: (request) => broken.start(request), clock: systemClock }) };
    const failed = await call(runCommand, { command: 'true', background: true }, noShell);
    assert.equal(failed.ok, false);
    assert.match(failed.output, /ENOENT/);
    const none = await call(runCommand, { command: 'true', background: true }, ctx);
    assert.deepEqual(none, { ok: false, output: 'Commands cannot run in the background here; run it without background.' });
  });
});
