// The review's bounds and the spellings it reads as their programs do (src/terminal/node/reviewBounds.ts,
// formatEscapes.ts, shellEscapes.ts, programConfigs.ts, toolFileSpellings.ts). The attacks these close, run in the
// real sandbox, are test/security/attack14-*.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigTooLarge } from '../../../src/terminal/node/gitStructure';
import { mentionedBy, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { programConfigTexts } from '../../../src/terminal/node/programConfigs';
import { BoundReached, ReviewBound } from '../../../src/terminal/node/reviewBounds';
import { withEscapesDecoded } from '../../../src/terminal/node/formatEscapes';
import { shellUnescaped } from '../../../src/terminal/node/shellEscapes';
import { anyCase } from '../../../src/terminal/node/toolFileSpellings';

describe('ReviewBound', () => {
  test('is silent up to its limit and stops the review past it, as a config too large does', () => {
    const bound = new ReviewBound(2, 'things');
    bound.check(2);
    assert.throws(
      () => bound.check(3),
      (error: unknown) => error instanceof BoundReached && error instanceof ConfigTooLarge && /things: more than 2/.test(error.message),
    );
  });

  test("a text's 25th `cd` folder stops the review rather than going unread", () => {
    const text = Array.from({ length: 25 }, (_, index) => `(cd packages/p${index} && npx lint-staged)`).join('\n');
    assert.throws(() => mentionedBy(text, noneMentioned(), ['/w']), BoundReached);
    mentionedBy(text.split('\n').slice(0, 24).join('\n'), noneMentioned(), ['/w']);
  });
});

describe('spellings read as their programs read them', () => {
  test("YAML's and TOML's escapes are decoded, an escaped line break joined", () => {
    assert.equal(withEscapesDecoded('run: "tools\\u002fcheck.js \\x2f \\U0000002f \\/"'), 'run: "tools/check.js / / /"');
    assert.equal(withEscapesDecoded('run: "sh tools/li\\\n        nt"'), 'run: "sh tools/lint"');
  });

  test("the shell's backslashes, continued lines and $'…' strings are removed and decoded", () => {
    assert.equal(shellUnescaped("sh scripts/che\\ck.sh && bash $'tools\\x2flint.sh' && sh a/b\\\nc"), 'sh scripts/check.sh && bash tools/lint.sh && sh a/bc');
    assert.equal(shellUnescaped('no escapes'), 'no escapes');
  });

  test('a JSON config past its bounds, or one only a tolerant parser reads, gives its strings as values', () => {
    const padded = JSON.stringify({ pad: Array.from({ length: 10_001 }, () => 0), servers: { s: { command: 'node', args: ['server'] } } });
    assert.ok(programConfigTexts(padded).values.includes('server'));
    assert.ok(programConfigTexts('{\u00a0"args": ["server", "--stdio"]}').values.includes('server'));
  });

  test("just's file in any capitalisation", () => {
    const spellings = anyCase('justfile');
    assert.equal(spellings.length, 256);
    assert.ok(spellings.includes('Justfile') && spellings.includes('JUSTFILE'));
  });
});
