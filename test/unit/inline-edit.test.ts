// "Edit Selection…" core: the prompt, the streaming answer cleaner, and the line diff.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CodeAnswerCleaner, cleanCodeAnswer, type CodeAnswerCleanerOptions } from '../../src/core/inlineEdit/answerCleaner';
import { diffLineArrays, diffLines, diffStats, MAX_EDIT_DISTANCE, splitLines, type DiffOp } from '../../src/core/inlineEdit/lineDiff';
import {
  buildInlineEditMessages,
  headLines,
  MAX_CONTEXT_CHARS,
  MAX_CONTEXT_LINES,
  surroundingContext,
  tailLines,
} from '../../src/core/inlineEdit/prompt';

const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

describe('surroundingContext', () => {
  test('small files: everything before and after, split exactly at the selection', () => {
    const text = 'a\nb\nSELECTED\nc\nd';
    const start = text.indexOf('SELECTED');
    const ctx = surroundingContext(text, start, start + 'SELECTED\n'.length);
    assert.deepEqual(ctx, { before: 'a\nb\n', after: 'c\nd' });
  });

  test('at most MAX_CONTEXT_LINES whole lines on each side, the ones nearest the selection', () => {
    const lines = numbered(1, 300);
    const text = `${lines.join('\n')}\n`;
    const start = text.indexOf('line 150\n');
    const end = text.indexOf('line 152\n');
    const ctx = surroundingContext(text, start, end);
    assert.equal(MAX_CONTEXT_LINES, 60);
    assert.equal(ctx.before, `${numbered(90, 149).join('\n')}\n`);
    assert.equal(ctx.after, `${numbered(152, 211).join('\n')}\n`);
  });

  test('at most MAX_CONTEXT_CHARS on each side, cut at a line boundary', () => {
    const long = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(197)}`); // 200 chars a line with its newline
    const text = `${long.join('\n')}\nSEL\n${long.join('\n')}\n`;
    const start = text.indexOf('SEL');
    const ctx = surroundingContext(text, start, start + 4);
    assert.equal(MAX_CONTEXT_CHARS, 6000);
    assert.equal(ctx.before.length, 6000);
    assert.ok(ctx.before.startsWith('20x'), 'starts at a line start');
    assert.ok(ctx.before.endsWith(`49${'x'.repeat(197)}\n`));
    assert.equal(ctx.after.length, 6000);
    assert.ok(ctx.after.startsWith('00x'));
    assert.ok(ctx.after.endsWith(`29${'x'.repeat(197)}\n`), 'ends at a line end');
  });

  test('a selection inside a line keeps the rest of that line on each side', () => {
    const text = 'function f() {\n  return compute(a, b);\n}\n';
    const start = text.indexOf('compute');
    const end = text.indexOf(';');
    assert.deepEqual(surroundingContext(text, start, end), { before: 'function f() {\n  return ', after: ';\n}\n' });
  });

  test('one over-long line is cut by characters rather than dropped', () => {
    const minified = 'y'.repeat(20_000);
    const ctx = surroundingContext(`${minified}SEL${minified}`, 20_000, 20_003);
    assert.equal(ctx.before, 'y'.repeat(MAX_CONTEXT_CHARS));
    assert.equal(ctx.after, 'y'.repeat(MAX_CONTEXT_CHARS));
  });

  test('offsets are clamped and ordered', () => {
    assert.deepEqual(surroundingContext('abc', 5, -2), { before: '', after: '' });
    assert.deepEqual(surroundingContext('abcdef', 4, 2), { before: 'ab', after: 'ef' });
  });

  test('tailLines / headLines handle blank lines and trailing newlines', () => {
    assert.equal(tailLines('\n'), '\n');
    assert.equal(tailLines('a\n\n\nb', 2), '\nb');
    assert.equal(tailLines('a\nb\n', 1), 'b\n');
    assert.equal(headLines('\n\nx', 2), '\n\n');
    assert.equal(headLines('a\nb', 5), 'a\nb');
    assert.equal(headLines('ab\ncd\n', 5, 4), 'ab\n');
  });
});

describe('buildInlineEditMessages', () => {
  const base = {
    languageId: 'typescript',
    fileName: 'src/math.ts',
    instruction: '  add type annotations  ',
    selection: 'function add(a, b) {\n  return a + b;\n}\n',
    before: "import { x } from './x';\n\n",
    after: '\nexport { add };\n',
  };

  test('a system message asking for bare replacement code, then the request', () => {
    const messages = buildInlineEditMessages(base);
    assert.equal(messages.length, 2);
    assert.equal(messages[0].role, 'system');
    assert.match(messages[0].content ?? '', /ONLY the code that replaces the selection/);
    assert.match(messages[0].content ?? '', /no Markdown fences, no explanations/);
    assert.match(messages[0].content ?? '', /indentation/);
    assert.equal(messages[1].role, 'user');
  });

  test('the user message has the file, the language, the context, the delimited selection and the instruction', () => {
    const user = buildInlineEditMessages(base)[1].content ?? '';
    assert.ok(user.startsWith('File: src/math.ts\nLanguage: typescript\n\n'));
    assert.ok(user.includes("Code just before the selection:\n```typescript\nimport { x } from './x';\n\n```"));
    assert.ok(
      user.includes('The selection to rewrite (everything between the fences, nothing else):\n```typescript\nfunction add(a, b) {\n  return a + b;\n}\n```'),
    );
    assert.ok(user.includes('Code just after the selection:\n```typescript\n\nexport { add };\n```'));
    assert.ok(user.includes('Instruction: add type annotations\n'));
    // Order: before, selection, after, instruction.
    const order = ['Code just before', 'The selection to rewrite', 'Code just after', 'Instruction:'].map((s) => user.indexOf(s));
    assert.deepEqual([...order].sort((x, y) => x - y), order);
    assert.ok(!user.includes('middle of a line'));
  });

  test('the context is bounded even when the caller passes the whole file', () => {
    const before = `${numbered(1, 500).join('\n')}\n`;
    const after = numbered(501, 1000).join('\n');
    const user = buildInlineEditMessages({ ...base, before, after })[1].content ?? '';
    assert.ok(user.includes('```typescript\nline 441\n'), 'before starts 60 lines up');
    assert.ok(!user.includes('line 440\n'));
    assert.ok(user.includes('line 560\n```'), 'after ends 60 lines down');
    assert.ok(!user.includes('line 561'));
  });

  test('fences grow past backtick runs in the code', () => {
    const user = buildInlineEditMessages({ ...base, languageId: 'markdown', selection: 'Run:\n```sh\nnpm test\n```\n' })[1].content ?? '';
    assert.ok(user.includes('````markdown\nRun:\n```sh\nnpm test\n```\n````'));
  });

  test('file edges, an empty selection and selections inside a line are spelled out', () => {
    const atEdges = buildInlineEditMessages({ ...base, before: '', after: '' })[1].content ?? '';
    assert.match(atEdges, /starts at the beginning of the file/);
    assert.match(atEdges, /runs to the end of the file/);
    assert.ok(!atEdges.includes('Code just before'));

    const empty = buildInlineEditMessages({ ...base, selection: '' })[1].content ?? '';
    assert.match(empty, /selection is empty/);
    assert.ok(!empty.includes('The selection to rewrite'));

    const inLine = buildInlineEditMessages({ ...base, before: 'const total = ', selection: 'a + b', after: ';\n' })[1].content ?? '';
    assert.match(inLine, /starts in the middle of a line/);
    assert.match(inLine, /ends in the middle of a line/);
  });
});

interface AnswerCase {
  name: string;
  answer: string;
  options: CodeAnswerCleanerOptions;
  expected: string;
}

const PY_WITH_FENCES = [
  'def readme() -> str:',
  '    return """',
  '```bash',
  'pip install thing',
  '```',
  '"""',
].join('\n');

const ANSWERS: AnswerCase[] = [
  {
    name: 'fenced with a language',
    answer: '```typescript\nfunction add(a: number, b: number): number {\n  return a + b;\n}\n```',
    options: { selection: 'function add(a, b) {\n  return a + b;\n}\n' },
    expected: 'function add(a: number, b: number): number {\n  return a + b;\n}\n',
  },
  {
    name: 'fenced without a language, trailing newline after the fence',
    answer: '```\nconst x = 1;\n```\n',
    options: { selection: 'let x = 1;' },
    expected: 'const x = 1;',
  },
  {
    name: 'prose, fence, prose',
    answer:
      'Here is the updated code:\n\n```ts\nconst total = items.reduce((sum, item) => sum + item.price, 0);\n```\n\nThis uses `reduce` instead of a loop, so the `total` variable can be a `const`.\n',
    options: { selection: 'let total = 0;\nfor (const item of items) total += item.price;' },
    expected: 'const total = items.reduce((sum, item) => sum + item.price, 0);',
  },
  {
    name: 'two lines of preamble, python',
    answer: 'Sure!\nHere\'s the rewritten function:\n```python\ndef greet(name: str) -> str:\n    return f"Hello, {name}!"\n```',
    options: { selection: 'def greet(name):\n    return "Hello, " + name + "!"\n' },
    expected: 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n',
  },
  {
    name: 'no fence: passed through',
    answer: '    if (!user) {\n      return null;\n    }\n',
    options: { selection: '    if (user == null) return null;\n' },
    expected: '    if (!user) {\n      return null;\n    }\n',
  },
  {
    name: 'no fence, first line looks like prose (python block header)',
    answer: 'for item in items:\n    print(item)\n',
    options: { selection: 'print(items)\n' },
    expected: 'for item in items:\n    print(item)\n',
  },
  {
    name: 'backticks inside the code: template literals and inline fences',
    answer: [
      '```ts',
      "const fence = '```';",
      'const block = `${fence}${lang}\\n${code}\\n${fence}`;',
      'const hint = `use \\`npm test\\``;',
      '```',
      '',
      'The fence is built from a constant.',
    ].join('\n'),
    options: { selection: 'const block = "```" + lang;\n' },
    expected: [
      "const fence = '```';",
      'const block = `${fence}${lang}\\n${code}\\n${fence}`;',
      'const hint = `use \\`npm test\\``;',
      '',
    ].join('\n'),
  },
  {
    name: 'bare ``` lines inside a string, in a three-backtick fence',
    answer: `\`\`\`python\n${PY_WITH_FENCES}\n\`\`\`\n\nI added the install step.`,
    options: { selection: 'def readme():\n    return ""\n' },
    expected: `${PY_WITH_FENCES}\n`,
  },
  {
    name: 'four-backtick fence around Markdown with its own fences',
    answer: '````markdown\nRun the tests:\n\n```sh\nnpm test\n```\n````\n',
    options: { selection: 'Run:\n\n```sh\nnpm t\n```\n', languageId: 'markdown' },
    expected: 'Run the tests:\n\n```sh\nnpm test\n```\n',
  },
  {
    name: 'Markdown answer with fences and no wrapper: passed through',
    answer: 'Run the tests:\n\n```sh\nnpm test\n```\n',
    options: { selection: 'Run:\n\n```sh\nnpm t\n```\n', languageId: 'markdown' },
    expected: 'Run the tests:\n\n```sh\nnpm test\n```\n',
  },
  {
    name: 'four-backtick fence around code with ``` lines',
    answer: '````js\nconst s = `\n```\n`;\n````',
    options: { selection: 'const s = "";' },
    expected: 'const s = `\n```\n`;',
  },
  {
    name: 'CRLF answer with preamble',
    answer: 'Here you go:\r\n```ts\r\nconst a = 1;\r\nconst b = 2;\r\n```\r\n',
    options: { selection: 'var a = 1;\r\nvar b = 2;\r\n' },
    expected: 'const a = 1;\r\nconst b = 2;\r\n',
  },
  {
    name: 'CRLF bare answer, selection without newline',
    answer: 'const a = 1;\r\nconst b = 2;\r\n',
    options: { selection: 'var a = 1;\r\nvar b = 2;' },
    expected: 'const a = 1;\r\nconst b = 2;',
  },
  {
    name: 'a usage example after the code is not part of it',
    answer: "```ts\nexport const limit = 2;\n```\n\nUsage:\n```ts\nimport { limit } from './limit';\n```\n",
    options: { selection: 'export const limit = 1;' },
    expected: 'export const limit = 2;',
  },
  {
    name: 'plain prose (a text file) with no fence',
    answer: 'The quick brown fox jumps over the lazy dog.\nIt was not amused.',
    options: { selection: 'The fox jumps.\n', languageId: 'plaintext' },
    expected: 'The quick brown fox jumps over the lazy dog.\nIt was not amused.\n',
  },
  {
    name: 'a fence cut off mid-answer',
    answer: '```go\nfunc main() {\n\tfmt.Println("hi")',
    options: { selection: 'func main() {}' },
    expected: 'func main() {\n\tfmt.Println("hi")',
  },
  {
    name: 'indented fences',
    answer: 'Updated:\n  ```js\n  foo();\n  ```\n',
    options: { selection: '  bar();\n' },
    expected: '  foo();\n',
  },
  {
    name: 'closing fence glued to the last line',
    answer: '```js\nfoo();\nbar();```',
    options: { selection: 'foo();\n' },
    expected: 'foo();\nbar();\n',
  },
];

/** Feeds the pieces, checking that nothing shown is ever taken back; returns everything shown. */
function stream(pieces: string[], options: CodeAnswerCleanerOptions, expected: string): string {
  const cleaner = new CodeAnswerCleaner(options);
  let shown = '';
  for (const piece of pieces) {
    shown += cleaner.push(piece);
    assert.ok(expected.startsWith(shown), `shown ${JSON.stringify(shown)} is not a prefix of ${JSON.stringify(expected)}`);
  }
  shown += cleaner.finish();
  assert.equal(cleaner.finish(), '');
  return shown;
}

/** A deterministic PRNG for random chunkings. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('CodeAnswerCleaner', () => {
  for (const c of ANSWERS) {
    test(`${c.name}: whole, every split in two, one character at a time, random chunks`, () => {
      assert.equal(cleanCodeAnswer(c.answer, c.options), c.expected);
      for (let i = 0; i <= c.answer.length; i++) {
        assert.equal(stream([c.answer.slice(0, i), c.answer.slice(i)], c.options, c.expected), c.expected, `split at ${i}`);
      }
      assert.equal(stream([...c.answer], c.options, c.expected), c.expected);
      const random = prng(c.answer.length);
      for (let round = 0; round < 50; round++) {
        const pieces: string[] = [];
        for (let at = 0; at < c.answer.length; ) {
          const size = 1 + Math.floor(random() * 12);
          pieces.push(c.answer.slice(at, at + size));
          at += size;
        }
        assert.equal(stream(pieces, c.options, c.expected), c.expected, `random round ${round}`);
      }
    });
  }

  test('shows code as soon as it is safe, holding back only a possible closing fence', () => {
    const cleaner = new CodeAnswerCleaner('old();\n');
    assert.equal(cleaner.push('```ts\n'), '');
    assert.equal(cleaner.push('const a = 1;\nconst b'), 'const a = 1;\nconst b');
    assert.equal(cleaner.push(' = 2;\n``'), ' = 2;\n');
    assert.equal(cleaner.push('`'), '');
    assert.equal(cleaner.push('\nDone.'), '');
    assert.equal(cleaner.done, false, 'the line after the fence is not known to be prose until it ends');
    assert.equal(cleaner.push('\n'), '');
    assert.equal(cleaner.done, true);
    assert.equal(cleaner.finish(), '');
  });

  test('a bare answer streams from its first code character; prose-like lines wait for their end', () => {
    const bare = new CodeAnswerCleaner('x\n');
    assert.equal(bare.push('  return'), '  return');
    assert.equal(bare.push(' 1;\n'), ' 1;\n');
    const prose = new CodeAnswerCleaner('x\n');
    assert.equal(prose.push('Here is'), '');
    assert.equal(prose.push(' the code:\n'), '');
    assert.equal(prose.push('```'), '');
    assert.equal(prose.push('ts\nok();\n'), 'ok();\n');
    assert.equal(prose.done, false);
  });

  test('prose-like lines are held for a few lines at most, then the answer counts as bare', () => {
    const cleaner = new CodeAnswerCleaner('x\n');
    let shown = '';
    for (const sentence of ['One.', 'Two.', 'Three.', 'Four.']) shown += cleaner.push(`${sentence}\n`);
    assert.equal(shown, '');
    assert.equal(cleaner.push('Five.\n'), 'One.\nTwo.\nThree.\nFour.\nFive.\n');
    assert.equal(cleaner.push('```ts\n'), '```ts\n');
    assert.equal(cleaner.finish(), '');
  });

  test('line breaks that may end the answer are held when the selection has none', () => {
    const cleaner = new CodeAnswerCleaner('a');
    assert.equal(cleaner.push('b\n\n'), 'b');
    assert.equal(cleaner.push('c\r'), '\n\nc');
    assert.equal(cleaner.push('\n'), '');
    assert.equal(cleaner.finish(), '');
  });

  test('trailing newline follows the selection', () => {
    assert.equal(cleanCodeAnswer('x = 1', 'y = 0\n'), 'x = 1\n');
    assert.equal(cleanCodeAnswer('x = 1', 'y = 0\r\n'), 'x = 1\r\n');
    assert.equal(cleanCodeAnswer('x = 1\n', 'y = 0\n'), 'x = 1\n');
    assert.equal(cleanCodeAnswer('x = 1\n', 'y = 0'), 'x = 1');
    assert.equal(cleanCodeAnswer('x = 1\n\n\n', 'y = 0'), 'x = 1');
    assert.equal(cleanCodeAnswer('```\nx = 1\n```', 'y = 0\n'), 'x = 1\n');
    assert.equal(cleanCodeAnswer('```\nx = 1\n```', 'y = 0'), 'x = 1');
    // Without a selection the answer's own newline stays.
    assert.equal(cleanCodeAnswer('```\nx = 1\n```'), 'x = 1\n');
    assert.equal(cleanCodeAnswer('x = 1'), 'x = 1');
    // An empty answer (delete the selection) stays empty.
    assert.equal(cleanCodeAnswer('', 'y = 0\n'), '');
    assert.equal(cleanCodeAnswer('```ts\n```', 'y = 0\n'), '');
  });

  test('push after finish is ignored', () => {
    const cleaner = new CodeAnswerCleaner();
    assert.equal(cleaner.push('a;'), 'a;');
    assert.equal(cleaner.finish(), '');
    assert.equal(cleaner.push('b;'), '');
  });
});

/** Rebuilds both sides from the ops. */
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
