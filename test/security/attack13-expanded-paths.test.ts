// Attack (round 13): a path a hook spells with an expansion in it names nothing: after a braced one
// (`"${ROOT}/scripts/check"`, `"${0%/*}/../../x"`), taken for a glob, or before the file name (`"scripts/$c.sh"`).
// hookPrograms.ts namedPath looks for a glob or brace expansion first (`/[*?[{]/`): a word with one is "a folder
// the shell lists", held whole from the part before the pattern's folder. A parameter expansion in braces has a `{`
// too: `${ROOT}/scripts/check` (pathLikeWords splits at `$`, leaving `{ROOT}/scripts/check`) has its `{` at index 0,
// so the folder before it is '' (the top, which is never held), and namedPath returns there, before cleanTail and
// addName: neither the path (`scripts/check`) nor the name (`check`) is added. Only a name with an extension is
// caught elsewhere (mentionedBy's first pattern); a script without one is not followed at all. `ROOT=$(git rev-parse
// --show-toplevel)` then `"${ROOT}/…"`, `"${0%/*}/…"` and `"${BASH_SOURCE%/*}/…"` are the usual spellings of "next
// to me" and "at the top" in shell hooks, which the README says are followed however they spell the path
// (`"$PWD"/…`, `$(git rev-parse --show-toplevel)/…`, `$(dirname "$0")/../…`).
// And a file name the shell completes from a variable (`for c in format test; do sh "scripts/$c.sh"; done`, the usual
// loop over a project's checks): pathLikeWords splits `scripts/$c.sh` at the `$` into `scripts/` and `c.sh`;
// namedPath's cleanTail drops the empty last component and returns (nothing of `scripts/` is held), and the name `c.sh`
// is no file. The folder the shell picks a file in (`scripts/`) is never held, though a glob's folder is.
// Impact: the user's next commit runs the rewritten scripts/check, scripts/lint and scripts/test.sh outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe('attack: hook paths spelled with an expansion', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(
      hook,
      '#!/bin/sh\nROOT=$(git rev-parse --show-toplevel)\nsh "${ROOT}/scripts/check" || exit 1\nsh "${0%/*}/../../scripts/lint" || exit 1\nsh "$ROOT/scripts/fmt"\nfor c in format test; do sh "scripts/$c.sh" || exit 1; done\n',
    );
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'check'), 'echo check ok\n');
    await writeFile(join(fixture.root, 'scripts', 'lint'), 'echo lint ok\n');
    await writeFile(join(fixture.root, 'scripts', 'fmt'), 'echo fmt ok\n');
    await writeFile(join(fixture.root, 'scripts', 'format.sh'), 'echo format ok\n');
    await writeFile(join(fixture.root, 'scripts', 'test.sh'), 'echo test ok\n');
  });
  after(async () => fixture.remove());

  test('control: scripts/fmt, spelled "$ROOT/scripts/fmt" (no braces), is held', async () => {
    const control = await fixture.run(`echo 'echo changed' > scripts/fmt`);
    assert.equal(control.exitCode, 0, control.output);
    assert.equal(await readFile(join(fixture.root, 'scripts', 'fmt'), 'utf8'), 'echo fmt ok\n', `control: ${JSON.stringify(control.review)}`);
  });

  test('scripts/check ("${ROOT}/scripts/check"), scripts/lint ("${0%/*}/../../scripts/lint") and scripts/test.sh ("scripts/$c.sh") are held', async () => {
    const checkMarker = join(fixture.base, 'braced-check-ran');
    const lintMarker = join(fixture.base, 'braced-lint-ran');
    const loopMarker = join(fixture.base, 'loop-test-ran');
    const result = await fixture.run(
      `printf 'echo escaped > %s\\n' '${checkMarker}' > scripts/check && printf 'echo escaped > %s\\n' '${lintMarker}' > scripts/lint && ` +
        `printf 'echo escaped > %s\\n' '${loopMarker}' > scripts/test.sh`,
    );
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = {
      check: await readFile(checkMarker, 'utf8').catch(() => ''),
      lint: await readFile(lintMarker, 'utf8').catch(() => ''),
      loop: await readFile(loopMarker, 'utf8').catch(() => ''),
    };
    assert.deepEqual(
      ran,
      { check: '', lint: '', loop: '' },
      'scripts/check or scripts/lint (what the pre-commit hook runs through "${ROOT}/…" and "${0%/*}/…") landed rewritten and the user\'s ' +
        `commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}; output: ${result.output}`,
    );
  });
});
