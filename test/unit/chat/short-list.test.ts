// The summary's lists: a long one is cut to a few names and a count with a link to the whole list.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { shortList } from '../../../src/chat/common/shortList';

const paths = (n: number) => Array.from({ length: n }, (_, i) => `\`src/f${i}/AGENTS.md\``);

describe('shortList', () => {
  test('an empty list says none (or what the caller says)', () => {
    assert.equal(shortList({ items: [] }), 'none');
    assert.equal(shortList({ items: [], none: 'no files' }), 'no files');
  });

  test('up to six items are named whole', () => {
    assert.equal(shortList({ items: paths(1) }), '`src/f0/AGENTS.md`');
    assert.equal(shortList({ items: paths(6), wholeList: 'command:x' }), paths(6).join(', '));
  });

  test('28 items: five names and a link counting the other 23', () => {
    const line = shortList({ items: paths(28), wholeList: 'command:gateway.agent.openTranscript?%5B%22s1%22%5D' });
    assert.equal(line, `${paths(5).join(', ')} and [23 more](command:gateway.agent.openTranscript?%5B%22s1%22%5D)`);
    assert.ok(line.length < 200, line);
  });

  test('without a link the rest is counted only, with thousands written out', () => {
    assert.equal(shortList({ items: paths(1205) }), `${paths(5).join(', ')} and 1,200 more`);
  });
});
