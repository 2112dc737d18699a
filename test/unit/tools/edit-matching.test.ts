// edit_file's tolerant matching and several edits in one call, through the real tool on real files in a temp folder.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../../src/tools/common/registry';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';
import { matchEdit } from '../../../src/tools/common/editMatching/locate';

const signal = new AbortController().signal;
let root: string;
let ctx: ToolContext;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'edit-matching-')));
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
});
afterEach(() => rm(root, { recursive: true, force: true }));

const onDisk = (path: string) => readFile(join(root, path), 'utf8');

/** Writes `before` to `path`, calls edit_file with `args`, and returns what the model and the approval see. */
async function edit(path: string, before: string, args: Record<string, unknown>) {
  await writeFile(join(root, path), before);
  const tool = allTools.find((candidate) => candidate.name === 'edit_file')!;
  const prepared = await tool.prepare({ path, ...args }, ctx, signal);
  const outcome = await prepared.execute(signal);
  return { prepared, outcome, after: await onDisk(path) };
}

const goFile = 'package a\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 2\n}\n';

describe('edit_file tolerances', () => {
  test('spaces for tabs: lands, new_text re-indented with tabs (a new deeper line too), and the result says so', async () => {
    const { prepared, outcome, after } = await edit('a.go', goFile, {
      old_text: '    if x > 0 {\n        return 1\n    }',
      new_text: '    if x > 0 {\n        y := x * 2\n        if y > 4 {\n            return y\n        }\n        return 1\n    }',
    });
    const expected =
      'package a\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\ty := x * 2\n\t\tif y > 4 {\n\t\t\treturn y\n\t\t}\n\t\treturn 1\n\t}\n\treturn 2\n}\n';
    assert.equal(after, expected);
    // The approval diff is made from the preview: it shows the final, re-indented text.
    assert.equal(prepared.preview?.after, expected);
    assert.equal(
      outcome.output,
      "Wrote a.go (12 lines). old_text did not match exactly; it matched one place with indentation ignored; new_text was re-indented to the file's indentation.",
    );
  });

  test('a dedented block with its first line unindented lands at its place, 2-space text in a 4-space file', async () => {
    const py = 'class A:\n    def f(self):\n        if self.x:\n            return 1\n        return 2\n';
    const { after } = await edit('a.py', py, { old_text: 'if self.x:\n  return 1\nreturn 2', new_text: 'if self.x:\n  return 3\nreturn 2' });
    assert.equal(after, 'class A:\n    def f(self):\n        if self.x:\n            return 3\n        return 2\n');
  });

  test('trailing whitespace: lands, and lines new_text keeps stay as the file has them', async () => {
    const { outcome, after } = await edit('a.md', '# Title  \nsome text\t\nmore\n', {
      old_text: '# Title\nsome text\nmore',
      new_text: '# Title\nother text\nmore',
    });
    assert.equal(after, '# Title  \nother text\nmore\n');
    assert.match(outcome.output, /with trailing whitespace ignored\.$/);
  });

  test("typographic punctuation: the file's curly quotes and dashes outside the edit are kept", async () => {
    const md = 'Intro\n\u201CQuoted\u201D \u2014 it\u2019s here\u2026\nlast line\n';
    const { outcome, after } = await edit('a.md', md, { old_text: '"Quoted" - it\'s here...\nlast line', new_text: '"Quoted" - it\'s here...\nnew last line' });
    assert.equal(after, 'Intro\n\u201CQuoted\u201D \u2014 it\u2019s here\u2026\nnew last line\n');
    assert.match(outcome.output, /with typographic punctuation read as plain ASCII\.$/);
  });

  test("a changed line keeps the file's typographic punctuation where it repeats the old line", async () => {
    const { after } = await edit('a.md', '\u201CQuoted\u201D \u2014 it\u2019s here\u2026\n', {
      old_text: '"Quoted" - it\'s here...',
      new_text: '"Quoted" - it\'s there...',
    });
    assert.equal(after, '\u201CQuoted\u201D \u2014 it\u2019s there\u2026\n');
  });

  test('an inserted or rewritten line never gets half of the file\'s quotes (issue 38: `\u201Cadded": true,`)', async () => {
    const json = '{\n  \u201Cname\u201D: \u201Cx\u201D,\n  \u201Cdone\u201D: false\n}\n';
    const inserted = await edit('a.json', json, {
      old_text: '  "name": "x",\n  "done": false',
      new_text: '  "name": "x",\n  "added": true,\n  "done": false',
    });
    assert.equal(inserted.after, '{\n  \u201Cname\u201D: \u201Cx\u201D,\n  "added": true,\n  \u201Cdone\u201D: false\n}\n');
    const rewritten = await edit('a.json', json, { old_text: '  "name": "x",', new_text: '  "added": true,' });
    assert.equal(rewritten.after, '{\n  "added": true,\n  \u201Cdone\u201D: false\n}\n');
  });

  test('line-number prefixes copied from an excerpt, in each usual form', async () => {
    for (const prefix of [(n: number) => `${n}: `, (n: number) => `${n}\t`, (n: number) => `  ${n} | `, (n: number) => `${String(n).padStart(6)}\u2192`]) {
      const { outcome, after } = await edit('a.go', goFile, {
        old_text: `${prefix(5)}\t\treturn 1\n${prefix(6)}\t}`,
        new_text: `${prefix(5)}\t\treturn 7\n${prefix(6)}\t}`,
      });
      assert.equal(after, goFile.replace('return 1', 'return 7'));
      assert.match(outcome.output, /with line-number prefixes removed\.$/);
    }
  });

  test('line numbers are not removed unless every line has one, counting up', async () => {
    const file = '1: one\n2: two\nthree\n';
    // Digits that are part of the file are matched as they are.
    assert.equal((await edit('a.txt', file, { old_text: '1: one\n2: two', new_text: '1: uno\n2: two' })).after, '1: uno\n2: two\nthree\n');
    const skipped = await edit('a.txt', 'x\ny\nz\n', { old_text: '1: x\n3: y', new_text: '1: x\n3: Y' });
    assert.equal(skipped.outcome.ok, false);
    assert.equal(skipped.after, 'x\ny\nz\n');
  });

  test('newlines sent as the two characters \\n, an escape that belongs to the code kept', async () => {
    const c = 'int main(void) {\n    printf("hi\\n");\n    return 0;\n}\n';
    const { outcome, after } = await edit('a.c', c, {
      old_text: '    printf(\\"hi\\\\n\\");\\n    return 0;',
      new_text: '    printf(\\"bye\\\\n\\");\\n    return 0;',
    });
    assert.equal(after, c.replace('hi', 'bye'));
    assert.match(outcome.output, /with the two characters \\n read as newlines\.$/);
  });

  test('a CRLF file edited with LF text with another indentation keeps its CRLF line ends', async () => {
    const { after } = await edit('a.ts', 'function f() {\r\n\treturn 1;\r\n}\r\n', {
      old_text: 'function f() {\n    return 1;\n}',
      new_text: 'function f() {\n    return 2;\n}',
    });
    assert.equal(after, 'function f() {\r\n\treturn 2;\r\n}\r\n');
  });

  test('the same lines at another indentation elsewhere: refused, naming both places; the file unchanged', async () => {
    const py = 'def a():\n    x = 1\n    y = 2\n\ndef b():\n    if c:\n        x = 1\n        y = 2\n';
    const { outcome, after } = await edit('a.py', py, { old_text: 'x = 1\ny = 2', new_text: 'x = 3\ny = 2' });
    assert.equal(outcome.ok, false);
    assert.equal(
      outcome.output,
      'old_text does not occur exactly in "a.py", and with indentation ignored it matches 2 places (at lines 2, 7). Include more of the surrounding lines in old_text so that it matches exactly one place.',
    );
    assert.equal(after, py);
  });

  test('the same lines at another indentation: a text exact but for trailing whitespace lands at its own place only', async () => {
    const py = 'def a():\n    x = 1\n    y = 2\n\ndef b():\n    if c:\n        x = 1\n        y = 2\n';
    const { after } = await edit('a.py', py, { old_text: '        x = 1   \n        y = 2', new_text: '        x = 3\n        y = 2' });
    assert.equal(after, py.replace('        x = 1', '        x = 3'));
  });

  test('hostile input stays bounded: a huge old_text and a file of many near-repeats answer in bounded CPU time', async () => {
    const file = 'a\n  a\n'.repeat(100_000);
    const started = process.cpuUsage();
    assert.equal(matchEdit(file, `${'a\n'.repeat(20_000)}b`, 'x').kind, 'notFound');
    assert.equal(matchEdit(file, 'a\n    a\na\n', 'x').kind, 'ambiguous');
    assert.equal(matchEdit(file, ` ${'\\n'.repeat(50_000)}`, 'x').kind, 'notFound');
    assert.equal(matchEdit(file, `${' '.repeat(200_000)}x\n${'1: '.repeat(10_000)}`, 'x').kind, 'notFound');
    const used = process.cpuUsage(started);
    // Quadratic work on these sizes takes minutes; linear work well under a second.
    assert.ok(used.user + used.system < 5_000_000, `${(used.user + used.system) / 1000} ms CPU`);
  });
});

describe('edit_file with several edits', () => {
  test('applied in order, each seeing the ones before, in one write with one preview', async () => {
    const { prepared, outcome, after } = await edit('a.go', goFile, {
      edits: [
        { old_text: 'return 1', new_text: 'return one' },
        { old_text: 'return one\n\t}\n\treturn 2', new_text: 'return one\n\t}\n\treturn two' },
        { old_text: 'package a', new_text: 'package b' },
      ],
    });
    const expected = goFile.replace('return 1', 'return one').replace('return 2', 'return two').replace('package a', 'package b');
    assert.equal(after, expected);
    assert.deepEqual(prepared.preview, { path: 'a.go', before: goFile, after: expected });
    assert.equal(outcome.output, 'Wrote a.go (8 lines).');
  });

  test('all or nothing: a failing edit names itself and nothing is written', async () => {
    const { prepared, outcome, after } = await edit('a.go', goFile, {
      edits: [
        { old_text: 'return 1', new_text: 'return one' },
        { old_text: 'return 9', new_text: 'return nine' },
      ],
    });
    assert.equal(after, goFile);
    assert.equal(prepared.preview, undefined);
    assert.match(outcome.output, /^Edit 2 of 2: old_text was not found in "a\.go"\..* No edit was applied\.$/s);
  });

  test('each tolerance an edit needed is named with its edit', async () => {
    const { outcome } = await edit('a.go', goFile, {
      edits: [
        { old_text: 'package a', new_text: 'package b' },
        { old_text: '    return 2', new_text: '    return 3' },
      ],
    });
    assert.equal(
      outcome.output,
      "Wrote a.go (8 lines). Edit 2: old_text did not match exactly; it matched one place with indentation ignored; new_text was re-indented to the file's indentation.",
    );
  });

  test('the arguments: edits or old_text/new_text, not both, not neither, not an empty list; empty or no-op edits refused', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ old_text: 'a', new_text: 'b', edits: [{ old_text: 'a', new_text: 'b' }] }, 'Give either old_text and new_text, or edits, not both.'],
      [{}, 'old_text and new_text are both required (or edits, a list of them).'],
      [{ old_text: 'package a' }, 'old_text and new_text are both required (or edits, a list of them).'],
      [{ edits: [] }, 'edits is empty: there is nothing to change.'],
      [
        {
          edits: [
            { old_text: 'package a', new_text: 'package b' },
            { old_text: '', new_text: 'x' },
          ],
        },
        'Edit 2 of 2: old_text is empty. To create a file or replace its whole content, use write_file. No edit was applied.',
      ],
      [{ edits: [{ old_text: 'x', new_text: 'x' }] }, 'old_text and new_text are the same: there is nothing to change.'],
    ];
    for (const [args, message] of cases) {
      const { outcome, after } = await edit('a.go', goFile, args);
      assert.deepEqual(outcome, { ok: false, output: message }, JSON.stringify(args));
      assert.equal(after, goFile);
    }
    const bad = await edit('a.go', goFile, { edits: [{ old_text: 'a' }] });
    assert.match(bad.outcome.output, /^Invalid arguments for edit_file: edits\.0\.new_text: /);
  });
});
