// The language-service tools and the problems a write introduces, on a real temp folder through the Node
// ports, with language services in memory (the real ones need VS Code: test/e2e/suite/agentLanguage.test.ts)
// and virtual time for the waits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../../src/tools/common/registry';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';
import type { Problem } from '../../../src/tools/common/languageServices';
import {
  NEW_PROBLEMS_LIMIT,
  PROBLEMS_MAX_WAIT_MS,
  newProblems,
  newProblemsNote,
  problemsSettled,
  reportingNewProblems,
} from '../../../src/tools/common/newProblems';
import { PROBLEMS_LIMIT } from '../../../src/tools/common/getProblems';
import { VirtualClock } from '../helpers/clock';
import { MemoryLanguageServices, problem } from '../helpers/memoryLanguages';

const signal = new AbortController().signal;

let root: string;
let clock: VirtualClock;
let languages: MemoryLanguageServices;
let ctx: ToolContext;

async function put(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** The checker of these tests: each line `… ERROR: message` (or `WARN:`) of a file is a problem there. */
async function checkFile(path: string): Promise<Problem[]> {
  // Held: virtual time stands still while the real file is read, as a checker's time is its own.
  const text = await clock.hold(readFile(join(root, path), 'utf8').catch(() => ''));
  return text.split('\n').flatMap((line, index) => {
    const found = /(ERROR|WARN): (.*)/.exec(line);
    return found ? [problem(path, index + 1, found[2], found[1] === 'ERROR' ? 'error' : 'warning')] : [];
  });
}

/** A tool call as the tool round makes it: prepared, wrapped to report new problems, run. */
async function call(name: string, args: unknown) {
  const tool = allTools.find((candidate) => candidate.name === name)!;
  const prepared = await reportingNewProblems(await tool.prepare(args, ctx, signal), ctx, signal);
  return { prepared, outcome: await prepared.execute(signal) };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tools-language-')));
  clock = new VirtualClock();
  languages = new MemoryLanguageServices({ clock, check: checkFile });
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
    clock,
    languages,
  };
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the problems a write introduces', () => {
  test('an edit lists the errors that are new in the file, not those it already had', async () => {
    await put({ 'src/a.ts': 'let a = 1; // ERROR: old trouble\nlet b = 2;\n' });
    const { outcome } = await call('edit_file', { path: 'src/a.ts', old_text: 'let b = 2;', new_text: 'let b = 2; // ERROR: Type string is not number' });
    assert.equal(outcome.ok, true);
    assert.equal(
      outcome.output,
      'Wrote src/a.ts (2 lines).\n\nVS Code now reports 1 new error in src/a.ts:\nsrc/a.ts:2:1: error TS2322 Type string is not number',
    );
    assert.ok(languages.tracked.has('src/a.ts'), 'the file was opened for checking');
  });

  test('an edit that fixes errors says no new problems and how many are gone; the UI gets the note apart', async () => {
    await put({ 'src/a.ts': 'let a = 1; // ERROR: Type string is not number\nlet b = 2; // ERROR: other\nlet c = 3; // ERROR: third\n' });
    const { outcome } = await call('edit_file', { path: 'src/a.ts', old_text: 'let a = 1; // ERROR: Type string is not number', new_text: 'let a = 1;' });
    const note = '\n\nVS Code reports no new problems in src/a.ts; 1 error it reported before is gone, 2 remain.';
    assert.deepEqual(outcome, { ok: true, output: `Wrote src/a.ts (3 lines).${note}`, changedPath: 'src/a.ts', problemsNote: note.trim() });
    const { outcome: last } = await call('write_file', { path: 'src/a.ts', content: 'let a = 1;\n' });
    assert.equal(last.output, 'Wrote src/a.ts (1 line).\n\nVS Code reports no new problems in src/a.ts; 2 errors it reported before are gone.');
    const { outcome: broken } = await call('write_file', { path: 'src/a.ts', content: 'let a = 1; // ERROR: e\n' });
    assert.equal(broken.problemsNote, 'VS Code now reports 1 new error in src/a.ts:\nsrc/a.ts:1:1: error TS2322 e');
  });

  test('the file is opened for checking before the call is handed on for approval, so its tab cannot cover the approval diff', async () => {
    await put({ 'src/a.ts': 'let b = 2;\n' });
    const tool = allTools.find((candidate) => candidate.name === 'edit_file')!;
    const prepared = await reportingNewProblems(
      await tool.prepare({ path: 'src/a.ts', old_text: 'let b = 2;', new_text: 'let b = 3;' }, ctx, signal),
      ctx,
      signal,
    );
    assert.ok(languages.opened.has('src/a.ts'), 'its tab is open before the approval is asked');
    assert.equal(await readFile(join(root, 'src/a.ts'), 'utf8'), 'let b = 2;\n', 'nothing written before execute');
    assert.equal((await prepared.execute(signal)).ok, true);
  });

  test('the same problem moved to another line is not new; a second one like it is', async () => {
    const old = problem('a.ts', 1, 'x is unused', 'warning');
    assert.deepEqual(newProblems([old], [{ ...old, line: 5 }]), []);
    assert.deepEqual(
      newProblems(
        [old],
        [
          { ...old, line: 5 },
          { ...old, line: 9 },
        ],
      ),
      [{ ...old, line: 9 }],
    );
  });

  test('a new file is checked after the write only, and its errors are new', async () => {
    const { outcome } = await call('write_file', { path: 'b.ts', content: 'ok\nbad // ERROR: Cannot find name bad\n' });
    assert.match(outcome.output, /^Created b\.ts \(2 lines\)\.\n\nVS Code now reports 1 new error in b\.ts:\nb\.ts:2:1: error TS2322 Cannot find name bad$/);
  });

  test('a write that adds no problem answers as before, after a bounded wait', async () => {
    await put({ 'a.ts': 'let a = 1;\n' });
    const started = clock.now();
    const { outcome } = await call('write_file', { path: 'a.ts', content: 'let a = 2;\n' });
    assert.deepEqual(outcome, { ok: true, output: 'Wrote a.ts (1 line).', changedPath: 'a.ts' });
    // Nothing changes, so nothing settles: once before the write (the file was not checked yet) and once after.
    assert.ok(clock.now() - started <= 2 * PROBLEMS_MAX_WAIT_MS, `${clock.now() - started} ms`);
  });

  test('a file already checked is not waited for before the write', async () => {
    await put({ 'a.ts': 'let a = 1;\n' });
    await languages.track('a.ts');
    const started = clock.now();
    const { outcome } = await call('write_file', { path: 'a.ts', content: 'let a = 1; // ERROR: bad\n' });
    assert.match(outcome.output, /1 new error/);
    // Settled 300 ms after the problems came (the check takes 500 ms): well under the bound.
    assert.ok(clock.now() - started < PROBLEMS_MAX_WAIT_MS, `${clock.now() - started} ms`);
  });

  test('new warnings are listed when few, counted when many; errors are bounded', () => {
    const few = newProblemsNote('a.ts', [problem('a.ts', 2, 'w', 'warning'), problem('a.ts', 1, 'e')]);
    assert.equal(few, '\n\nVS Code now reports 1 new error and 1 new warning in a.ts:\na.ts:1:1: error TS2322 e\na.ts:2:1: warning TS2322 w');
    const manyWarnings = Array.from({ length: 4 }, (_, i) => problem('a.ts', i + 1, `w${i}`, 'warning'));
    assert.equal(
      newProblemsNote('a.ts', manyWarnings),
      '\n\nVS Code now reports 4 new warnings in a.ts:\n\n(the warnings are not listed: get_problems shows them)',
    );
    const manyErrors = Array.from({ length: 30 }, (_, i) => problem('a.ts', i + 1, `e${i} ${'x'.repeat(1000)}`));
    const note = newProblemsNote('a.ts', manyErrors);
    assert.ok(note.length < 3_200, `${note.length} characters`);
    assert.match(note, /\(\d+ more problems not shown\)$/);
    assert.ok(note.split('\n').filter((line) => line.startsWith('a.ts:')).length <= NEW_PROBLEMS_LIMIT);
    assert.ok(
      note.split('\n').every((line) => line.length <= 400),
      'each problem cut',
    );
    assert.equal(newProblemsNote('a.ts', [problem('a.ts', 1, 'i', 'information')]), '');
  });

  test('a refused write and a host without language services answer as before', async () => {
    const { outcome } = await call('edit_file', { path: 'missing.ts', old_text: 'a', new_text: 'b' });
    assert.deepEqual(outcome, { ok: false, output: 'No file at "missing.ts". To create it, use write_file.' });
    const plain = { ...ctx, languages: undefined };
    const prepared = await allTools.find((tool) => tool.name === 'write_file')!.prepare({ path: 'c.ts', content: 'x' }, plain, signal);
    assert.equal(await reportingNewProblems(prepared, plain, signal), prepared);
  });

  test('a stop while the problems settle keeps the write and its answer', async () => {
    await put({ 'a.ts': 'let a = 1;\n' });
    await languages.track('a.ts');
    const stop = new AbortController();
    // Stopped at the first wait after the write.
    clock.onSleep = () => {
      if (readFileSync(join(root, 'a.ts'), 'utf8') !== 'let a = 1;\n') stop.abort();
    };
    const tool = allTools.find((candidate) => candidate.name === 'write_file')!;
    const prepared = await reportingNewProblems(await tool.prepare({ path: 'a.ts', content: 'x // ERROR: e\n' }, ctx, signal), ctx, stop.signal);
    assert.deepEqual(await prepared.execute(stop.signal), { ok: true, output: 'Wrote a.ts (1 line).', changedPath: 'a.ts' });
    assert.equal(await readFile(join(root, 'a.ts'), 'utf8'), 'x // ERROR: e\n');
  });
});

describe('problemsSettled', () => {
  const settleAfter = async (changesAt: number[]) => {
    const started = clock.now();
    for (const at of changesAt) clock.after(at, () => languages.set('a.ts', [problem('a.ts', 1, `at ${at}`)]), signal);
    await problemsSettled(languages, 'a.ts', clock, signal);
    return clock.now() - started;
  };

  test('a whole quiet 300 ms after the last change', async () => {
    assert.equal(await settleAfter([100, 500]), 900);
  });

  test('no change: the bound', async () => {
    assert.equal(await settleAfter([]), PROBLEMS_MAX_WAIT_MS);
  });

  test('changes that never stop: the bound', async () => {
    assert.equal(await settleAfter(Array.from({ length: 20 }, (_, i) => 150 * (i + 1))), PROBLEMS_MAX_WAIT_MS);
  });

  test('another file changing does not count', async () => {
    clock.after(100, () => languages.set('b.ts', [problem('b.ts', 1, 'x')]), signal);
    assert.equal(await settleAfter([]), PROBLEMS_MAX_WAIT_MS);
  });

  test('a stop ends the wait at once', async () => {
    const stop = new AbortController();
    stop.abort();
    const started = clock.now();
    await problemsSettled(languages, 'a.ts', clock, stop.signal);
    assert.equal(clock.now(), started);
  });
});

describe('get_problems', () => {
  beforeEach(() => put({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'lib/c.ts': 'c\n', '.env': 'SECRET=1\n' }));

  test('most severe first, then by path and line, with counts; paths relative to the workspace', async () => {
    languages.set('src/b.ts', [problem('src/b.ts', 3, 'b warns', 'warning'), problem('src/b.ts', 2, 'b fails')]);
    languages.set('src/a.ts', [problem('src/a.ts', 7, 'a hints', 'hint'), problem('src/a.ts', 9, 'a fails')]);
    const { prepared, outcome } = await call('get_problems', {});
    assert.equal(prepared.summary, 'Get the problems of the workspace');
    assert.equal(
      outcome.output,
      [
        '2 errors, 1 warning, 1 hint in the workspace:',
        'src/a.ts:9:1: error TS2322 a fails',
        'src/b.ts:2:1: error TS2322 b fails',
        'src/b.ts:3:1: warning TS2322 b warns',
        'src/a.ts:7:1: hint TS2322 a hints',
      ].join('\n'),
    );
  });

  test('a folder: only its files; a protected file never', async () => {
    languages.set('src/a.ts', [problem('src/a.ts', 1, 'in src')]);
    languages.set('lib/c.ts', [problem('lib/c.ts', 1, 'in lib')]);
    languages.set('.env', [problem('.env', 1, 'SECRET=1 is odd')]);
    assert.equal((await call('get_problems', { path: 'lib' })).outcome.output, '1 error in lib:\nlib/c.ts:1:1: error TS2322 in lib');
    assert.doesNotMatch((await call('get_problems', {})).outcome.output, /SECRET/);
    assert.match((await call('get_problems', { path: '.env' })).outcome.output, /^Refused: ".env" is a protected file/);
  });

  test('a file is opened for checking and its problems read once they settle', async () => {
    await put({ 'src/a.ts': 'x // ERROR: Cannot find name x\n' });
    const { outcome } = await call('get_problems', { path: 'src/a.ts' });
    assert.equal(outcome.output, '1 error in src/a.ts:\nsrc/a.ts:1:1: error TS2322 Cannot find name x');
    assert.equal((await call('get_problems', { path: 'src/b.ts' })).outcome.output, 'No problems reported in src/b.ts.');
  });

  test('paths outside the workspace are refused like every tool refuses them', async () => {
    for (const path of ['../x.ts', '/etc/passwd', '~/.ssh/id_rsa']) {
      const { prepared, outcome } = await call('get_problems', { path });
      assert.match(prepared.refusal ?? '', /^Refused: /, path);
      assert.equal(outcome.ok, false);
    }
    assert.match((await call('get_problems', { path: 'nope' })).outcome.output, /^No file or folder at "nope"/);
  });

  test('bounded in count and characters', async () => {
    languages.set(
      'src/a.ts',
      Array.from({ length: 500 }, (_, i) => problem('src/a.ts', i + 1, `problem ${i} ${'y'.repeat(300)}`)),
    );
    const output = (await call('get_problems', {})).outcome.output;
    assert.ok(output.length <= 8_200, `${output.length} characters`);
    assert.ok(output.split('\n').length <= PROBLEMS_LIMIT + 2);
    assert.match(output, /^500 errors in the workspace:/);
    assert.match(output, /\(\d+ more problems not shown\)$/);
  });

  test('without language services every language tool says so', async () => {
    ctx = { ...ctx, languages: undefined };
    for (const [name, args] of Object.entries({
      get_problems: {},
    })) {
      assert.match((await call(name, args)).prepared.refusal ?? '', /^This host has no language services/, name);
    }
    for (const args of [
      { action: 'definition', path: 'src/a.ts', line: 1, symbol: 'a' },
      { action: 'references', path: 'src/a.ts', line: 1, symbol: 'a' },
      { action: 'outline', path: 'src/a.ts' },
      { action: 'symbols', symbol: 'a' },
    ]) {
      assert.match((await call('code_navigation', args)).prepared.refusal ?? '', /^This host has no language services/, args.action);
    }
  });
});
