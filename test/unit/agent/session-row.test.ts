// The Sessions view's rows (issue 27, item 9): a title that fits the default width, the state, turns and start
// in the description, and no "in progress" step in a plan whose session has finished.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkpointTime, planStepText, sessionRow, shortTitle, SESSION_LABEL_CHARS } from '../../../src/agent/common/sessions/sessionRow';

const at = Date.UTC(2026, 10, 26, 14, 5);
const session = { id: 's1', title: 'Add a test for parseDuration and fix the rounding of minutes', status: 'done' as const, turns: 1, createdAt: at };

describe('sessionRow', () => {
  test('a long title is cut at a word to fit; the description says state, turns (singular for one) and the start time', () => {
    const row = sessionRow(session, at + 60_000);
    assert.equal(row.label, 'Add a test for parseDuration…');
    assert.ok(row.label.length <= SESSION_LABEL_CHARS);
    assert.equal(row.description, 'done · 1 turn · 14:05');
  });

  test('two sessions of one title differ by their start; an earlier day shows the date; the local time zone counts', () => {
    const later = sessionRow({ ...session, createdAt: at + 17 * 60_000, turns: 3, status: 'awaiting_approval' }, at + 3_600_000);
    assert.equal(later.description, 'awaiting approval · 3 turns · 14:22');
    assert.equal(sessionRow(session, at + 2 * 86_400_000).description, 'done · 1 turn · Nov 26 14:05');
    assert.equal(sessionRow(session, at, -60).description, 'done · 1 turn · 15:05');
  });

  test('a checkpoint says its time as the session rows do, 24 h, with seconds, in the local zone (issue 39, low: "7:52:18 AM" beside "07:51")', () => {
    assert.equal(checkpointTime(at + 9_000, 0), '14:05:09');
    assert.equal(checkpointTime(Date.UTC(2026, 10, 26, 7, 52, 18), 0), '07:52:18');
    assert.equal(checkpointTime(at, -60), '15:05:00');
  });

  test('a short title is whole; a word longer than half the room is cut inside', () => {
    assert.equal(shortTitle('Fix tests', 32), 'Fix tests');
    assert.equal(shortTitle('x'.repeat(40), 10), 'xxxxxxxxx…');
  });
});

describe('planStepText', () => {
  test('while the session runs, steps say their status; once it has ended, none is "in progress"', () => {
    assert.equal(planStepText('in_progress', 'running'), 'in progress');
    assert.equal(planStepText('in_progress', 'awaiting_approval'), 'in progress');
    assert.equal(planStepText('in_progress', 'done'), 'not finished');
    assert.equal(planStepText('pending', 'paused'), 'not started');
    assert.equal(planStepText('done', 'stopped'), 'done');
  });
});
