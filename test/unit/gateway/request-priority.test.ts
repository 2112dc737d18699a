// Which requests the user waits for (issue 40): the tag each request carries to the pacing queue, from where it
// comes and which sessions the user watches (a chat turn's run, the Sessions view's focus).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WatchedSessions, pacingTagOf } from '../../../src/gateway/common/requestPriority';

describe('a request’s place in the pacing queue', () => {
  test('chat questions, inline edits and other extensions’ requests are foreground, each in its own share', () => {
    const watched = new WatchedSessions();
    assert.deepEqual(pacingTagOf({ surface: 'chat' }, watched), { foreground: true, key: 'chat' });
    assert.deepEqual(pacingTagOf({ surface: 'inline' }, watched), { foreground: true, key: 'inline' });
    assert.deepEqual(pacingTagOf(undefined, watched), { foreground: true, key: 'lm' });
  });

  test('an agent session nobody watches is background in its own share; the focused one and a chat turn’s are foreground', () => {
    const watched = new WatchedSessions();
    const tag = (sessionId: string) => pacingTagOf({ surface: 'agent', sessionId }, watched);
    assert.deepEqual(tag('s1'), { foreground: false, key: 's1' });
    watched.focus('s1');
    assert.deepEqual(tag('s1'), { foreground: true, key: 's1' });
    const turn = watched.show('s2');
    const second = watched.show('s2');
    assert.equal(tag('s2').foreground, true);
    turn.dispose();
    turn.dispose(); // twice is once
    assert.equal(tag('s2').foreground, true, 'another turn still shows it');
    second.dispose();
    assert.equal(tag('s2').foreground, false, 'no turn shows it any more');
    watched.focus(undefined);
    assert.equal(tag('s1').foreground, false, 'the focus moved away');
  });

  test('a client nobody tells which session is watched keeps every request foreground, as before sessions shared the key', () => {
    assert.deepEqual(pacingTagOf({ surface: 'agent', sessionId: 's1' }, undefined), { foreground: true, key: 's1' });
  });
});
