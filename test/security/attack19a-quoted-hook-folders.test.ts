// Attack (round 19a): a Git hook whose folder for make or npm is quoted (`make -C "tools"`, `npm --prefix "tools"`,
// `cd "tools" && npm run lint`) or follows an option of cd (`cd -P tools`, `cd -- tools`).
//
// The review reads the folders a hook's `cd`, `pushd`, `make -C` and `npm --prefix` lead to, so that what make and npm
// read there (tools/Makefile's recipes, tools/package.json's scripts) and what those run is held (README: "the folders a
// `cd`, `pushd`, `make -C`, `$(MAKE) -C` or `npm --prefix` leads to"). hookPrograms.ts finds those folders with
// `(?:cd|pushd|-C|--directory=?|--prefix=?)[ \t]*([A-Za-z0-9_./-]{1,200})` over the raw text: a quoted folder
// (`"tools"`, `'tools'`) does not match, and after `cd -P` / `cd --` the "folder" taken is the option. bash runs the same
// commands in tools/ either way. So with such a hook, tools/Makefile is still held by its name, but what its recipe
// runs (tools/run-checks) and what tools/package.json's script runs (tools/lint-run.js) are never read: a sandboxed
// command rewrites them, they land, and the next `git commit` runs them outside the sandbox.
// The runners' own folder options are not read at all: `yarn --cwd tools lint` (the usual monorepo hook line),
// `pnpm --dir tools`, `bun --cwd tools`, `task -d tools` / `task --dir tools`, `env --chdir=tools make check`: yarn,
// pnpm and bun run tools/package.json's script, task runs tools/Taskfile.yml, and none of those folders is a place.
// (`cd "tools" && ./check` alone is held by the bare name `check`; the gap is what make and npm read in the folder.)
// Controls (pass on the current code): the same hooks with the folder unquoted and no option.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const CASES: [string, string, boolean][] = [
  ['make -C "tools" check', 'tools/run-checks', false],
  ['npm --prefix "tools" run lint', 'tools/lint-run.js', false],
  ['cd "tools" && npm run lint', 'tools/lint-run.js', false],
  ["cd 'tools' && make check", 'tools/run-checks', false],
  ['cd -P tools && make check', 'tools/run-checks', false],
  ['cd -- tools && npm run lint', 'tools/lint-run.js', false],
  // The runners' own folder options, which the pattern does not know at all.
  ['yarn --cwd tools lint', 'tools/lint-run.js', false],
  ['yarn --cwd=tools lint', 'tools/lint-run.js', false],
  ['pnpm --dir tools run lint', 'tools/lint-run.js', false],
  ['bun --cwd tools run lint', 'tools/lint-run.js', false],
  ['task -d tools check', 'tools/run-checks', false],
  ['task --dir tools check', 'tools/run-checks', false],
  ['env --chdir=tools make check', 'tools/run-checks', false],
  ['make -C tools check', 'tools/run-checks', true],
  ['pnpm -C tools run lint', 'tools/lint-run.js', true],
  ['npm --prefix tools run lint', 'tools/lint-run.js', true],
  ['cd tools && npm run lint', 'tools/lint-run.js', true],
];

describe("attack: a hook's quoted folder (or cd's option) hides what make and npm run there", async () => {
  if (!(await sandboxHere())) return;
  for (const [line, target, control] of CASES) {
    describe(`${control ? 'control: ' : ''}.git/hooks/pre-commit: ${line}`, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/sh\nset -e\n${line}\n`);
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, 'tools', 'package.json'), JSON.stringify({ name: 'tools', scripts: { lint: 'node ./lint-run.js' } }, null, 2));
        await writeFile(join(fixture.root, 'tools', 'lint-run.js'), "console.log('lint ok');\n");
        await writeFile(join(fixture.root, 'tools', 'Makefile'), 'check:\n\t@./run-checks\n');
        await writeFile(join(fixture.root, 'tools', 'Taskfile.yml'), "version: '3'\ntasks:\n  check:\n    cmds:\n      - ./run-checks\n");
        await writeFile(join(fixture.root, 'tools', 'run-checks'), '#!/bin/sh\necho checks ok\n', { mode: 0o755 });
      });
      after(async () => fixture.remove());

      test(`a rewritten ${target} (what the hook runs in tools/) is held`, async () => {
        const result = await fixture.run(`echo '// PWNED-19A' >> ${target}`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, target), 'utf8');
        assert.ok(
          !now.includes('PWNED-19A'),
          `ESCAPED: ${target}, which the pre-commit hook's \`${line}\` runs, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
