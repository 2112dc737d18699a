// The review's bounds and the spellings it reads as their programs do (src/terminal/node/reviewBounds.ts,
// formatEscapes.ts, hookPrograms.ts over common/shellLexer.ts, programConfigs.ts, toolFileSpellings.ts). The attacks these close, run in the
// real sandbox, are test/security/attack14-*.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigTooLarge } from '../../../src/terminal/node/gitStructure';
import { mentionedBy, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { programConfigTexts } from '../../../src/terminal/node/programConfigs';
import { BoundReached, ReviewBound } from '../../../src/terminal/node/reviewBounds';
import { withEscapesDecoded } from '../../../src/terminal/node/formatEscapes';
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

  test("a hook's paths are read as the shell reads them: backslashes, continued lines, $'…' strings, empty strings", () => {
    const mentioned = noneMentioned();
    mentionedBy("sh scripts/che\\ck.sh && bash $'tools\\x2flint.sh' && sh a/b\\\nc.sh\necho '$'\nbash $'bin\\u2frun.sh' tools/fm$''t.sh", mentioned, ['/w']);
    for (const path of ['/w/scripts/check.sh', '/w/tools/lint.sh', '/w/a/bc.sh', '/w/bin/run.sh', '/w/tools/fmt.sh'])
      assert.ok(mentioned.programs.has(path), path);
  });

  test('a name completed by a command substitution or a variable inside a path holds its folder whole', () => {
    const mentioned = noneMentioned();
    mentionedBy('bash tools/ch$(:)eck.sh; sh lib/a`true`b.sh; sh "$(git rev-parse --show-toplevel)/scripts/top.sh"', mentioned, ['/w']);
    for (const path of ['/w/tools', '/w/lib', '/w/scripts/top.sh']) assert.ok(mentioned.programs.has(path), path);
  });

  test('expansions nested past the bound stop the review rather than going unread', () => {
    const deep = `${'$('.repeat(40)}sh x.sh${')'.repeat(40)}`;
    assert.throws(() => mentionedBy(deep, noneMentioned(), ['/w']), ConfigTooLarge);
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
