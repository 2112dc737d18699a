// The saved-session transcript document: model text cannot break it, and it stays bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { MAX_TRANSCRIPT_CHARS, renderTranscript } from '../../../src/agent/common/sessions/transcriptMarkdown';

const state = (over: Partial<AgentSessionState>): AgentSessionState =>
  ({
    title: 'Fix tests',
    status: 'done',
    model: 'gw-code',
    turns: 1,
    usage: { totalTokens: 1, inputTokens: 1, outputTokens: 0, reasoningTokens: 0 },
    originals: [],
    commandsRun: [],
    transcript: [],
    ...over,
  }) as AgentSessionState;

describe('renderTranscript', () => {
  test('one turn and one token are singular; more are plural (issue 27)', () => {
    assert.match(renderTranscript(state({})), /· 1 turn · 1 token /);
    assert.match(
      renderTranscript(state({ turns: 2, usage: { totalTokens: 1200, inputTokens: 1200, outputTokens: 0, reasoningTokens: 0 } })),
      /· 2 turns · 1,200 tokens /,
    );
  });

  test("the whole list of project instructions is here: the chat's summary names five and links to it (issue 38)", () => {
    const files = Array.from({ length: 28 }, (_, i) => `pkg${i}/AGENTS.md`);
    const md = renderTranscript(state({ projectInstructions: { files, bytes: 1 } }));
    const line = md.split('\n').find((text) => text.startsWith('Project instructions:')) ?? '';
    assert.equal(line.match(/`pkg\d+\/AGENTS\.md`/g)?.length, 28);
    assert.doesNotMatch(renderTranscript(state({})), /Project instructions/, 'no line when there are none');
  });

  test('"Files changed: none" after commands ran says the commands\' changes are not listed (issue 39, low)', () => {
    assert.match(
      renderTranscript(state({ commandsRun: ['touch made.txt'] })),
      /Files changed: none by the file tools \(what the commands changed is not listed\)/,
    );
    assert.match(renderTranscript(state({})), /Files changed: none {2}\n/, 'no commands: plain none');
    assert.match(renderTranscript(state({ commandsRun: ['x'], originals: [{ path: 'a.ts', existed: true }] })), /Files changed: `a\.ts` {2}\n/);
  });

  test('an unclosed code fence in model text does not swallow the next items', () => {
    const md = renderTranscript(
      state({
        transcript: [
          { role: 'assistant', content: 'see:\n```js\nlet a' },
          { role: 'user', content: 'next' },
        ],
      }),
    );
    const fences = md.split('\n').filter((line) => line.startsWith('```'));
    assert.equal(fences.length % 2, 0);
    const youAt = md.indexOf('### You');
    assert.ok(youAt > md.lastIndexOf('```'));
  });

  test('a newline in the title cannot add a heading; backticks in commands stay in one code span', () => {
    const md = renderTranscript(state({ title: 'T\n# injected', commandsRun: ['echo `x`'] }));
    assert.doesNotMatch(md, /^# injected/m);
    assert.match(md, /``\s?echo `x`\s?``/);
  });

  test('call arguments are bounded and the whole document is bounded', () => {
    const huge = 'y'.repeat(100_000);
    const items = Array.from({ length: 200 }, () => ({ role: 'assistant' as const, content: huge }));
    const md = renderTranscript(state({ transcript: [{ type: 'function_call', call_id: 'c', name: 'run', arguments: huge }, ...items] }));
    assert.ok(md.length <= MAX_TRANSCRIPT_CHARS + 1000, String(md.length));
    assert.match(md, /more items not shown/);
    // The longest run of y's, found in one pass (includes() with a 30k needle in a haystack of y's is quadratic).
    const longestRun = Math.max(0, ...(md.match(/y+/g) ?? []).map((run) => run.length));
    assert.ok(longestRun < 30_000, `an argument or message kept ${longestRun} characters`);
  });
});
