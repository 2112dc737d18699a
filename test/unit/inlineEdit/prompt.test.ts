// "Edit Selection…" core: the prompt and its bounded surrounding code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildInlineEditMessages, headLines, MAX_CONTEXT_CHARS, MAX_CONTEXT_LINES, surroundingContext, tailLines } from '../../../src/inlineEdit/common/prompt';

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
    assert.deepEqual(
      [...order].sort((x, y) => x - y),
      order,
    );
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
