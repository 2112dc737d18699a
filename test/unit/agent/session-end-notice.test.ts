// The notification a palette session ends with: its model, files and tokens, and the actions that apply (issue 39, item 7).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { sessionEndNotice } from '../../../src/agent/common/sessions/sessionEndNotice';

const state = (over: Partial<AgentSessionState>): AgentSessionState =>
  ({
    id: 's7',
    title: 'Add a test',
    status: 'done',
    model: 'gw-code',
    turns: 3,
    usage: { totalTokens: 12_345, inputTokens: 12_000, outputTokens: 345, reasoningTokens: 0 },
    originals: [],
    commandsRun: [],
    transcript: [],
    ...over,
  }) as AgentSessionState;

const titles = (s: AgentSessionState) => sessionEndNotice(s).actions.map((action) => action.title);

describe('sessionEndNotice', () => {
  test('done with changes: model, files (three named, the rest elided), tokens; Review and Transcript', () => {
    const originals = ['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((path) => ({ path }));
    const notice = sessionEndNotice(state({ originals } as Partial<AgentSessionState>));
    assert.equal(notice.message, 'Gateway agent: "Add a test" is done · gw-code · 4 files changed (a.ts, b.ts, c.ts, …) · 12,345 tokens.');
    assert.deepEqual(titles(state({ originals } as Partial<AgentSessionState>)), ['Review Session Changes', 'Open Transcript']);
    assert.deepEqual(notice.actions[0].arguments, ['s7']);
  });

  test('paused with its reason and no changes: Continue first, no Review', () => {
    const paused = state({
      status: 'paused',
      statusReason: 'the time budget ran out',
      usage: { totalTokens: 1, inputTokens: 1, outputTokens: 0, reasoningTokens: 0 },
    });
    assert.equal(sessionEndNotice(paused).message, 'Gateway agent: "Add a test" is paused: the time budget ran out · gw-code · no files changed · 1 token.');
    assert.deepEqual(titles(paused), ['Continue', 'Open Transcript']);
  });
});
