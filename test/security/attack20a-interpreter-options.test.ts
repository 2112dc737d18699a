// Attack (round 20a): an interpreter given a folder after an option (`python3 -u pyhook`, `node --no-warnings hooks`).
//
// The review holds a folder given to an interpreter whole (README: `node hooks`, `python3 pyhook`: the folder's entry
// file runs). shellFolders.ts interpreterOperand takes only the word right after the interpreter and gives up when it
// starts with `-` ("a module or a string: read elsewhere"), so any option before the folder (`-u`, `-B`, `-X dev`,
// `--no-warnings`, `--enable-source-maps`, as hooks write them for unbuffered output or quiet runs) hides it:
// pyhook/__main__.py and hooks/index.js, which python3 and node run, land unheld when a sandboxed command rewrites them,
// and run at the user's next commit outside the sandbox.
// Controls (pass on the current code): `python3 pyhook`, `node hooks`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const CASES: [string, string, boolean][] = [
  ['python3 -u pyhook', 'pyhook/__main__.py', false],
  ['python3 -X dev pyhook', 'pyhook/__main__.py', false],
  ['node --no-warnings hooks', 'hooks/index.js', false],
  ['python3 pyhook', 'pyhook/__main__.py', true],
  ['node hooks', 'hooks/index.js', true],
];

describe('attack: a folder given to an interpreter after an option is not held', async () => {
  test('the interpreters run the folder after an option', async () => {
    const root = execFileSync('mktemp', ['-d']).toString().trim();
    await mkdir(join(root, 'pyhook'));
    await writeFile(join(root, 'pyhook', '__main__.py'), 'print("ran")\n');
    assert.equal(execFileSync('python3', ['-u', 'pyhook'], { cwd: root }).toString(), 'ran\n');
    execFileSync('rm', ['-rf', root]);
  });

  if (!(await sandboxHere())) return;
  for (const [line, file, control] of CASES) {
    describe(line, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/sh\nset -e\n${line}\n`);
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, file, '..'), { recursive: true });
        await writeFile(join(fixture.root, file), file.endsWith('.py') ? 'print("ok")\n' : 'console.log("ok");\n');
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten ${file} is held`, async () => {
        const text = file.endsWith('.py') ? 'print("PWNED-20A")' : 'console.log("PWNED-20A");';
        const result = await fixture.run(`printf '%s\\n' '${text}' > ${file}`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, file), 'utf8');
        assert.ok(!now.includes('PWNED-20A'), `ESCAPED: ${file}, which the pre-commit hook's "${line}" runs, landed unasked`);
      });
    });
  }
});
