// Code put into markdown (prompts, the agent transcript) cannot end its block early, whatever backticks it holds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { codeFence, inlineCode, longestBacktickRun, openFenceOf } from '../../../src/base/common/markdown';

/** Index of the first line after the opening fence that closes it, by CommonMark's rule (same character, at least as long, nothing else on the line but spaces). */
function closingLine(block: string): number {
  const lines = block.split('\n');
  const opening = /^`{3,}/.exec(lines[0])?.[0];
  assert.ok(opening, `opens with a backtick fence: ${JSON.stringify(lines[0])}`);
  return lines.findIndex((line, index) => index > 0 && new RegExp(`^ {0,3}\`{${opening.length},}[ \\t]*$`).test(line));
}

describe('codeFence', () => {
  const hostile = [
    'plain text',
    '```\nclosed early?\n```',
    '````sh\nrm -rf /\n````\n',
    '   ```   \nindented fence',
    'a ``````` long run inside a line',
    '',
    '\n',
    '`',
  ];
  for (const content of hostile) {
    test(`only its own closing fence closes it: ${JSON.stringify(content)}`, () => {
      const block = codeFence(content, 'ts');
      const lines = block.split('\n');
      assert.equal(closingLine(block), lines.length - 1);
      const body = content.endsWith('\n') ? content : `${content}\n`;
      assert.equal(lines.slice(1, -1).join('\n') + '\n', body, 'the content comes through unchanged');
    });
  }

  test('three backticks when the content has no longer run, one more than the longest otherwise', () => {
    assert.equal(codeFence('x', 'py'), '```py\nx\n```');
    assert.equal(codeFence('x\n', 'py'), '```py\nx\n```');
    assert.equal(codeFence('a ````` b').split('\n')[0], '``````');
  });

  test('a language cannot break the opening line', () => {
    const block = codeFence('x', 'ts```\n# heading');
    assert.equal(block.split('\n').length, 3);
    assert.equal(block.split('\n')[0], '```ts#heading');
  });

  test('a huge content with many backtick runs is handled (no spread of every run onto the stack)', () => {
    assert.equal(codeFence('a`'.repeat(300_000)).split('\n')[0], '```');
  });
});

describe('longestBacktickRun', () => {
  test('counts the longest run', () => {
    assert.equal(longestBacktickRun(''), 0);
    assert.equal(longestBacktickRun('no ticks'), 0);
    assert.equal(longestBacktickRun('`a``b```c``'), 3);
    assert.equal(longestBacktickRun('x````'), 4);
  });
});

describe('inlineCode', () => {
  test('delimited by more backticks than it holds, padded when it starts or ends with one', () => {
    assert.equal(inlineCode('npm test'), '`npm test`');
    assert.equal(inlineCode('a `b` c'), '``a `b` c``');
    assert.equal(inlineCode('`x'), '`` `x ``');
  });

  test('line breaks fold to one space, so the span stays on its line', () => {
    assert.equal(inlineCode('echo a\n  && echo b\r\n'), '`echo a && echo b `');
  });
});

describe('openFenceOf', () => {
  test('the fence an answer leaves open, so what follows it is not swallowed as code (issue 39, item 8)', () => {
    assert.equal(openFenceOf('Here:\n```ts\nconst a = 1;\n'), '```');
    assert.equal(openFenceOf('Here:\n````md\n```\ninner\n```\n'), '````', 'a shorter fence inside does not close it');
    assert.equal(openFenceOf('~~~\nx\n'), '~~~');
    assert.equal(openFenceOf('```\na\n```\ndone'), undefined);
    assert.equal(openFenceOf('```\na\n~~~\n'), '```', 'a tilde fence does not close a backtick one');
    assert.equal(openFenceOf('plain text with ``` inside a line'), undefined);
    assert.equal(openFenceOf(''), undefined);
  });
});
