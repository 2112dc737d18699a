// The decisions behind the session commands, without VS Code: one run per session, and which session a command means.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunningSessions } from '../../../src/agent/common/sessions/runningSessions';
import { newSession } from '../../../src/sessionModel/common/sessionState';
import type { ApprovalRequest } from '../../../src/sessionModel/common/sessionPorts';
import { approvalToAnswer, sessionIdOf } from '../../../src/sessionModel/common/commandArguments';

describe('RunningSessions', () => {
  test('a second claim of a running session is refused, synchronously', () => {
    const runs = new RunningSessions();
    const first = runs.claim('s1');
    assert.ok(first);
    assert.equal(runs.claim('s1'), undefined);
    assert.ok(runs.claim('s2'), 'another session is independent');
    assert.equal(runs.isRunning('s1'), true);
  });

  test('a refused run cannot release the claim of the run that holds it, so Stop still reaches that run', () => {
    const runs = new RunningSessions();
    const first = runs.claim('s1')!;
    const stranger = new AbortController();
    runs.release('s1', stranger);
    assert.equal(runs.isRunning('s1'), true);
    assert.equal(runs.stop('s1'), true);
    assert.equal(first.signal.aborted, true);
    runs.release('s1', first);
    assert.equal(runs.isRunning('s1'), false);
    assert.equal(runs.stop('s1'), false);
    assert.ok(runs.claim('s1'), 'free again once released');
  });

  test('stopAll aborts every run', () => {
    const runs = new RunningSessions();
    const controllers = [runs.claim('a')!, runs.claim('b')!];
    runs.stopAll();
    assert.deepEqual(
      controllers.map((c) => c.signal.aborted),
      [true, true],
    );
  });
});

describe('command arguments', () => {
  const request = (sessionId: string, callId: string): ApprovalRequest => ({ sessionId, callId, toolName: 'edit_file', summary: `Edit in ${sessionId}` });
  const waiting = [request('older', 'c1'), request('clicked', 'c2'), request('clicked', 'c3')];
  const row = newSession({ id: 'clicked', title: 'task', model: 'gw-code', now: 0 });

  test('a session id, or the Sessions view row (the session object)', () => {
    assert.equal(sessionIdOf('s1'), 's1');
    assert.equal(sessionIdOf(row), 'clicked');
    for (const other of [undefined, null, 42, {}, { id: 7 }, [row]]) assert.equal(sessionIdOf(other), undefined);
  });

  test("Approve on a row answers that session's approval, not the oldest of all", () => {
    assert.equal(approvalToAnswer(waiting, row, [row]), waiting[1]);
    assert.equal(approvalToAnswer(waiting, row, undefined), waiting[1]);
  });

  test('a chat button names the call; the palette (no arguments) takes the oldest of all', () => {
    assert.equal(approvalToAnswer(waiting, 'clicked', 'c3'), waiting[2]);
    assert.equal(approvalToAnswer(waiting, 'older', 'c3'), undefined, 'the call must belong to the session');
    assert.equal(approvalToAnswer(waiting, undefined, undefined), waiting[0]);
  });

  test('an argument that names no session answers nothing', () => {
    assert.equal(approvalToAnswer(waiting, { name: 'x' }, undefined), undefined);
    assert.equal(approvalToAnswer(waiting, newSession({ id: 'idle', title: 't', model: 'm', now: 0 }), undefined), undefined);
  });
});
