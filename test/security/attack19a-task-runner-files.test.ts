// Attack (round 19a): a Git hook that runs a project's task through a task runner the review does not know.
//
// The review follows a hook's `make`, `just`, `task` and `rake` to the Makefile, justfile, Taskfile or Rakefile, and
// `npm`/`yarn`/`pnpm`/`bun` to package.json's scripts (hookPrograms.ts TOOL_FILES, PACKAGE_RUNNERS), because those
// programs run what their task file says. The other task runners of the same kind are not on the list, so the task file
// is an ordinary file to the review, lands when a sandboxed command rewrites it, and the next `git commit` runs the new
// task outside the sandbox with the user's rights:
// - `deno task check` runs deno.json's (or deno.jsonc's) `tasks.check` through deno's shell;
// - `composer run-script lint` (also `composer lint`) runs composer.json's `scripts.lint`;
// - `pdm run lint` runs pyproject.toml's `[tool.pdm.scripts] lint` (a `cmd` or `shell` string);
// - `hatch run lint` runs `[tool.hatch.envs.default.scripts] lint` of pyproject.toml or hatch.toml;
// - `poe lint` (poethepoet) runs `[tool.poe.tasks] lint`;
// - `tox -e lint` runs tox.ini's `[testenv:lint] commands`; `cargo make check` runs Makefile.toml's `[tasks.check]`
//   (cargo-make: `script` or `command`); `gulp lint` runs gulpfile.js's `lint` export; `invoke lint` tasks.py's `lint`
//   (the last two are code, as a Makefile's recipes are, and found by the same rule: the runner's own file name).
// Each runner's task file is at the workspace's top; deno.json and composer.json are JSON, pyproject.toml and
// hatch.toml TOML, read here by the real parsers (JSON.parse, python3's tomllib) to show the task that runs. None
// names an agent's words, so the shape rule (agentConfigs.ts) does not hold them either.
// Control (passes on the current code): the same hook with `npm run lint` and package.json's scripts, held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const MARK = 'PWNED-19A';

/** [runner line in the hook, task file, its text, the rewritten text, how the real parser reads the task, control] */
const CASES: [string, string, string, string, (text: string) => string, boolean][] = [
  [
    'deno task check',
    'deno.json',
    '{\n  "tasks": { "check": "deno lint" }\n}\n',
    `{\n  "tasks": { "check": "deno lint; echo ${MARK}" }\n}\n`,
    (text) => (JSON.parse(text) as { tasks: Record<string, string> }).tasks.check,
    false,
  ],
  [
    'composer run-script lint',
    'composer.json',
    '{\n  "name": "a/b",\n  "scripts": { "lint": "phpcs src" }\n}\n',
    `{\n  "name": "a/b",\n  "scripts": { "lint": "phpcs src; echo ${MARK}" }\n}\n`,
    (text) => (JSON.parse(text) as { scripts: Record<string, string> }).scripts.lint,
    false,
  ],
  [
    'pdm run lint',
    'pyproject.toml',
    '[project]\nname = "x"\n\n[tool.pdm.scripts]\nlint = "ruff check ."\n',
    `[project]\nname = "x"\n\n[tool.pdm.scripts]\nlint = {shell = "ruff check .; echo ${MARK}"}\n`,
    (text) => toml(text, `d["tool"]["pdm"]["scripts"]["lint"]`),
    false,
  ],
  [
    'hatch run lint',
    'hatch.toml',
    '[envs.default.scripts]\nlint = "ruff check ."\n',
    `[envs.default.scripts]\nlint = "ruff check . && echo ${MARK}"\n`,
    (text) => toml(text, `d["envs"]["default"]["scripts"]["lint"]`),
    false,
  ],
  [
    'poe lint',
    'pyproject.toml',
    '[project]\nname = "x"\n\n[tool.poe.tasks]\nlint = "ruff check ."\n',
    `[project]\nname = "x"\n\n[tool.poe.tasks.lint]\nshell = "ruff check .; echo ${MARK}"\n`,
    (text) => toml(text, `d["tool"]["poe"]["tasks"]["lint"]`),
    false,
  ],
  [
    'tox -e lint',
    'tox.ini',
    '[tox]\nenvlist = lint\n\n[testenv:lint]\ncommands = ruff check .\n',
    `[tox]\nenvlist = lint\n\n[testenv:lint]\nallowlist_externals = sh\ncommands = sh -c "echo ${MARK}"\n`,
    (text) =>
      execFileSync(
        'python3',
        ['-c', 'import sys, configparser; c = configparser.ConfigParser(); c.read_string(sys.stdin.read()); print(c["testenv:lint"]["commands"])'],
        {
          input: text,
        },
      ).toString(),
    false,
  ],
  [
    'cargo make check',
    'Makefile.toml',
    '[tasks.check]\ncommand = "cargo"\nargs = ["clippy"]\n',
    `[tasks.check]\nscript = "echo ${MARK}"\n`,
    (text) => toml(text, `d["tasks"]["check"]`),
    false,
  ],
  [
    'npx gulp lint',
    'gulpfile.js',
    'exports.lint = async () => {};\n',
    `exports.lint = async () => { require('child_process').execSync('echo ${MARK}'); };\n`,
    (text) => text,
    false,
  ],
  [
    'invoke lint',
    'tasks.py',
    'from invoke import task\n\n@task\ndef lint(c):\n    c.run("ruff check .")\n',
    `from invoke import task\n\n@task\ndef lint(c):\n    c.run("echo ${MARK}")\n`,
    (text) => text,
    false,
  ],
  [
    'npm run lint',
    'package.json',
    '{\n  "name": "x",\n  "scripts": { "lint": "eslint ." }\n}\n',
    `{\n  "name": "x",\n  "scripts": { "lint": "eslint .; echo ${MARK}" }\n}\n`,
    (text) => (JSON.parse(text) as { scripts: Record<string, string> }).scripts.lint,
    true,
  ],
];

function toml(text: string, expression: string): string {
  return execFileSync('python3', ['-c', `import sys, json, tomllib; d = tomllib.loads(sys.stdin.read()); print(json.dumps(${expression}))`], {
    input: text,
  }).toString();
}

describe('attack: a Git hook runs a task through a task runner whose task file the review does not follow', async () => {
  if (!(await sandboxHere())) return;

  for (const [line, file, original, rewritten, task, control] of CASES) {
    describe(`${control ? 'control: ' : ''}.git/hooks/pre-commit runs \`${line}\``, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/sh\nset -e\n${line}\n`);
        await chmod(hook, 0o755);
        await writeFile(join(fixture.root, file), original);
      });
      after(async () => fixture.remove());

      test(`a rewritten ${file} (the task the hook runs) is held${control ? '' : ' (fails on the current code)'}`, async () => {
        assert.match(task(rewritten), new RegExp(MARK), `the runner reads the new task from ${file}`);
        const result = await fixture.run(`cat > ${file} <<'EOF_19A'\n${rewritten}EOF_19A`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, file), 'utf8');
        assert.ok(
          !now.includes(MARK),
          `ESCAPED: ${file}, whose task the pre-commit hook's \`${line}\` runs at the next commit, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
