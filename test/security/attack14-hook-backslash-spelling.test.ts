// Attack (round 14): a hook spells its script's path with a backslash the shell removes (`sh scripts/che\ck.sh`,
// bash's `$'tools\x2flint.sh'`): the review looks for a file named with the backslash.
// hookPrograms.ts mentionedBy takes paths from gitStructure.ts pathLikeWords over the raw text, which keeps the
// backslash: `scripts/che\ck.sh` becomes the program `<top>/scripts/che\ck.sh` and the names `che\ck.sh`, `ck.sh`;
// `$'tools\x2flint.sh'` the program `tools\x2flint.sh` and the names `x2flint.sh`. The shell's own splitting
// (shellSpelled → shellWordsOf, which does remove a backslash: `scripts/check.sh`) is used only for a word with a blank
// and for bare words without `/`, so the unescaped path is never looked at. The shell runs scripts/check.sh (an
// unquoted `\c` is `c`) and bash decodes `$'…\x2f…'` to `/`: tools/lint.sh. The README promises "a file whose name a
// hook mentions however it spells the path … also held by that name wherever it is".
// Control: the same hook's `sh scripts/fmt.sh` holds scripts/fmt.sh.
// Impact: scripts/check.sh and tools/lint.sh land rewritten; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe('attack: a hook path spelled with a backslash', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, "#!/bin/bash\nsh scripts/fmt.sh || exit 1\nsh scripts/che\\ck.sh || exit 1\nbash $'tools\\x2flint.sh' || exit 1\n");
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'fmt.sh'), 'echo fmt\n');
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo check\n');
    await writeFile(join(fixture.root, 'tools', 'lint.sh'), 'echo lint\n');
  });
  after(async () => fixture.remove());

  test('control: scripts/fmt.sh (spelled plainly) rewritten is held', async () => {
    const result = await fixture.run(`echo 'echo changed' > scripts/fmt.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'scripts', 'fmt.sh'), 'utf8'), 'echo fmt\n', `control: ${JSON.stringify(result.review)}`);
  });

  test("scripts/check.sh (`sh scripts/che\\ck.sh`) and tools/lint.sh (`$'tools\\x2flint.sh'`) rewritten are held", async () => {
    const checkMarker = join(fixture.base, 'check-ran');
    const lintMarker = join(fixture.base, 'lint-ran');
    const result = await fixture.run(`echo 'echo escaped > ${checkMarker}' > scripts/check.sh && echo 'echo escaped > ${lintMarker}' > tools/lint.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = { check: await readFile(checkMarker, 'utf8').catch(() => ''), lint: await readFile(lintMarker, 'utf8').catch(() => '') };
    assert.deepEqual(
      ran,
      { check: '', lint: '' },
      `the rewritten scripts landed and the user's commit ran them outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
