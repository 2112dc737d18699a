// The task runners' table and task files (src/terminal/node/taskRunners.ts, taskFileSections.ts), the rule for a program
// the table does not know (unknownRunners.ts), and both as the review follows them (hookPrograms.ts) on real files.
// The attacks these close, run in the real sandbox: test/security/attack19a-task-runner-files.test.ts and
// attack19a-hook-approval-runners.test.ts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { followPrograms, mentionedBy, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { hookSettingsOf } from '../../../src/terminal/node/packageHooks';
import { pyprojectTaskSections, setupCfgToxSections } from '../../../src/terminal/node/taskFileSections';
import { runnerFilesAt, taskFileText } from '../../../src/terminal/node/taskRunners';
import { programKey, programKeys, unknownPrograms } from '../../../src/terminal/node/unknownRunners';

let root: string;
before(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'task-runners-')));
});
after(() => rm(root, { recursive: true, force: true }));

async function reachedBy(folder: string, files: Record<string, string>, line: string): Promise<{ paths: Set<string>; names: Set<string> }> {
  const top = join(root, folder);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(top, path)), { recursive: true });
    await writeFile(join(top, path), text);
  }
  const mentioned = noneMentioned();
  mentioned.tops.add(top);
  mentionedBy(line, mentioned, [top]);
  const paths = new Set<string>();
  await followPrograms({ root, mentioned, add: (path) => paths.add(relative(top, path)), readable: () => true });
  return { paths, names: mentioned.names };
}

describe('the task runners and their task files', () => {
  test('a runner by its file name, and cargo make as cargo-make', () => {
    assert.ok(runnerFilesAt(['deno', 'task', 'check'], 0)?.files.includes('deno.json'));
    assert.ok(runnerFilesAt(['./gradlew', 'check'], 0)?.files.includes('build.gradle'));
    assert.ok(runnerFilesAt(['cargo', 'make', 'check'], 0)?.files.includes('Makefile.toml'));
    assert.equal(runnerFilesAt(['cargo', 'test'], 0), undefined);
    assert.equal(runnerFilesAt(['lint'], 0), undefined);
  });

  test("the task files' tasks as command lines: deno.json, composer.json (callbacks name their class file), devbox.json", () => {
    assert.equal(taskFileText('deno.json', '{"tasks":{"a":"deno lint","b":{"command":"sh tools/b.sh"}},"x":"y.sh"}'), 'deno lint\nsh tools/b.sh');
    assert.equal(
      taskFileText('composer.json', '{"scripts":{"a":"@php bin/check","b":["@composer x","App\\\\Scripts\\\\Lint::run"]},"autoload":{}}'),
      'php bin/check\ncomposer x\nLint.php',
    );
    assert.equal(taskFileText('devbox.json', '{"packages":["a@1"],"shell":{"init_hook":["./setup.sh"],"scripts":{"t":"go test"}}}'), './setup.sh\ngo test');
    // Not JSON: read whole.
    assert.equal(taskFileText('deno.json', '{ tasks: x'), '{ tasks: x');
    assert.equal(taskFileText('Makefile.toml', '[tasks.a]\nscript = "x"'), '[tasks.a]\nscript = "x"');
  });

  test("pyproject.toml: the runners' tables only, a [x] line inside a string or array no header, module:function as a module", () => {
    const text = [
      'readme = "README.md"',
      '[project]',
      'readme = "docs/README.md"',
      '[tool.pdm.scripts]',
      'lint = {shell = """',
      '[project]',
      './evil.sh',
      '"""}',
      'fmt = [',
      '["nested"],',
      ']',
      'call = {call = "tools.check:main"}',
      '[tool.ruff]',
      'exclude = ["build/x.py"]',
      '[tool."poe".tasks]',
      'x = "sh scripts/poe.sh"',
    ].join('\n');
    const sections = pyprojectTaskSections(text);
    for (const kept of ['./evil.sh', '["nested"]', 'python -m tools.check', 'sh scripts/poe.sh', 'readme = "README.md"'])
      assert.ok(sections.includes(kept), kept);
    for (const dropped of ['docs/README.md', 'build/x.py']) assert.ok(!sections.includes(dropped), dropped);
    assert.equal(setupCfgToxSections('[metadata]\nname = x\n[testenv:lint]\ncommands =\n  sh t.sh\n[flake8]\nx = 1'), '[testenv:lint]\ncommands =\n  sh t.sh');
  });

  test('a hook running a runner reaches its task file and what its tasks run', async () => {
    const { paths, names } = await reachedBy(
      'deno',
      { 'deno.json': '{"tasks":{"check":"sh tools/check.sh"}}', 'tools/check.sh': 'echo ok\n', 'README.md': 'x' },
      'deno task check',
    );
    for (const path of ['deno.json', 'tools/check.sh', 'package.json']) assert.ok(paths.has(path), path);
    assert.ok(names.has('deno.json'));
    const pdm = await reachedBy(
      'pdm',
      { 'pyproject.toml': '[project]\nreadme = "README.md"\n[tool.pdm.scripts]\nlint = "sh run-lint.sh"\n', 'run-lint.sh': 'x' },
      'pdm run lint',
    );
    assert.ok(pdm.paths.has('pyproject.toml') && pdm.paths.has('run-lint.sh'));
    assert.ok(!pdm.names.has('readme.md'), "pyproject.toml's other tables are not followed");
  });
});

describe('a program the table does not know', () => {
  test('the programs a text runs: after assignments, wrappers and package runners; plain commands and code are none', () => {
    assert.deepEqual(unknownPrograms('set -e\nX=1 exec ./node_modules/.bin/eslint .\nnpx prettier --check . && git diff | grep x'), ['eslint', 'prettier']);
    assert.deepEqual(unknownPrograms('pre-commit:\n  commands:\n    lint:\n      run: golangci-lint run'), ['golangci-lint']);
    assert.deepEqual(unknownPrograms('make lint; npm test; deno task x; echo ok'), []);
    assert.deepEqual(unknownPrograms('#!/usr/bin/env node\nfoo(1)'), []);
  });

  test("a wrapper's or runner's operand is not the program (attack20a-wrapper-operands)", () => {
    for (const line of [
      'timeout 60 eslint .',
      'timeout -k 5 60 eslint .',
      'nice -n 10 eslint .',
      "find . -name '*.js' -exec eslint {} +",
      'xargs -n 1 eslint < files.txt',
      'pnpm -C tools exec eslint .',
      'npx --prefix tools eslint .',
      'npx eslint@9 .',
      'pnpm dlx eslint@latest .',
      'npx @scope/eslint@1 .',
      'env -u CI eslint .',
      'if ! eslint .; then exit 1; fi',
    ])
      assert.deepEqual(unknownPrograms(line), ['eslint'], line);
    assert.deepEqual(unknownPrograms('npx -p danger@11 eslint .'), ['danger', 'eslint']);
  });

  test("a file answers to the program it is named after: a leading dot, an rc or file suffix, the program's first part", () => {
    const keys = programKeys('golangci-lint');
    for (const name of ['.golangci.yml', 'golangcilintrc']) assert.ok(keys.includes(programKey(name)), name);
    for (const name of ['.eslintrc.cjs', 'eslint.config.mjs']) assert.ok(programKeys('eslint').includes(programKey(name)), name);
    assert.ok(programKeys('grunt').includes(programKey('Gruntfile.js')));
    assert.ok(!programKeys('eslint').includes(programKey('README.md')));
  });

  test("a hook running an unknown program reaches its own files at the top of where it runs, not the folder's other files", async () => {
    const { paths } = await reachedBy(
      'unknown',
      {
        'eslint.config.mjs': "import rules from './lint/rules.js';\n",
        '.prettierrc.cjs': 'x',
        'README.md': 'x',
        'package.json': '{}',
        'sub/eslint.config.js': 'x',
      },
      'npx eslint . && prettier --check .',
    );
    for (const path of ['eslint.config.mjs', '.prettierrc.cjs', 'lint/rules.js']) assert.ok(paths.has(path), path);
    for (const path of ['README.md', 'sub/eslint.config.js']) assert.ok(!paths.has(path), path);
  });
});

describe("the pre-commit package's settings", () => {
  const withLint = (setting: unknown, lint: string) => hookSettingsOf(JSON.stringify({ scripts: { lint, other: 'x' }, 'pre-commit': setting }));
  test('the object form `{ run: [...] }` and `{ run: "a, b" }` compare the scripts it names', () => {
    for (const setting of [{ run: ['lint'] }, { run: 'test, lint' }, ['lint'], 'lint']) {
      assert.notEqual(withLint(setting, 'eslint .'), withLint(setting, 'evil'), JSON.stringify(setting));
    }
  });
  test('an object whose run is neither a string nor a list compares every script', () => {
    assert.notEqual(withLint({ run: { a: 1 } }, 'eslint .'), withLint({ run: { a: 1 } }, 'evil'));
  });
});
