// The file tools on a real temporary folder through the Node ports: what the model reads back, success and failure.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../../src/tools/common/registry';
import { readPageBytes, readPageLines } from '../../../src/tools/common/readFile';
import { listLimit } from '../../../src/tools/common/listFiles';
import { excerptChars } from '../../../src/tools/common/editFile';
import { searchMatchLimit } from '../../../src/tools/common/searchText';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';
import { cpuMsSince, cpuStart } from '../helpers/cpuTime';

const signal = new AbortController().signal;

let root: string;
let ctx: ToolContext;

async function put(files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

async function call(name: string, args: unknown) {
  const tool = allTools.find((candidate) => candidate.name === name)!;
  const prepared = await tool.prepare(args, ctx, signal);
  return { prepared, outcome: await prepared.execute(signal) };
}

const onDisk = (path: string) => readFile(join(root, path), 'utf8');
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tools-files-')));
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('read_file', () => {
  test('a small file comes back whole, with a one-line summary', async () => {
    await put({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n' });
    const { prepared, outcome } = await call('read_file', { path: './src/a.ts' });
    assert.equal(prepared.summary, 'Read src/a.ts');
    assert.equal(prepared.refusal, undefined);
    assert.deepEqual(outcome, { ok: true, output: 'const a = 1;\nconst b = 2;' });
  });

  test('a line range, 1-based and inclusive, says where it is in the file', async () => {
    await put({ 'f.txt': numbered(10) });
    const { outcome } = await call('read_file', { path: 'f.txt', startLine: 3, endLine: 5 });
    assert.equal(outcome.output, 'line 3\nline 4\nline 5\n\n(lines 3–5 of 10; call again with startLine=6 for more)');
    const tail = await call('read_file', { path: 'f.txt', startLine: 9 });
    assert.equal(tail.outcome.output, 'line 9\nline 10\n\n(lines 9–10 of 10)');
  });

  test(`a long file is paged at ${readPageLines} lines, and the next page follows on`, async () => {
    await put({ 'big.txt': numbered(1000) });
    const first = await call('read_file', { path: 'big.txt' });
    const lines = first.outcome.output.split('\n');
    assert.equal(lines[0], 'line 1');
    assert.equal(lines[readPageLines - 1], `line ${readPageLines}`);
    assert.match(first.outcome.output, /\(lines 1–400 of 1000; call again with startLine=401 for more\)$/);
    const second = await call('read_file', { path: 'big.txt', startLine: 401 });
    assert.ok(second.outcome.output.startsWith('line 401\n'));
    assert.match(second.outcome.output, /\(lines 401–800 of 1000; call again with startLine=801 for more\)$/);
    const last = await call('read_file', { path: 'big.txt', startLine: 801 });
    assert.match(last.outcome.output, /line 1000\n\n\(lines 801–1000 of 1000\)$/);
  });

  test(`a file of long lines is paged at ${readPageBytes / 1024} KB`, async () => {
    const line = 'x'.repeat(999);
    await put({ 'wide.txt': `${line}\n`.repeat(100) });
    const { outcome } = await call('read_file', { path: 'wide.txt' });
    assert.ok(Buffer.byteLength(outcome.output) <= readPageBytes + 100);
    assert.match(outcome.output, /\(lines 1–32 of 100; call again with startLine=33 for more\)$/);
  });

  test('one enormous line shows its beginning and says it is cut', async () => {
    await put({ 'min.js': `${'a'.repeat(100_000)}\nsecond\n` });
    const { outcome } = await call('read_file', { path: 'min.js' });
    assert.equal(outcome.output.indexOf('second'), -1);
    assert.ok(outcome.output.startsWith('a'.repeat(1000)));
    assert.match(outcome.output, /line 1 is cut: it is longer than 32 KB; lines 1–1 of 2; call again with startLine=2 for more\)$/);
  });

  test('a missing file: the paths with a similar name that exist, never a protected one', async () => {
    await put({ 'src/counter.ts': '', 'src/hello.ts': '', 'src/lib/util.ts': '', '.env': 'SECRET=1', 'README.md': '' });
    const answers: Record<string, string> = {};
    for (const path of ['src/counters.ts', 'src/Counter.ts', 'source/counter.ts', 'src/lib/utils.ts', 'env', 'nope.ts'])
      answers[path] = (await call('read_file', { path })).outcome.output;
    assert.deepEqual(answers, {
      'src/counters.ts': 'No file at "src/counters.ts". Similar paths that exist: src/counter.ts. Use list_files to see what is there.',
      'src/Counter.ts': 'No file at "src/Counter.ts". Similar paths that exist: src/counter.ts. Use list_files to see what is there.',
      'source/counter.ts': 'No file at "source/counter.ts". Similar paths that exist: src/. Use list_files to see what is there.',
      'src/lib/utils.ts': 'No file at "src/lib/utils.ts". Similar paths that exist: src/lib/util.ts. Use list_files to see what is there.',
      env: 'No file at "env". Use list_files to see what is there.',
      'nope.ts': 'No file at "nope.ts". Use list_files to see what is there.',
    });
  });

  test('CRLF files read as lines without carriage returns', async () => {
    await put({ 'win.txt': 'one\r\ntwo\r\n' });
    const { outcome } = await call('read_file', { path: 'win.txt' });
    assert.equal(outcome.output, 'one\ntwo');
  });

  const failures: [string, Record<string, string | Buffer>, Record<string, unknown>, RegExp][] = [
    ['a missing file', {}, { path: 'nope.ts' }, /^No file at "nope\.ts"\. Use list_files/],
    ['a folder', { 'src/a.ts': '' }, { path: 'src' }, /^"src" is a folder, not a file\. Use list_files/],
    ['a binary file', { 'img.png': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]) }, { path: 'img.png' }, /^"img\.png" is a binary file \(5 bytes\)/],
    ['a start past the end', { 'f.txt': numbered(3) }, { path: 'f.txt', startLine: 7 }, /^startLine 7 is past the end: "f\.txt" has 3 lines\./],
    ['an end before the start', { 'f.txt': numbered(9) }, { path: 'f.txt', startLine: 5, endLine: 2 }, /^endLine 2 is before startLine 5\./],
    [
      'a line number of 0',
      { 'f.txt': 'x' },
      { path: 'f.txt', startLine: 0 },
      /^Invalid arguments for read_file: startLine: Too small: expected number to be >=1\./,
    ],
    ['a missing path', {}, {}, /^Invalid arguments for read_file: path: Invalid input: expected string, received undefined\./],
  ];
  for (const [name, files, args, message] of failures) {
    test(`${name}: ok:false with a message, nothing thrown`, async () => {
      await put(files);
      const { outcome } = await call('read_file', args);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, message);
    });
  }

  test('an empty file says so', async () => {
    await put({ 'empty.txt': '' });
    const { outcome } = await call('read_file', { path: 'empty.txt' });
    assert.deepEqual(outcome, { ok: true, output: '("empty.txt" is empty)' });
  });
});

describe('list_files', () => {
  test('lists files and folders recursively, in tree order, leaving out ignored ones', async () => {
    await put({
      '.gitignore': 'dist/\n*.log\n',
      'README.md': '',
      'src/b.ts': '',
      'src/a.ts': '',
      'src/lib/c.ts': '',
      'dist/out.js': '',
      'debug.log': '',
      'node_modules/pkg/index.js': '',
    });
    const { prepared, outcome } = await call('list_files', {});
    assert.equal(prepared.summary, 'List the workspace');
    assert.deepEqual(outcome, { ok: true, output: ['.gitignore', 'README.md', 'src/', 'src/a.ts', 'src/b.ts', 'src/lib/', 'src/lib/c.ts'].join('\n') });
  });

  test('each walk reads the ignore files as they are then: one written or changed since the last walk counts at once', async () => {
    await put({ 'keep.txt': '', 'gen/x.js': '', 'sub/y.tmp': '', 'sub/z.txt': '' });
    assert.equal((await call('list_files', {})).outcome.output, 'gen/\nkeep.txt\nsub/\ngen/x.js\nsub/y.tmp\nsub/z.txt');
    await put({ '.gitignore': 'gen/\n', 'sub/.gitignore': '*.tmp\n' });
    assert.equal((await call('list_files', {})).outcome.output, '.gitignore\nkeep.txt\nsub/\nsub/.gitignore\nsub/z.txt');
    await put({ '.gitignore': '# nothing\n' });
    assert.equal((await call('list_files', {})).outcome.output, '.gitignore\ngen/\nkeep.txt\nsub/\ngen/x.js\nsub/.gitignore\nsub/z.txt');
  });

  test('a folder and a glob narrow the list; a glob without "/" matches names at any depth', async () => {
    await put({ 'src/a.ts': '', 'src/a.md': '', 'src/lib/c.ts': '', 'test/t.ts': '' });
    const { prepared, outcome } = await call('list_files', { folder: 'src', glob: '*.ts' });
    assert.equal(prepared.summary, 'List src (*.ts)');
    assert.equal(outcome.output, 'src/a.ts\nsrc/lib/c.ts');
    const relative = await call('list_files', { folder: 'src', glob: 'lib/*.ts' });
    assert.equal(relative.outcome.output, 'src/lib/c.ts');
    const none = await call('list_files', { glob: '*.py' });
    assert.equal(none.outcome.output, 'No files under "." match "*.py".');
  });

  test(`at most ${listLimit} paths, then a count of the rest`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < listLimit + 37; i++) files[`many/f${String(i).padStart(4, '0')}.txt`] = '';
    await put(files);
    const { outcome } = await call('list_files', { folder: 'many' });
    const lines = outcome.output.split('\n');
    assert.equal(lines.length, listLimit + 1);
    assert.equal(lines[0], 'many/f0000.txt');
    assert.equal(lines.at(-1), '… 37 more; list a subfolder or use a glob to narrow it down');
  });

  test('an ignored folder asked for by name is listed, with a note', async () => {
    await put({ 'node_modules/pkg/index.js': '', 'node_modules/pkg/package.json': '' });
    const { outcome } = await call('list_files', { folder: 'node_modules/pkg' });
    assert.match(outcome.output, /^node_modules\/pkg\/index\.js\nnode_modules\/pkg\/package\.json\n/);
    assert.match(outcome.output, /is ignored by the workspace's rules; listed because it was asked for by name/);
  });

  test('failures: a missing folder, a file, an empty folder', async () => {
    await put({ 'a.txt': '' });
    await mkdir(join(root, 'empty'));
    assert.deepEqual((await call('list_files', { folder: 'nope' })).outcome, { ok: false, output: 'No folder at "nope".' });
    assert.match((await call('list_files', { folder: 'a.txt' })).outcome.output, /^"a\.txt" is a file, not a folder\. Use read_file/);
    assert.match((await call('list_files', { folder: 'empty' })).outcome.output, /^"empty" is empty/);
  });
});

describe('search_text', () => {
  test('plain text finds lines as path:line: text, skipping ignored, protected and binary files', async () => {
    await put({
      '.gitignore': 'build/\n',
      'src/a.ts': 'import x from "y";\n  const needle = 1;\n',
      'src/b.ts': 'no\nneedle again\n',
      'build/out.js': 'needle',
      'node_modules/m/i.js': 'needle',
      '.env': 'NEEDLE=needle',
      'bin.dat': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]),
    });
    const { prepared, outcome } = await call('search_text', { pattern: 'needle' });
    assert.equal(prepared.summary, 'Search for needle');
    assert.deepEqual(outcome, { ok: true, output: 'src/a.ts:2: const needle = 1;\nsrc/b.ts:2: needle again' });
  });

  test('/regex/ and /regex/i, with a glob', async () => {
    await put({ 'a.ts': 'function Foo() {}\nfunction bar() {}\n', 'b.md': 'function Foo' });
    const sensitive = await call('search_text', { pattern: '/function [A-Z]\\w+/', glob: '*.ts' });
    assert.equal(sensitive.outcome.output, 'a.ts:1: function Foo() {}');
    const insensitive = await call('search_text', { pattern: '/FUNCTION B/i' });
    assert.equal(insensitive.outcome.output, 'a.ts:2: function bar() {}');
  });

  // JavaScript's backtracking engine takes 2.2 s for `^(a+)+$` on 28 a's and a b, four times more for
  // every 2 more characters: 40 would take hours, and the host could not even run Stop meanwhile.
  test('a catastrophic-backtracking regex on a near-matching line answers at once (linear-time engine)', async () => {
    await put({ 'a.txt': `${'a'.repeat(40)}b\n`, 'b.txt': `${'a'.repeat(5000)}!\naaa\n` });
    const started = cpuStart();
    const { outcome } = await call('search_text', { pattern: '/^(a+)+$/' });
    assert.equal(outcome.output, 'b.txt:2: aaa');
    assert.ok(cpuMsSince(started) < 2000, `${cpuMsSince(started)} CPU ms`);
  });

  test("a regex the linear-time engine cannot run is refused with the engine's reason", async () => {
    await put({ 'a.txt': 'abab\n' });
    const backreference = await call('search_text', { pattern: '/(ab)\\1/' });
    assert.equal(backreference.outcome.ok, false);
    assert.match(
      backreference.outcome.output,
      /^Unsupported regular expression \/\(ab\)\\1\/: error parsing regexp: invalid escape sequence: `\\1`\. .*no backreferences/,
    );
    const lookbehind = await call('search_text', { pattern: '/(?<=a)b/' });
    assert.match(lookbehind.outcome.output, /^Unsupported regular expression .*no lookarounds/);
    const glob = await call('list_files', { glob: 'x'.repeat(1001) });
    assert.match(glob.outcome.output, /^Unsupported glob "x+": the glob is longer than 1000 characters\.$/);
  });

  test('text that only looks like a path is searched as text', async () => {
    await put({ 'sh.txt': '#!/usr/bin/env node\n' });
    const { outcome } = await call('search_text', { pattern: '/usr/bin' });
    assert.equal(outcome.output, 'sh.txt:1: #!/usr/bin/env node');
  });

  test(`stops at ${searchMatchLimit} matches and cuts long lines around the match`, async () => {
    await put({ 'many.txt': 'hit\n'.repeat(250), 'long.txt': `${'a'.repeat(500)}HIT${'b'.repeat(500)}\n` });
    const many = await call('search_text', { pattern: 'hit' });
    const lines = many.outcome.output.split('\n');
    assert.equal(lines.length, searchMatchLimit + 1);
    assert.match(lines.at(-1)!, /^\(stopped at 100 matches; use a more specific pattern/);
    const long = await call('search_text', { pattern: 'HIT' });
    const shown = long.outcome.output.slice('long.txt:1: '.length);
    assert.ok(shown.includes('HIT'));
    assert.ok(shown.length <= 202, `${shown.length} chars`);
    assert.ok(shown.startsWith('…') && shown.endsWith('…'));
  });

  test('no match, an invalid regex and a bad folder come back as text', async () => {
    await put({ 'a.txt': 'x\n', 'b.txt': 'y\n' });
    assert.deepEqual((await call('search_text', { pattern: 'zzz' })).outcome, { ok: true, output: 'No matches for zzz in 2 files.' });
    const bad = await call('search_text', { pattern: '/(unclosed/' });
    assert.equal(bad.outcome.ok, false);
    assert.match(bad.outcome.output, /^Unsupported regular expression \/\(unclosed\/: .*missing closing \).*search for plain text without the slashes\.$/);
    assert.match((await call('search_text', { pattern: 'x', folder: 'nope' })).outcome.output, /^No folder at "nope"\./);
    assert.match((await call('search_text', { pattern: '' })).outcome.output, /^Invalid arguments for search_text: pattern: Too small/);
  });
});

describe('edit_file', () => {
  test('replaces the one occurrence, previews the change first, and reports the changed path', async () => {
    await put({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n' });
    const { prepared, outcome } = await call('edit_file', { path: 'src/a.ts', old_text: 'const b = 2;', new_text: 'const b = 3;' });
    assert.equal(prepared.summary, 'Edit src/a.ts');
    assert.deepEqual(prepared.preview, { path: 'src/a.ts', before: 'const a = 1;\nconst b = 2;\n', after: 'const a = 1;\nconst b = 3;\n' });
    assert.deepEqual(outcome, { ok: true, output: 'Wrote src/a.ts (2 lines).', changedPath: 'src/a.ts' });
    assert.equal(await onDisk('src/a.ts'), 'const a = 1;\nconst b = 3;\n');
  });

  test('nothing is written before execute (the approval step)', async () => {
    await put({ 'a.txt': 'old\n' });
    const tool = allTools.find((candidate) => candidate.name === 'edit_file')!;
    const prepared = await tool.prepare({ path: 'a.txt', old_text: 'old', new_text: 'new' }, ctx, signal);
    assert.equal(prepared.preview?.after, 'new\n');
    assert.equal(await onDisk('a.txt'), 'old\n');
  });

  test('$& and $1 in the new text are written literally', async () => {
    await put({ 'a.txt': 'price\n' });
    await call('edit_file', { path: 'a.txt', old_text: 'price', new_text: 'cost: $& $1 $$' });
    assert.equal(await onDisk('a.txt'), 'cost: $& $1 $$\n');
  });

  test('a CRLF file matches LF old_text and keeps its line ends', async () => {
    await put({ 'w.txt': 'a\r\nb\r\nc\r\n' });
    const { outcome } = await call('edit_file', { path: 'w.txt', old_text: 'a\nb', new_text: 'A\nB' });
    assert.equal(outcome.ok, true);
    assert.equal(await onDisk('w.txt'), 'A\r\nB\r\nc\r\n');
  });

  test('old_text that occurs several times: how many, where, and to add context', async () => {
    await put({ 'a.ts': 'x = 1;\ny = 2;\nx = 1;\nx = 1;\n' });
    const { prepared, outcome } = await call('edit_file', { path: 'a.ts', old_text: 'x = 1;', new_text: 'x = 9;' });
    assert.equal(outcome.ok, false);
    assert.equal(
      outcome.output,
      'old_text occurs 3 times in "a.ts" (at lines 1, 3, 4). Include more of the surrounding lines in old_text so that it matches exactly one place.',
    );
    assert.equal(prepared.refusal, outcome.output);
    assert.equal(await onDisk('a.ts'), 'x = 1;\ny = 2;\nx = 1;\nx = 1;\n');
  });

  // A block shifted as a whole lands (edit-matching.test.ts); one whose lines moved relative to each other is another block.
  test('old_text whose relative indentation differs says where it matches except for whitespace', async () => {
    await put({ 'a.py': 'if a:\n    b\n    c\n' });
    const { outcome } = await call('edit_file', { path: 'a.py', old_text: 'if a:\n    b\nc', new_text: 'if a:\n    b\nd' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.output, /^old_text was not found in "a\.py"\. It matches lines 1–3 except for whitespace or indentation\. Read the file again/);
  });

  test('old_text that is missing shows the most similar lines', async () => {
    await put({ 'a.ts': 'import x from "x";\n\nexport function computeTotal(items) {\n  return items.length;\n}\n' });
    const { outcome } = await call('edit_file', { path: 'a.ts', old_text: 'export function computeTotals(items) {', new_text: 'x' });
    assert.equal(outcome.ok, false);
    assert.match(
      outcome.output,
      /^old_text was not found in "a\.ts"\. The most similar lines in the file are:\n2: \n3: export function computeTotal\(items\) \{\n4: {3}return items\.length;\n/,
    );
  });

  // The old hint compared every wanted line at every file position: 3.7 s for 4,000 lines in a
  // 400,000-line file of near-repeats, 7 s for the 8,000 here. Now linear (KMP over lines).
  test('the whitespace hint on a big file and a long old_text that almost matches everywhere answers at once', async () => {
    await put({ 'big.txt': '  a\n'.repeat(400_000) });
    const oldText = `${'a\n'.repeat(8000)}b`;
    const started = cpuStart();
    const { outcome } = await call('edit_file', { path: 'big.txt', old_text: oldText, new_text: 'x' });
    assert.equal(outcome.output, 'old_text was not found in "big.txt". Read the file again (read_file) and copy the text exactly, including indentation.');
    const near = await call('edit_file', { path: 'big.txt', old_text: 'a\na\na', new_text: 'x' });
    assert.match(
      near.outcome.output,
      /^old_text does not occur exactly in "big\.txt", and with indentation ignored it matches more than 100 places \(at lines 1, 2, 3,/,
    );
    assert.ok(cpuMsSince(started) < 2000, `${cpuMsSince(started)} CPU ms`);
  });

  test('old_text that occurs very often is counted up to a bound', async () => {
    await put({ 'many.txt': 'x\n'.repeat(5000) });
    const { outcome } = await call('edit_file', { path: 'many.txt', old_text: 'x', new_text: 'y' });
    assert.match(outcome.output, /^old_text occurs more than 100 times in "many\.txt" \(at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …\)/);
  });

  test('old_text with nothing like it in the file just says it was not found', async () => {
    await put({ 'a.ts': 'const a = 1;\n' });
    const { outcome } = await call('edit_file', { path: 'a.ts', old_text: 'qqqq zzzz', new_text: 'x' });
    assert.equal(outcome.output, 'old_text was not found in "a.ts". Read the file again (read_file) and copy the text exactly, including indentation.');
  });

  test('the similar lines quoted are clipped: a minified line does not flood the model', async () => {
    await put({ 'dist/bundle.js': `/*! bundle v1 */\n${'var x=1;'.repeat(200_000)}\n` });
    const { outcome } = await call('edit_file', { path: 'dist/bundle.js', old_text: '/*! bundle v2 */', new_text: 'x' });
    // The length first: on failure, a message that quotes the whole output would flood the test log too.
    assert.ok(outcome.output.length < excerptChars + 300, `${outcome.output.length} characters`);
    assert.match(
      outcome.output,
      /^old_text was not found in "dist\/bundle\.js"\. The most similar lines in the file are:\n1: \/\*! bundle v1 \*\/\n2: (var x=1;)+…\n/,
    );
    const lines = Array.from({ length: 12 }, (_, i) => `const value${i} = "${'y'.repeat(1000)}";`).join('\n');
    await put({ 'wide.ts': `${lines}\n` });
    const wanted = [`const value3 = "${'y'.repeat(1000)}";`, ...Array.from({ length: 8 }, (_, i) => `other${i}`)].join('\n');
    const wide = await call('edit_file', { path: 'wide.ts', old_text: wanted, new_text: 'x' });
    assert.ok(wide.outcome.output.length < excerptChars + 300, `${wide.outcome.output.length} characters`);
    assert.match(wide.outcome.output, /^3: const value2 = "y+…$/m);
    assert.match(wide.outcome.output, /^\(1 more line not shown\)$/m);
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['a missing file', { path: 'nope.ts', old_text: 'a', new_text: 'b' }, 'No file at "nope.ts". To create it, use write_file.'],
    ['an empty old_text', { path: 'a.ts', old_text: '', new_text: 'b' }, 'old_text is empty. To create a file or replace its whole content, use write_file.'],
    ['the same old and new text', { path: 'a.ts', old_text: 'a', new_text: 'a' }, 'old_text and new_text are the same: there is nothing to change.'],
    ['a folder', { path: 'dir', old_text: 'a', new_text: 'b' }, '"dir" is a folder, not a file.'],
    ['a binary file', { path: 'bin.dat', old_text: 'a', new_text: 'b' }, '"bin.dat" is a binary file; the agent only changes text files.'],
    [
      'a file that is not UTF-8',
      { path: 'latin1.txt', old_text: 'caf', new_text: 'b' },
      '"latin1.txt" is not valid UTF-8 text; the agent only changes UTF-8 files.',
    ],
  ];
  for (const [name, args, message] of refusals) {
    test(`refused: ${name}`, async () => {
      await put({ 'a.ts': 'a\n', 'dir/x': '', 'bin.dat': Buffer.from([97, 0, 1]), 'latin1.txt': Buffer.from('café\n', 'latin1') });
      const { prepared, outcome } = await call('edit_file', args);
      assert.deepEqual(outcome, { ok: false, output: message });
      assert.equal(prepared.refusal, message);
    });
  }

  test('a file changed between preview and approval is not overwritten', async () => {
    await put({ 'a.txt': 'one\n' });
    const tool = allTools.find((candidate) => candidate.name === 'edit_file')!;
    const prepared = await tool.prepare({ path: 'a.txt', old_text: 'one', new_text: 'two' }, ctx, signal);
    await writeFile(join(root, 'a.txt'), 'one\nsomeone else was here\n');
    const outcome = await prepared.execute(signal);
    assert.equal(outcome.ok, false);
    assert.match(outcome.output, /^"a\.txt" changed after this change was proposed, so it was not applied\. Read the file again/);
    assert.equal(await onDisk('a.txt'), 'one\nsomeone else was here\n');
  });

  test('arguments as the JSON text the model sent, and JSON that is not', async () => {
    await put({ 'a.txt': 'one\n' });
    const { outcome } = await call('edit_file', JSON.stringify({ path: 'a.txt', old_text: 'one', new_text: 'two' }));
    assert.equal(outcome.ok, true);
    const broken = await call('edit_file', '{"path": "a.txt", "old_text": ');
    assert.equal(broken.prepared.summary, 'edit_file (invalid arguments)');
    assert.match(
      broken.outcome.output,
      /^Invalid arguments for edit_file: not valid JSON \((Unexpected end of JSON input|.*position 31.*)\)\. Send one JSON object with the parameters the tool describes, with the quotes, backslashes and line breaks inside strings escaped\.$/,
    );
  });
});

describe('write_file', () => {
  test('creates a file and its folders, with a preview that has no "before"', async () => {
    const { prepared, outcome } = await call('write_file', { path: 'new/dir/file.ts', content: 'export {};\n' });
    assert.equal(prepared.summary, 'Write new/dir/file.ts');
    assert.deepEqual(prepared.preview, { path: 'new/dir/file.ts', before: undefined, after: 'export {};\n' });
    assert.deepEqual(outcome, { ok: true, output: 'Created new/dir/file.ts (1 line).', changedPath: 'new/dir/file.ts' });
    assert.equal(await onDisk('new/dir/file.ts'), 'export {};\n');
  });

  test('overwrites an existing file, previewing the old content', async () => {
    await put({ 'a.txt': 'old\n' });
    const { prepared, outcome } = await call('write_file', { path: 'a.txt', content: 'new\nlines\n' });
    assert.equal(prepared.preview?.before, 'old\n');
    assert.deepEqual(outcome, { ok: true, output: 'Wrote a.txt (2 lines).', changedPath: 'a.txt' });
    assert.equal(await onDisk('a.txt'), 'new\nlines\n');
  });

  test('refused: a folder, the root, the same content, a missing content', async () => {
    await put({ 'dir/x': '', 'same.txt': 'same' });
    assert.deepEqual((await call('write_file', { path: 'dir', content: 'x' })).outcome, { ok: false, output: '"dir" is a folder, not a file.' });
    assert.match((await call('write_file', { path: '.', content: 'x' })).outcome.output, /names the workspace folder itself/);
    assert.match((await call('write_file', { path: 'same.txt', content: 'same' })).outcome.output, /already has exactly this content/);
    assert.match(
      (await call('write_file', { path: 'a.txt' })).outcome.output,
      /^Invalid arguments for write_file: content: Invalid input: expected string, received undefined\./,
    );
  });

  test('a file created by someone else after the preview is not overwritten', async () => {
    const tool = allTools.find((candidate) => candidate.name === 'write_file')!;
    const prepared = await tool.prepare({ path: 'race.txt', content: 'mine\n' }, ctx, signal);
    await writeFile(join(root, 'race.txt'), 'theirs\n');
    const outcome = await prepared.execute(signal);
    assert.match(outcome.output, /^"race\.txt" was created after this change was proposed/);
    assert.equal(await onDisk('race.txt'), 'theirs\n');
  });

  test('an aborted write reports that it stopped instead of throwing', async () => {
    const tool = allTools.find((candidate) => candidate.name === 'write_file')!;
    const prepared = await tool.prepare({ path: 'x.txt', content: 'x' }, ctx, signal);
    const controller = new AbortController();
    controller.abort();
    const outcome = await prepared.execute(controller.signal);
    assert.deepEqual(outcome, { ok: false, output: 'Stopped: the user cancelled this call before it finished.' });
  });
});
