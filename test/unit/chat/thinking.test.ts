// The thinking the chat shows: bounded per stream and in number, with what was left out said.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { THINKING_KEPT, THINKING_SHOWN_CHARS, ThinkingCollector, ThinkingParts, thinkingDocument, thinkingTitle } from '../../../src/chat/common/thinking';

describe('ThinkingCollector', () => {
  it('gathers a stream in order and starts over after take()', () => {
    const collector = new ThinkingCollector();
    assert.equal(collector.take(), undefined);
    collector.add('First, ');
    collector.add('read the file.');
    assert.ok(collector.started);
    assert.deepEqual(collector.take(), { text: 'First, read the file.', totalChars: 21 });
    assert.equal(collector.started, false);
    assert.equal(collector.take(), undefined);
  });

  it('keeps at most THINKING_SHOWN_CHARS of a huge stream and counts the rest', () => {
    const collector = new ThinkingCollector();
    const piece = 'x'.repeat(1000);
    for (let i = 0; i < 5000; i++) collector.add(piece); // 5 million characters
    const gathered = collector.take()!;
    assert.equal(gathered.text.length, THINKING_SHOWN_CHARS);
    assert.equal(gathered.totalChars, 5_000_000);
    assert.equal(thinkingTitle(gathered), 'Thinking (first 20,000 of 5,000,000 characters)');
    const document = thinkingDocument(gathered);
    assert.ok(document.length < THINKING_SHOWN_CHARS + 200, `the document is bounded (${document.length} chars)`);
    assert.match(document, /4,980,000 more characters of thinking were left out \(only the first 20,000 are shown\)/);
  });

  it('does not cut a character in half at the bound', () => {
    const collector = new ThinkingCollector();
    collector.add('a'.repeat(THINKING_SHOWN_CHARS - 1));
    collector.add('😀 and more');
    const gathered = collector.take()!;
    assert.equal(gathered.text, 'a'.repeat(THINKING_SHOWN_CHARS - 1));
    assert.equal(gathered.totalChars, THINKING_SHOWN_CHARS - 1 + '😀 and more'.length);
  });
});

describe('ThinkingParts', () => {
  it('titles a whole part by its length and opens it as written', () => {
    const part = new ThinkingParts().add({ text: '\nCompare both.\n', totalChars: 15 });
    assert.equal(thinkingTitle(part), 'Thinking (15 characters)');
    assert.equal(thinkingDocument(part), 'Compare both.\n');
  });

  it('keeps only the last THINKING_KEPT parts', () => {
    const parts = new ThinkingParts();
    const ids = Array.from({ length: THINKING_KEPT + 5 }, (_, i) => parts.add({ text: `t${i}`, totalChars: 2 }).id);
    assert.equal(parts.recent().length, THINKING_KEPT);
    assert.equal(parts.get(ids[0]), undefined);
    assert.equal(parts.get(ids[4]), undefined);
    assert.equal(parts.get(ids[5])?.text, 't5');
    assert.equal(parts.recent().at(-1)?.id, ids.at(-1));
  });
});
