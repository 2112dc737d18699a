// "Edit Selection…" core: the line diff shown while the rewrite streams.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prng } from './helpers/prng';
import { diffLineArrays, diffLines, diffStats, MAX_EDIT_DISTANCE, splitLines, type DiffOp } from '../../src/core/inlineEdit/lineDiff';

function sides(ops: DiffOp[]): { original: string[]; proposed: string[] } {
  return {
    original: ops.filter((op) => op.kind !== 'added').flatMap((op) => op.lines),
    proposed: ops.filter((op) => op.kind !== 'removed').flatMap((op) => op.lines),
  };
}

function checkShape(ops: DiffOp[]): void {
  for (let i = 0; i < ops.length; i++) {
    assert.ok(ops[i].lines.length > 0, 'no empty ops');
    if (i > 0) {
      assert.notEqual(ops[i].kind, ops[i - 1].kind, 'consecutive ops differ in kind');
      assert.ok(!(ops[i - 1].kind === 'added' && ops[i].kind === 'removed'), 'removals come before additions');
    }
  }
}

/** Edit distance (added + removed lines) of the shortest script, by LCS dynamic programming. */
function lcsDistance(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
    }
  }
  return a.length + b.length - 2 * table[a.length][b.length];
}

describe('diffLines', () => {
  const cases: { name: string; original: string; proposed: string; ops: DiffOp[] }[] = [
    {
      name: 'insert',
      original: 'a\nb\nc\n',
      proposed: 'a\nb\nnew\nc\n',
      ops: [
        { kind: 'equal', lines: ['a', 'b'] },
        { kind: 'added', lines: ['new'] },
        { kind: 'equal', lines: ['c', ''] },
      ],
    },
    {
      name: 'delete',
      original: 'a\nb\nc\nd\n',
      proposed: 'a\nd\n',
      ops: [
        { kind: 'equal', lines: ['a'] },
        { kind: 'removed', lines: ['b', 'c'] },
        { kind: 'equal', lines: ['d', ''] },
      ],
    },
    {
      name: 'change',
      original: 'function f(a, b) {\n  return a + b;\n}\n',
      proposed: 'function f(a: number, b: number): number {\n  return a + b;\n}\n',
      ops: [
        { kind: 'removed', lines: ['function f(a, b) {'] },
        { kind: 'added', lines: ['function f(a: number, b: number): number {'] },
        { kind: 'equal', lines: ['  return a + b;', '}', ''] },
      ],
    },
    {
      name: 'interleaved changes',
      original: 'x\na\ny\nb\nz',
      proposed: 'x\nA\ny\nB\nz',
      ops: [
        { kind: 'equal', lines: ['x'] },
        { kind: 'removed', lines: ['a'] },
        { kind: 'added', lines: ['A'] },
        { kind: 'equal', lines: ['y'] },
        { kind: 'removed', lines: ['b'] },
        { kind: 'added', lines: ['B'] },
        { kind: 'equal', lines: ['z'] },
      ],
    },
    { name: 'empty original', original: '', proposed: 'a\nb', ops: [{ kind: 'added', lines: ['a', 'b'] }] },
    { name: 'empty proposed', original: 'a\nb\n', proposed: '', ops: [{ kind: 'removed', lines: ['a', 'b', ''] }] },
    { name: 'identical', original: 'a\nb\n', proposed: 'a\nb\n', ops: [{ kind: 'equal', lines: ['a', 'b', ''] }] },
    { name: 'both empty', original: '', proposed: '', ops: [] },
    {
      name: 'a newline added at the end',
      original: 'a',
      proposed: 'a\n',
      ops: [
        { kind: 'equal', lines: ['a'] },
        { kind: 'added', lines: [''] },
      ],
    },
  ];

  for (const c of cases) {
    test(`${c.name}: expected ops, and both texts rebuilt from them`, () => {
      const ops = diffLines(c.original, c.proposed);
      assert.deepEqual(ops, c.ops);
      checkShape(ops);
      const rebuilt = sides(ops);
      assert.equal(rebuilt.original.join('\n'), c.original);
      assert.equal(rebuilt.proposed.join('\n'), c.proposed);
    });
  }

  test('diffStats counts lines', () => {
    assert.deepEqual(diffStats(diffLines('a\nb\nc\nd\n', 'a\nB\nc\nnew\nd\n')), { added: 2, removed: 1, unchanged: 4 });
    assert.deepEqual(diffStats([]), { added: 0, removed: 0, unchanged: 0 });
  });

  test('line breaks are not compared: CRLF against LF is all equal', () => {
    const ops = diffLines('a\r\nb\r\n', 'a\nb\n');
    assert.deepEqual(ops, [{ kind: 'equal', lines: ['a', 'b', ''] }]);
    assert.deepEqual(splitLines('a\r\nb'), ['a', 'b']);
    assert.equal(sides(ops).original.join('\r\n'), 'a\r\nb\r\n');
  });

  test('random edits: both sides rebuilt, and the script is as short as the LCS allows', () => {
    const random = prng(7);
    const alphabet = ['{', '}', 'return x;', '', 'let a = 1;', 'foo();', 'bar();'];
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(random() * 25) }, () => alphabet[Math.floor(random() * alphabet.length)]);
      const b = [...a];
      const edits = Math.floor(random() * 8);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (b.length + 1));
        const roll = random();
        if (roll < 0.4 && b.length > 0) b.splice(Math.min(at, b.length - 1), 1);
        else if (roll < 0.7) b.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)]);
        else if (b.length > 0) b[Math.min(at, b.length - 1)] = `changed ${e}`;
      }
      const ops = diffLineArrays(a, b);
      checkShape(ops);
      assert.deepEqual(sides(ops), { original: a, proposed: b });
      const stats = diffStats(ops);
      assert.equal(stats.added + stats.removed, lcsDistance(a, b), `round ${round}`);
    }
  });

  test('huge or wholly different inputs fall back to one replacement, quickly', () => {
    const a = Array.from({ length: MAX_EDIT_DISTANCE }, (_, i) => `old ${i}`);
    const b = Array.from({ length: MAX_EDIT_DISTANCE }, (_, i) => `new ${i}`);
    const started = Date.now();
    const ops = diffLineArrays(['same', ...a, 'tail'], ['same', ...b, 'tail']);
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(ops, [
      { kind: 'equal', lines: ['same'] },
      { kind: 'removed', lines: a },
      { kind: 'added', lines: b },
      { kind: 'equal', lines: ['tail'] },
    ]);
    const big = Array.from({ length: 15_000 }, (_, i) => `x${i}`);
    const bigOps = diffLineArrays(big, big.map((line) => `${line}!`));
    assert.deepEqual(diffStats(bigOps), { added: 15_000, removed: 15_000, unchanged: 0 });
  });
});
