// Issue 21, finding 6: no PID namespace. `setsid` processes outlived the command and the session, and the
// sandbox killed a process outside it. Now the command is the only child of the PID namespace's init: when it
// ends, or is stopped (abort, timeout), every process it started ends with it, and nothing outside is visible.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { eventually, makeFixture, processesWith, sandboxHere, type Fixture } from './harness';

describe('processes (finding 6)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  // Unique sleep lengths: the markers this test looks for in /proc.
  const marker = (n: number) => String(7_000_000 + process.pid * 10 + n);

  /** Starts a `setsid` sleep, and prints "ready" only once it runs (a stop before that would test nothing). */
  const detachedThenReady = (n: number) =>
    `setsid sleep ${marker(n)} > /dev/null 2>&1 & p=$!; for i in $(seq 5000); do grep -q sleep /proc/$p/cmdline 2>/dev/null && break; done; echo ready;`;

  before(async () => (fixture = await makeFixture()));
  after(async () => {
    for (let n = 0; n < 10; n++) for (const pid of await processesWith(`sleep ${marker(n)}`)) process.kill(pid, 'SIGKILL');
    await fixture.remove();
  });

  test('background processes (setsid, nohup, a double fork, disown) are gone when the command ends', async () => {
    const command = [
      `setsid sleep ${marker(0)} > /dev/null 2>&1 &`,
      `nohup sleep ${marker(1)} > /dev/null 2>&1 &`,
      `( ( sleep ${marker(2)} > /dev/null 2>&1 & ) & )`,
      `sleep ${marker(3)} > /dev/null 2>&1 & disown`,
      `python3 -c 'import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execvp("sleep", ["sleep", "${marker(4)}"])\n'`,
      'echo started',
    ].join('\n');
    const result = await fixture.run(command);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /started/);
    // No wait: the namespace's init has gone, and the kernel ends the rest before that is reported.
    for (let n = 0; n <= 4; n++) assert.deepEqual(await processesWith(`sleep ${marker(n)}`), [], `sleep ${n} outlived the command`);
  });

  test('a stopped command (abort) leaves nothing running, also what it started with setsid', async () => {
    const controller = new AbortController();
    const running = fixture.run(`${detachedThenReady(5)} sleep ${marker(6)}`, {
      signal: controller.signal,
      onOutput: (text) => text.includes('ready') && controller.abort(new Error('stopped')),
    });
    await assert.rejects(running, /stopped/);
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(5)}`)).length === 0), 'the setsid process outlived the stop');
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(6)}`)).length === 0), 'the command outlived the stop');
  });

  test('a command that times out leaves nothing running', async () => {
    const result = await fixture.run(`${detachedThenReady(7)} sleep ${marker(8)}`, { timeoutMs: 1500 });
    assert.match(result.output, /ready/);
    assert.equal(result.timedOut, true);
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(7)}`)).length === 0), 'the setsid process outlived the timeout');
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker(8)}`)).length === 0), 'the command outlived the timeout');
  });

  test('a process outside cannot be seen or killed from inside', async () => {
    const outside = spawn('sleep', [marker(9)], { stdio: 'ignore' });
    try {
      const pid = outside.pid as number;
      const result = await fixture.run(`kill -9 ${pid}; echo "[kill exit $?]"; ls /proc | grep -cE '^[0-9]+$'; test -e /proc/${pid} && echo VISIBLE`);
      assert.match(result.output, /\[kill exit 1\]/);
      assert.doesNotMatch(result.output, /VISIBLE/);
      // Alive, not a zombie waiting to be reaped.
      const state = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '')[0];
      assert.notEqual(state, 'Z');
      assert.equal(outside.exitCode, null);
    } finally {
      outside.kill('SIGKILL');
    }
  });
});
