// Attack (round 6): a Python environment at the workspace's top (`python3 -m venv .` in the project folder, a
// common layout). The review looks for a `pyvenv.cfg` only in changed folders below the top, never at the top
// itself, so a rewrite of `bin/activate` (or a `.pth` in its site-packages, run by every `python`) lands, and VS
// Code's Python extension sources it in the next terminal, outside the sandbox. The README: "a Python environment
// under any name (a folder with a pyvenv.cfg ...)" is held.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack round 6', async () => {
  if (!(await sandboxHere())) return;

  describe('a Python environment at the top of the workspace', () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      // What `python3 -m venv .` leaves (the interpreter itself aside).
      await writeFile(join(fixture.root, 'pyvenv.cfg'), 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n');
      await mkdir(join(fixture.root, 'bin'));
      await writeFile(join(fixture.root, 'bin', 'activate'), '# This file must be used with "source bin/activate"\nVIRTUAL_ENV=.\n');
      await mkdir(join(fixture.root, 'lib', 'python3.11', 'site-packages'), { recursive: true });
    });
    after(async () => fixture.remove());

    test("its activate script and site-packages are held like any other environment's", async () => {
      const result = await fixture.run(
        `echo 'echo PWNED-ROOT-VENV' >> bin/activate && echo 'import os; os.system("echo PWNED-PTH")' > lib/python3.11/site-packages/evil.pth`,
      );
      assert.equal(result.exitCode, 0, result.output);
      assert.doesNotMatch(await readFile(join(fixture.root, 'bin', 'activate'), 'utf8'), /PWNED/, JSON.stringify(result.review));
      await assert.rejects(readFile(join(fixture.root, 'lib', 'python3.11', 'site-packages', 'evil.pth')));
    });
  });
});
