// Attack (round 13): a file of a hook's chain that is a link: where it leads is not held.
// Round 8 made the review hold where the links of the git directory lead (gitStructure.ts linkTargetsIn: the git
// directory's top, `hooks/` and `info/`), since projects share hooks by linking them. The other common layout is a
// tracked hooks folder set with `git config core.hooksPath .githooks`, whose hooks link to the project's scripts
// (`.githooks/pre-commit -> ../scripts/pre-commit.sh`). linkTargetsIn never looks there: the folder is held whole by
// path (pointedAt), but the link's target is another path. followPrograms reads the hook through the link (readStart
// follows it) and follows what the text names, but adds only the hook's own path, never where it leads, and the
// script names nothing of itself: `scripts/pre-commit.sh` is neither pointed at nor a mentioned name. Its rewrite lands.
// The same for any file of the chain that is a tracked link: a hook's `sh scripts/check.sh` where scripts/check.sh
// links to tools/check-impl.sh (the link is held by path; its target, under another name, is not).
// Impact: the user's next commit (VS Code's Commit button) runs the rewritten scripts/pre-commit.sh outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe('attack: links in a core.hooksPath folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await git(['config', 'core.hooksPath', '.githooks']);
    await mkdir(join(fixture.root, 'scripts'));
    await mkdir(join(fixture.root, '.githooks'));
    await writeFile(join(fixture.root, 'scripts', 'pre-commit.sh'), '#!/bin/sh\necho checks pass\n');
    await chmod(join(fixture.root, 'scripts', 'pre-commit.sh'), 0o755);
    await symlink('../scripts/pre-commit.sh', join(fixture.root, '.githooks', 'pre-commit'));
    // A hook of the chain that runs a linked script: .githooks/pre-push → sh scripts/check.sh → tools/check-impl.sh.
    await writeFile(join(fixture.root, '.githooks', 'pre-push'), '#!/bin/sh\nsh scripts/check.sh\n');
    await chmod(join(fixture.root, '.githooks', 'pre-push'), 0o755);
    await mkdir(join(fixture.root, 'tools'));
    await writeFile(join(fixture.root, 'tools', 'check-impl.sh'), 'echo impl\n');
    await symlink('../tools/check-impl.sh', join(fixture.root, 'scripts', 'check.sh'));
  });
  after(async () => fixture.remove());

  test('the linked hook runs before the attack', async () => {
    await writeFile(join(fixture.root, 'a.txt'), 'a\n');
    await git(['add', 'a.txt']);
    const committed = await git(['commit', '-q', '-m', 'first']);
    assert.match(committed.stderr + committed.stdout, /checks pass/, JSON.stringify(committed));
  });

  test('scripts/pre-commit.sh (which .githooks/pre-commit links to) and tools/check-impl.sh (which scripts/check.sh links to) are held', async () => {
    const marker = join(fixture.base, 'hooks-path-link-ran');
    const result = await fixture.run(
      `printf '#!/bin/sh\\necho escaped > %s\\n' '${marker}' > scripts/pre-commit.sh && echo 'echo changed' > tools/check-impl.sh`,
    );
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    const impl = await readFile(join(fixture.root, 'tools', 'check-impl.sh'), 'utf8');
    assert.equal(
      ran + (impl === 'echo impl\n' ? '' : 'tools/check-impl.sh rewritten'),
      '',
      "scripts/pre-commit.sh (the target of the core.hooksPath folder's pre-commit link) landed rewritten and the user's commit ran it " +
        `outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}; output: ${result.output}`,
    );
  });
});
