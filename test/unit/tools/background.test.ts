// Commands that keep running (issue 23): the manager's waits, bounds and stops in virtual time, and the ring
// buffer its output goes through. The output source here is a command the test drives by hand (what it prints
// and when it ends), so every wait is exact; real processes, the real runner and the tools are in
// tools-background-processes.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LINGERING_REASON, type BackgroundStart, type ControlWatch, type StartedCommand } from '../../../src/terminal/common/commandPorts';
import type { ControlRollback } from '../../../src/terminal/common/controlPaths';
import { BackgroundCommands, BackgroundLimitReached, UnknownBackgroundCommand } from '../../../src/tools/common/backgroundCommands';
import { describeBackground } from '../../../src/tools/common/commandOutput';
import { OutputRing } from '../../../src/tools/common/outputRing';
import { VirtualClock } from '../helpers/clock';

const never = new AbortController().signal;

/** A started command the test drives: what it prints, when it ends, and whether it was stopped. */
class DrivenCommand implements StartedCommand {
  stops = 0;
  /** Whether its stop gave up waiting while a process of it still ran. */
  outlivedStop = false;
  private finish: (code: number | undefined) => void = () => undefined;
  readonly ended = new Promise<number | undefined>((resolve) => (this.finish = resolve));

  constructor(readonly request: BackgroundStart) {}

  print(text: string): void {
    this.request.onOutput(text);
  }

  exit(code: number | undefined): void {
    this.finish(code);
  }

  stop(): Promise<void> {
    this.stops++;
    this.exit(undefined);
    return this.ended.then(() => undefined);
  }

  lingering(): boolean {
    return this.outlivedStop;
  }
}

function setup(limits: Partial<{ maxRunning: number; waitMs: number; quietMs: number; keptBytes: number }> = {}) {
  const clock = new VirtualClock({ manual: true });
  const started: DrivenCommand[] = [];
  const commands = new BackgroundCommands({
    clock,
    limits: { waitMs: 10_000, quietMs: 1_000, keptBytes: 1_000, ...limits },
    start: (request) => {
      const command = new DrivenCommand(request);
      started.push(command);
      return Promise.resolve(command);
    },
  });
  return { clock, started, commands };
}

/** Lets promise callbacks run (the manager's awaits), without moving virtual time. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('OutputRing', () => {
  test('keeps only its capacity however much is written, and counts what a read missed', () => {
    const ring = new OutputRing(1024);
    const line = `${'y'.repeat(63)}\n`;
    for (let i = 0; i < 100_000; i++) ring.add(line);
    assert.equal(ring.retainedBytes, 1024);
    const first = ring.read();
    assert.equal(first.text.length, 1024);
    assert.equal(first.droppedBytes, 6_400_000 - 1024);
    ring.add('new\n');
    assert.deepEqual(ring.read(), { text: 'new\n', droppedBytes: 0 });
    assert.deepEqual(ring.read(), { text: '', droppedBytes: 0 });
  });

  test('a cut never splits a character', () => {
    const ring = new OutputRing(10);
    ring.add('ééééééééé');
    const read = ring.read();
    assert.equal(read.text, 'ééééé');
    assert.equal(read.droppedBytes, 8);
  });
});

describe('BackgroundCommands', () => {
  test('the start returns once the first output has settled, not at the wait bound', async () => {
    const { clock, started, commands } = setup();
    const starting = commands.start({ command: 'server', cwd: '.' }, never);
    await settle();
    started[0].print('listening on 8080\n');
    clock.advance(999);
    started[0].print('ready\n');
    clock.advance(999);
    let report: Awaited<typeof starting> | undefined;
    void starting.then((r) => (report = r));
    await settle();
    assert.equal(report, undefined, 'returned before the output was quiet for quietMs');
    clock.advance(1);
    await settle();
    assert.deepEqual(report, { id: 'bg1', command: 'server', output: 'listening on 8080\nready\n', droppedBytes: 0, end: undefined, rollback: '' });
    assert.deepEqual(commands.runningIds(), ['bg1']);
  });

  test('a command that prints without pause returns at the wait bound; one that prints nothing too', async () => {
    const { clock, started, commands } = setup();
    const chatty = commands.start({ command: 'chatty', cwd: '.' }, never);
    await settle();
    for (let t = 0; t < 10_000; t += 500) {
      started[0].print('.');
      clock.advance(500);
    }
    assert.equal((await chatty).output.length, 20);
    const silent = commands.start({ command: 'silent', cwd: '.' }, never);
    await settle();
    clock.advance(10_000);
    assert.equal((await silent).output, '');
  });

  test('a flood returns as soon as the kept bytes are waiting, and a later read says how much it missed', async () => {
    const { started, commands } = setup();
    const starting = commands.start({ command: 'yes', cwd: '.' }, never);
    await settle();
    started[0].print('y\n'.repeat(600));
    const first = await starting;
    assert.equal(first.output.length, 1000);
    assert.equal(first.droppedBytes, 200);
    for (let i = 0; i < 1000; i++) started[0].print('y\n'.repeat(600));
    assert.ok(commands.retainedBytes() <= 1000);
    const read = await commands.read('bg1', never);
    assert.equal(read.droppedBytes, 1_200_000 - 1000);
  });

  test('a command that ends during the wait reports its exit code at once', async () => {
    const { started, commands } = setup();
    const starting = commands.start({ command: 'false', cwd: '.' }, never);
    await settle();
    started[0].print('oops\n');
    started[0].exit(2);
    const report = await starting;
    assert.deepEqual(report.end, { exitCode: 2 });
    assert.match(describeBackground(report).output, /^Background command bg1 ended: exit code 2\. Its last output:\noops$/);
    assert.equal(describeBackground(report).ok, false);
  });

  test('a read returns only what is new, and the end once it came', async () => {
    const { clock, started, commands } = setup();
    const starting = commands.start({ command: 'tail -f log', cwd: '.' }, never);
    await settle();
    started[0].print('one\n');
    clock.advance(1000);
    assert.equal((await starting).output, 'one\n');
    const reading = commands.read('bg1', never);
    await settle();
    started[0].print('two\n');
    clock.advance(1000);
    const read = await reading;
    assert.equal(read.output, 'two\n');
    assert.match(describeBackground(read).output, /Still running\. Read more with command_output \{"id":"bg1"\}/);
    started[0].exit(0);
    await settle();
    assert.deepEqual(await commands.read('bg1', never), { id: 'bg1', command: 'tail -f log', output: '', droppedBytes: 0, end: { exitCode: 0 }, rollback: '' });
  });

  test('a stop ends it and says so; an unknown id is its own error naming the known ones', async () => {
    const { clock, started, commands } = setup();
    const starting = commands.start({ command: 'server', cwd: '.' }, never);
    await settle();
    clock.advance(10_000);
    await starting;
    started[0].print('bye\n');
    const stopped = await commands.stop('bg1');
    assert.equal(started[0].stops, 1);
    assert.deepEqual(stopped.end, { exitCode: undefined, stoppedBy: 'agent' });
    assert.equal(stopped.output, 'bye\n');
    assert.deepEqual(describeBackground(stopped), { ok: true, output: 'Background command bg1 was stopped (no exit code); its last output:\nbye' });
    await assert.rejects(commands.read('bg9', never), (error: unknown) => error instanceof UnknownBackgroundCommand && /there are: bg1/.test(error.message));
  });

  test('past the cap a start is refused with its own error; a stop makes room', async () => {
    const { clock, commands } = setup({ maxRunning: 2 });
    for (let i = 0; i < 2; i++) {
      const starting = commands.start({ command: `s${i}`, cwd: '.' }, never);
      await settle();
      clock.advance(10_000);
      await starting;
    }
    await assert.rejects(
      commands.start({ command: 's2', cwd: '.' }, never),
      (error: unknown) => error instanceof BackgroundLimitReached && /2 background commands are running \(bg1, bg2\)/.test(error.message),
    );
    await commands.stop('bg1');
    const starting = commands.start({ command: 's2', cwd: '.' }, never);
    await settle();
    clock.advance(10_000);
    assert.equal((await starting).id, 'bg3');
  });

  test("the run's end stops every command, and none starts after it", async () => {
    const { clock, started, commands } = setup();
    for (let i = 0; i < 3; i++) {
      const starting = commands.start({ command: `s${i}`, cwd: '.' }, never);
      await settle();
      clock.advance(10_000);
      await starting;
    }
    started[1].exit(0);
    await settle();
    await commands.stopAll();
    assert.deepEqual(
      started.map((command) => command.stops),
      [1, 0, 1],
    );
    assert.deepEqual(commands.runningIds(), []);
    assert.deepEqual((await commands.read('bg3', never)).end, { exitCode: undefined, stoppedBy: 'session' });
    await assert.rejects(commands.start({ command: 'late', cwd: '.' }, never), /run is ending/);
  });

  test('a stop of the run while it waits for the first output stops the command', async () => {
    const { started, commands } = setup();
    const controller = new AbortController();
    const starting = commands.start({ command: 'server', cwd: '.' }, controller.signal);
    await settle();
    controller.abort();
    const report = await starting;
    assert.equal(started[0].stops, 1);
    assert.equal(report.end?.stoppedBy, 'session');
  });

  test('a timeout stops it after its lifetime', async () => {
    const { clock, started, commands } = setup();
    const starting = commands.start({ command: 'server', cwd: '.', lifetimeMs: 30_000 }, never);
    await settle();
    clock.advance(10_000);
    await starting;
    clock.advance(19_999);
    await settle();
    assert.equal(started[0].stops, 0);
    clock.advance(1);
    await settle();
    assert.deepEqual((await commands.read('bg1', never)).end, { exitCode: undefined, stoppedBy: 'timeout' });
  });

  test('the control-file guard: a trip stops it, and its rollback is reported once it ended', async () => {
    const { clock, started, commands } = setup();
    const trip = new AbortController();
    let settled = 0;
    const rollback: ControlRollback = { moved: [{ path: '.git', kind: 'directory', kept: true }], failed: [] };
    const watch: ControlWatch = {
      tripped: trip.signal,
      settle: () => {
        settled++;
        return Promise.resolve(rollback);
      },
    };
    const starting = commands.start({ command: 'git init', cwd: '.', watch }, never);
    await settle();
    clock.advance(10_000);
    await starting;
    trip.abort();
    await settle();
    await settle();
    assert.equal(started[0].stops, 1);
    const report = await commands.read('bg1', never);
    assert.equal(settled, 1);
    assert.equal(report.end?.stoppedBy, 'guard');
    assert.match(report.rollback, /^Stopped: a protected file appeared in the workspace while the command ran/);
    assert.equal(describeBackground(report).ok, false);
  });

  test('a command whose stop could not confirm every process gone: its change set waits whole, the reason given', async () => {
    for (const outlived of [false, true]) {
      const { clock, started, commands } = setup();
      const holds: (string | undefined)[] = [];
      const watch: ControlWatch = {
        tripped: new AbortController().signal,
        settle: (_signal, holdAll) => {
          holds.push(holdAll);
          return Promise.resolve({ moved: [], failed: [] });
        },
      };
      const starting = commands.start({ command: 'server', cwd: '.', watch }, never);
      await settle();
      clock.advance(10_000);
      await starting;
      started[0].outlivedStop = outlived;
      await commands.stop('bg1');
      await settle();
      assert.deepEqual(holds, [outlived ? LINGERING_REASON : undefined]);
    }
  });
});
