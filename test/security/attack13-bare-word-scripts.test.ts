// Attack (round 13): a script a hook runs by a bare name (`sh lint`, `node check`) is not followed.
// The review follows what a Git hook runs by the words of its text that look like paths (hookPrograms.ts
// mentionedBy → gitStructure.ts pathLikeWords, which keeps only words with a `/`, a `.` or a `~`), and by the names
// with an extension it mentions anywhere (mentionedBy's first pattern, `[A-Za-z0-9_][A-Za-z0-9_.-]*\.[A-Za-z0-9]+`).
// A word such as `lint` in `sh lint`, or `check` in `node check`, has neither: it is no path and no name to the
// review. But the shell and the interpreters read such a word as a path relative to where the hook runs (the work
// tree's top): `sh lint` runs ./lint, `bash ci`, `python3 tool`, `perl fmt` likewise, and `node check` loads ./check.js
// (Node resolves a relative main path with its extensions). So the file the hook runs is an ordinary file to the
// review, and a rewrite of it lands. The README promises the opposite: "the workspace files its hooks run, followed
// from file to file … a file whose name a hook mentions however it spells the path … also held by that name
// wherever it is; what an interpreter makes of a name, `node scripts/check` → `check.js`". (The same gap is in every
// text followed as a hook's is: config values, `.envrc`, husky's scripts, VS Code tasks, our own hooks' approval
// digests, which follow the scripts their line names with hookPrograms too.)
// Impact: the user's next commit runs the rewritten ./lint and ./check.js outside the sandbox, with the user's rights.
import assert from 'node:assert/strict';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe('attack: scripts a hook runs by a bare name', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    // A hook as a project writes it: a formatter spelled with ./, a linter and a check spelled bare.
    await writeFile(hook, '#!/bin/sh\nsh ./fmt || exit 1\nsh lint || exit 1\nnode check || exit 1\n');
    await chmod(hook, 0o755);
    await writeFile(join(fixture.root, 'fmt'), 'echo formatted\n');
    await writeFile(join(fixture.root, 'lint'), 'echo lint ok\n');
    await writeFile(join(fixture.root, 'check.js'), 'console.log("check ok")\n');
  });
  after(async () => fixture.remove());

  test('control: a rewrite of ./fmt (spelled with ./ in the hook) is held', async () => {
    const control = await fixture.run(`echo 'echo changed' > fmt`);
    assert.equal(control.exitCode, 0, control.output);
    assert.equal(await readFile(join(fixture.root, 'fmt'), 'utf8'), 'echo formatted\n', `control: ${JSON.stringify(control.review)}`);
  });

  test('a rewrite of `lint` (run as `sh lint`) and of check.js (run as `node check`) is held', async () => {
    const shellMarker = join(fixture.base, 'bare-lint-ran');
    const nodeMarker = join(fixture.base, 'bare-check-ran');
    const result = await fixture.run(
      `printf 'echo escaped > %s\\n' '${shellMarker}' > lint && ` + `printf 'require("fs").writeFileSync(%s, "escaped")\\n' '"${nodeMarker}"' > check.js`,
    );
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ranShell = await readFile(shellMarker, 'utf8').catch(() => '');
    const ranNode = await readFile(nodeMarker, 'utf8').catch(() => '');
    assert.deepEqual(
      { lint: ranShell, check: ranNode },
      { lint: '', check: '' },
      "./lint (the hook's `sh lint`) or ./check.js (the hook's `node check`) landed rewritten and the user's commit ran it outside the sandbox; " +
        `commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}; output: ${result.output}`,
    );
  });
});
