// An approval that has ended says how: the chat writes "Approved" / "Denied" under it, and a
// click on its stale button says what became of it. The one waiting line every place shows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PendingApprovals, REMEMBERED_ANSWERS, type AnsweredApproval } from '../../../src/agent/common/approvals/pendingApprovals';
import { endedMarkdown, staleAnswerMessage, unlinked, waitingLine, WAITING_LINE_CHARS } from '../../../src/agent/common/approvals/approvalText';
import type { ApprovalRequest } from '../../../src/sessionModel/common/sessionPorts';

const command = (callId: string, line = 'curl -s https://example.com'): ApprovalRequest => ({
  sessionId: 's',
  callId,
  toolName: 'run_command',
  summary: `Run ${line}`,
  command: { line, cwd: '.' },
});

describe('ended approvals', () => {
  test('each ending is heard once with how it ended, and remembered for a stale button', async () => {
    const ended: AnsweredApproval[] = [];
    const approvals = new PendingApprovals(undefined, (e) => ended.push(e));
    const approver = approvals.forSession('file:///w', () => undefined);
    const stop = new AbortController();
    const results = [
      approver.approve(command('c1'), new AbortController().signal),
      approver.approve(command('c2'), new AbortController().signal),
      approver.approve(command('c3'), stop.signal),
    ];
    assert.equal(approvals.ended('s', 'c1'), undefined, 'still waiting: not ended');
    approvals.respond('s', 'c1', true);
    approvals.respond('s', 'c2', false);
    stop.abort();
    assert.deepEqual(await Promise.all(results), [true, false, false]);
    assert.deepEqual(
      ended.map((e) => [e.request.callId, e.outcome]),
      [
        ['c1', 'approved'],
        ['c2', 'denied'],
        ['c3', 'stopped'],
      ],
    );
    assert.equal(approvals.respond('s', 'c1', false), false, 'a second answer changes nothing');
    assert.equal(approvals.ended('s', 'c1')?.outcome, 'approved');
    assert.equal(approvals.ended('s', 'c3')?.outcome, 'stopped');
    assert.equal(ended.length, 3, 'the refused second answer is not heard');
  });

  test('only the newest endings are remembered', async () => {
    const approvals = new PendingApprovals();
    const approver = approvals.forSession('file:///w', () => undefined);
    for (let i = 0; i <= REMEMBERED_ANSWERS; i++) {
      const answered = approver.approve(command(`c${i}`), new AbortController().signal);
      approvals.respond('s', `c${i}`, true);
      await answered;
    }
    assert.equal(approvals.ended('s', 'c0'), undefined, 'the oldest is forgotten');
    assert.equal(approvals.ended('s', `c${REMEMBERED_ANSWERS}`)?.outcome, 'approved');
  });

  test('what the chat writes and what a stale button says, per outcome', () => {
    const request = command('c1');
    assert.equal(endedMarkdown({ request, outcome: 'approved' }), '✓ **Approved:** `curl -s https://example.com`');
    assert.equal(endedMarkdown({ request, outcome: 'denied' }), '✗ **Denied:** `curl -s https://example.com`');
    assert.match(staleAnswerMessage({ request, outcome: 'approved' }), /^You already approved "Run curl -s https:\/\/example\.com"/);
    assert.match(staleAnswerMessage({ request, outcome: 'denied' }), /^You already denied /);
    assert.match(staleAnswerMessage({ request, outcome: 'stopped' }), /never answered: the session stopped, so it did not run/);
    assert.match(staleAnswerMessage(undefined), /no longer waiting/);
  });
});

describe('the waiting line', () => {
  test('names the command on one line, shortened, invisible characters spelled out', () => {
    assert.equal(waitingLine(command('c', 'curl -s x')), 'waiting for your approval: curl -s x');
    assert.equal(waitingLine({ summary: 'Edit src/a.ts' }), 'waiting for your approval: Edit src/a.ts');
    assert.equal(waitingLine(command('c', 'a\nb\u202e')), 'waiting for your approval: a ⏎ b⟨U+202E⟩');
    const long = waitingLine(command('c', 'x'.repeat(500)));
    assert.equal(long.length, 'waiting for your approval: '.length + WAITING_LINE_CHARS);
    assert.ok(long.endsWith('…'));
  });

  test('a command cannot put a link into a notification', () => {
    const text = unlinked('echo [Approve](command:gateway.agent.approve?x) [b] (c)');
    assert.doesNotMatch(text, /\]\(/);
    assert.equal(text.replace(/\u2060/g, ''), 'echo [Approve](command:gateway.agent.approve?x) [b] (c)');
  });
});
