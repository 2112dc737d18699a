// Attack (round 13): a script whose file name has a space (`sh "scripts/pre commit.sh"`) is not followed.
// gitStructure.ts pathLikeWords removes the quotes first (`.replace(/["']/g, '')`) and then splits the text at
// whitespace, so the quoted path `"scripts/pre commit.sh"` becomes two words, `scripts/pre` and `commit.sh`; and
// hookPrograms.ts mentionedBy's name pattern (`[A-Za-z0-9_][A-Za-z0-9_.-]*\.ext`) stops at the space too. What the
// review holds is then `scripts/pre`, `pre`, `pre.sh`… and `commit.sh` (by name, anywhere): never the file the shell
// runs, `scripts/pre commit.sh`. The quotes are exactly what tells the shell that the space is part of the name; the
// README promises a file a hook runs is held "however it spells the path".
// Impact: the user's next commit runs the rewritten `scripts/pre commit.sh` outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe('attack: a hook script whose name has a space', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\nsh "scripts/pre commit.sh" || exit 1\nsh scripts/format.sh\n');
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'pre commit.sh'), 'echo checks pass\n');
    await writeFile(join(fixture.root, 'scripts', 'format.sh'), 'echo formatted\n');
  });
  after(async () => fixture.remove());

  test('control: scripts/format.sh is held', async () => {
    const control = await fixture.run(`echo 'echo changed' > scripts/format.sh`);
    assert.equal(control.exitCode, 0, control.output);
    assert.equal(await readFile(join(fixture.root, 'scripts', 'format.sh'), 'utf8'), 'echo formatted\n', `control: ${JSON.stringify(control.review)}`);
  });

  test('"scripts/pre commit.sh" is held', async () => {
    const marker = join(fixture.base, 'spaced-name-ran');
    const result = await fixture.run(`printf 'echo escaped > %s\\n' '${marker}' > 'scripts/pre commit.sh'`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `"scripts/pre commit.sh" (what the pre-commit hook runs) landed rewritten and the user's commit ran it outside the sandbox; ` +
        `commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}; output: ${result.output}`,
    );
  });
});
