// Attack (round 19a): an interpreter given a folder runs that folder's entry file.
//
// The review resolves what an interpreter makes of a name (README: `node scripts/check` → check.js, `python -m
// tools.lint` → tools/lint.py and `__init__.py`), but a word that names a folder "holds nothing" (`black src`). For an
// interpreter that is wrong: `node scripts/precommit` runs scripts/precommit/index.js (or the `main` of its
// package.json), `node .` runs ./index.js, and `python3 tools/hook` runs tools/hook/__main__.py (CPython runs a folder
// with a `__main__.py` as a script). So a Git hook of that form names no file to the review; a sandboxed command
// rewrites the entry file, it lands, and the next `git commit` runs it. The gap is the bare word: a folder named with
// a slash (`node scripts/precommit`, `python3 tools/hook`) is held whole, and so is the module spelling
// (`python3 -m tools.hook`): controls. `node hooks`, `node precommit`, `node .` and `python3 pyhook` hold nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const CASES: [string, string, boolean][] = [
  ['node hooks', 'hooks/main.js', false],
  ['node precommit', 'precommit/index.js', false],
  ['node .', 'index.js', false],
  ['python3 pyhook', 'pyhook/__main__.py', false],
  ['node scripts/precommit', 'scripts/precommit/index.js', true],
  ['python3 tools/hook', 'tools/hook/__main__.py', true],
  ['python3 -m tools.hook', 'tools/hook/__main__.py', true],
];

describe('attack: `node <folder>` / `python3 <folder>` in a hook runs the folder’s entry file', async () => {
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
        for (const folder of ['scripts/precommit', 'hooks', 'tools/hook', 'precommit', 'pyhook']) await mkdir(join(fixture.root, folder), { recursive: true });
        await writeFile(join(fixture.root, 'precommit/index.js'), "console.log('ran precommit/index.js');\n");
        await writeFile(join(fixture.root, 'pyhook/__main__.py'), "print('ran pyhook/__main__.py')\n");
        await writeFile(join(fixture.root, 'scripts/precommit/index.js'), "console.log('ran scripts/precommit/index.js');\n");
        await writeFile(join(fixture.root, 'hooks/package.json'), JSON.stringify({ name: 'hooks', main: 'main.js' }));
        await writeFile(join(fixture.root, 'hooks/main.js'), "console.log('ran hooks/main.js');\n");
        await writeFile(join(fixture.root, 'index.js'), "console.log('ran index.js');\n");
        await writeFile(join(fixture.root, 'tools/__init__.py'), '');
        await writeFile(join(fixture.root, 'tools/hook/__init__.py'), '');
        await writeFile(join(fixture.root, 'tools/hook/__main__.py'), "print('ran tools/hook/__main__.py')\n");
      });
      after(async () => fixture.remove());

      test(`a rewritten ${target} (what the interpreter runs) is held`, async () => {
        // What the interpreter runs for the line, outside the sandbox.
        assert.match(execFileSync('sh', ['-c', line], { cwd: fixture.root }).toString(), new RegExp(`ran ${target.replace(/[.]/g, '\\.')}`));
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
