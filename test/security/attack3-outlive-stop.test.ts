// Attack (round 3): a sandboxed command is PID 1 of its namespace and may clear the parent-death signal bwrap
// set. A stop (timeout, abort, a background command's stop) sends SIGTERM to bwrap's process group, which the
// command (a new session) is not in, and arms a SIGKILL for the command after the grace time. But bwrap itself
// dies of the SIGTERM at once, the command's `ended` resolves after the drain time (500 ms) and followChild
// then CLEARS that SIGKILL timer: the command keeps running, with its overlay mounted over the workspace, after
// its stop, forever. (In run(), the timer is not cleared, but the final review runs while it still lives.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, processesWith, sandboxHere, type Fixture } from './harness';

describe('attack: a stopped command that cleared its parent-death signal', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const marker = `outlive${process.pid}x`;
  before(async () => (fixture = await makeFixture()));
  after(async () => {
    for (const pid of await processesWith(marker)) process.kill(pid, 'SIGKILL');
    await fixture.remove();
  });

  test('a background command is gone after its stop, even when it cleared PR_SET_PDEATHSIG', async () => {
    const { root, session } = fixture;
    const runner = new NodeCommandRunner(root, {
      sandbox: { launch: (line, cwd) => session.launch({ root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false }, never) },
    });
    await fixture.guard.watch(never);
    let output = '';
    const code = `import ctypes, time\nctypes.CDLL(None).prctl(1, 0)\nprint("ready", flush=True)\nwhile True: time.sleep(1)  # ${marker}`;
    const started = await runner.start({ command: `exec python3 -c '${code}'`, cwd: '.', onOutput: (t) => (output += t), signal: never });
    for (let i = 0; i < 200 && !output.includes('ready'); i++) await new Promise((r) => setTimeout(r, 25));
    assert.match(output, /ready/);
    await started.stop();
    await started.ended;
    // Well past the grace time (2 s) and the drain time.
    await new Promise((r) => setTimeout(r, 4000));
    const alive = await processesWith(marker);
    assert.deepEqual(alive, [], `ESCAPED: the command (pid ${alive}) still runs 4 s after its stop`);
  });
});
