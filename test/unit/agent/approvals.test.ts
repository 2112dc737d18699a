// Pending approvals keep the asking session's folder: in a multi-root window the diff before an edit
// compares against the file in that session's folder, not the first folder's file of the same path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PendingApprovals, type PendingApproval } from '../../../src/agent/common/approvals/pendingApprovals';
import type { ApprovalRequest } from '../../../src/sessionModel/common/sessionPorts';

const edit = (sessionId: string, callId: string): ApprovalRequest => ({
  sessionId,
  callId,
  toolName: 'edit_file',
  summary: 'Edit src/index.ts',
  preview: { path: 'src/index.ts', before: 'old', after: 'new' },
});

describe('pending approvals', () => {
  test('each approval is kept with the folder of the session that asked, whatever the first folder is', async () => {
    const approvals = new PendingApprovals();
    const asked: PendingApproval[] = [];
    const never = new AbortController().signal;
    const api = approvals.forSession('file:///work/api', (approval) => asked.push(approval)).approve(edit('s-api', 'c1'), never);
    const web = approvals.forSession('file:///work/web', (approval) => asked.push(approval)).approve(edit('s-web', 'c1'), never);
    assert.deepEqual(
      asked.map((a) => [a.request.sessionId, a.rootUri]),
      [
        ['s-api', 'file:///work/api'],
        ['s-web', 'file:///work/web'],
      ],
    );
    assert.equal(approvals.find('s-web', 'c1')?.rootUri, 'file:///work/web');
    assert.equal(approvals.find('s-api', 'c1')?.rootUri, 'file:///work/api');
    assert.ok(approvals.respond('s-web', 'c1', true));
    assert.ok(approvals.respond('s-api', 'c1', false));
    assert.deepEqual([await api, await web], [false, true]);
    assert.equal(approvals.find('s-web', 'c1'), undefined, 'answered: no longer there to diff');
  });

  test('a stop answers no, an answer comes once, and the waiting list follows', async () => {
    let changes = 0;
    const approvals = new PendingApprovals(() => changes++);
    const stop = new AbortController();
    const approver = approvals.forSession('file:///work/api', () => undefined);
    const stopped = approver.approve(edit('s', 'c1'), stop.signal);
    const answered = approver.approve(edit('s', 'c2'), new AbortController().signal);
    assert.deepEqual(
      approvals.waiting('s').map((r) => r.callId),
      ['c1', 'c2'],
    );
    assert.deepEqual(approvals.waiting('other'), []);
    stop.abort();
    assert.equal(await stopped, false);
    assert.ok(approvals.respond('s', 'c2', true));
    assert.equal(approvals.respond('s', 'c2', false), false, 'already answered');
    assert.equal(await answered, true);
    assert.deepEqual(approvals.waiting(), []);
    assert.equal(changes, 4);
    const late = new AbortController();
    late.abort();
    assert.equal(await approver.approve(edit('s', 'c3'), late.signal), false, 'a session already stopped is not asked');
    approvals.denyAll();
  });
});
