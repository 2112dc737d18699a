// A guarded hook whose stop could not confirm every process gone (attack 19b #1): nothing it changed lands unasked.
// The host and the guard are fakes: what is tested is what runGuardedHook asks of the review, with no process or time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runGuardedHook } from '../../../src/customization/common/hookGuard';
import { hookStillRunning, isHookStillRunning, type HookProcessResult } from '../../../src/customization/common/hookProtocol';
import type { HookHost, HookRunRequest } from '../../../src/customization/common/hooks';
import type { ControlFileGuard, ControlRollback, ControlWatch } from '../../../src/terminal/common';

const request: HookRunRequest = { sessionId: 's', command: 'true', cwd: '.', stdin: '{}', timeoutMs: 1000, maxOutputBytes: 1024 };
const ok: HookProcessResult = { exitCode: 0, stdout: '', stderr: '', timedOut: false };

function host(run: HookHost['run']): HookHost {
  return { run, digest: () => '' };
}

/** A guard whose review holds everything when told to, and records what it was told. */
function recordingGuard(): { guard: ControlFileGuard; holds: (string | undefined)[] } {
  const holds: (string | undefined)[] = [];
  const watch: ControlWatch = {
    tripped: new AbortController().signal,
    settle: (_signal, holdAll) => {
      holds.push(holdAll);
      const rollback: ControlRollback = { moved: [], failed: [], ...(holdAll === undefined ? {} : { incomplete: holdAll }) };
      return Promise.resolve(rollback);
    },
  };
  return { guard: { watch: () => Promise.resolve(watch) }, holds };
}

describe('a guarded hook that could not be confirmed gone', () => {
  test('the error is told by its field, whoever made it', () => {
    assert.equal(isHookStillRunning(hookStillRunning('x')), true);
    assert.equal(isHookStillRunning(Object.assign(new Error('x'), { hookStillRunning: true })), true);
    assert.equal(isHookStillRunning(new Error('x')), false);
    assert.equal(isHookStillRunning('x'), false);
  });

  test('its whole change set is held, with the reason, and its answer does not count', async () => {
    const { guard, holds } = recordingGuard();
    const stuck = host(() => Promise.reject(hookStillRunning('was stopped, but a process of it could not be confirmed gone')));
    const run = await runGuardedHook({ host: stuck, request, guard }, new AbortController().signal);
    assert.equal(holds.length, 1);
    assert.match(holds[0] ?? '', /could not be confirmed gone/);
    assert.equal(run.result, undefined);
    assert.match(run.problem ?? '', /all it changed was held back: a process of the hook could not be confirmed gone/);
  });

  test('after a stop too: the review holds everything, then the stop is thrown', async () => {
    const { guard, holds } = recordingGuard();
    const controller = new AbortController();
    const stuck = host(() => {
      controller.abort(new Error('stopped by the user'));
      return Promise.reject(hookStillRunning('was stopped, but a process of it could not be confirmed gone'));
    });
    await assert.rejects(runGuardedHook({ host: stuck, request, guard }, controller.signal), /stopped by the user/);
    assert.equal(holds.length, 1);
    assert.match(holds[0] ?? '', /could not be confirmed gone/);
  });

  test('a hook that ended (or was confirmed gone) is reviewed as before: nothing held unasked', async () => {
    const { guard, holds } = recordingGuard();
    const run = await runGuardedHook({ host: host(() => Promise.resolve(ok)), request, guard }, new AbortController().signal);
    assert.deepEqual(holds, [undefined]);
    assert.deepEqual(run, { result: ok });
  });

  test('unreviewed (not sandboxed): its answer does not count, and the log says why', async () => {
    const stuck = host(() => Promise.reject(hookStillRunning('was stopped, but a process of it could not be confirmed gone')));
    const run = await runGuardedHook({ host: stuck, request }, new AbortController().signal);
    assert.equal(run.problem, 'was stopped, but a process of it could not be confirmed gone');
  });

  test('a hook that could not be started still throws', async () => {
    const failing = host(() => Promise.reject(new Error('spawn sh ENOENT')));
    await assert.rejects(runGuardedHook({ host: failing, request }, new AbortController().signal), /ENOENT/);
  });
});
