// "Edit Selection…" core: the streaming cleaner that keeps only the code of an answer, under any chunking.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prng } from '../helpers/prng';
import { CodeAnswerCleaner, cleanCodeAnswer, type CodeAnswerCleanerOptions } from '../../../src/inlineEdit/common/answerCleaner';

interface AnswerCase {
  name: string;
  answer: string;
  options: CodeAnswerCleanerOptions;
  expected: string;
}

const PY_WITH_FENCES = ['def readme() -> str:', '    return """', '```bash', 'pip install thing', '```', '"""'].join('\n');

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
    expected: ["const fence = '```';", 'const block = `${fence}${lang}\\n${code}\\n${fence}`;', 'const hint = `use \\`npm test\\``;', ''].join('\n'),
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
    name: 'an inner block with a language inside the fence, then a sentence still inside a string',
    answer: '```ts\nconst help = `\n```js\nrun();\n```\nThat is all.\n`;\n```\nDone.\n',
    options: { selection: 'const help = "";\n', languageId: 'typescript' },
    expected: 'const help = `\n```js\nrun();\n```\nThat is all.\n`;\n',
  },
  {
    name: 'a Markdown answer wrapped in ```markdown with an inner sh block',
    answer: '```markdown\nInstall it:\n\n```sh\nnpm i\n```\n\nThen run it.\n```\n',
    options: { selection: 'Install it.\n', languageId: 'markdown' },
    expected: 'Install it:\n\n```sh\nnpm i\n```\n\nThen run it.\n',
  },
  {
    name: 'in a Markdown file, prose and a code block are the new text, not a wrapper',
    answer: 'To install, run:\n\n```sh\nnpm install gateway\n```\n\nThen restart VS Code.\n',
    options: { selection: 'Install the package.\n', languageId: 'markdown' },
    expected: 'To install, run:\n\n```sh\nnpm install gateway\n```\n\nThen restart VS Code.\n',
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
        for (let at = 0; at < c.answer.length;) {
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
