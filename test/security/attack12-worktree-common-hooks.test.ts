// Attack (round 12): the hooks of a linked worktree live in the common git directory, which the review never reads.
// A workspace opened at a linked worktree (`git worktree add`, how agents and many users keep a second checkout) has a
// `.git` file `gitdir: <main>/.git/worktrees/<id>`, and that folder's `commondir` leads to the main repository's git
// directory. Git takes a worktree's hooks from the common directory (path.c's common_list: `hooks` is shared), as it
// takes its config. gitStructure.ts's pathsConfigPointsAt reads the common directory's `config` (the commondir line)
// but looks for hooks only in `<gitDir>/hooks` (and the folder above it) — the worktree's private folder, which never
// has hooks. So the main repository's `pre-commit` (`sh scripts/check.sh`) is never read, scripts/check.sh is neither
// pointed at nor followed, and a sandboxed command's rewrite of it is an ordinary file that lands unasked. When the
// main repository lies outside the workspace (a sibling folder, the usual layout), no other path of the review finds
// those hooks either (the walk up from the workspace finds only the worktree's `.git` file).
// Impact: the user's next `git commit` in the worktree runs the rewritten script outside the sandbox, with full rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe("attack: a linked worktree's hooks in the common git directory", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let main: string;
  const gitIn = (folder: string, args: string[]) =>
    runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  before(async () => {
    fixture = await makeFixture();
    // The main checkout beside the workspace (outside it and outside the home folder), the workspace its worktree.
    main = join(fixture.base, 'main');
    await mkdir(join(main, 'scripts'), { recursive: true });
    await gitIn(main, ['init', '-q', '-b', 'main']);
    await writeFile(join(main, 'scripts', 'check.sh'), 'echo checks pass\n');
    await writeFile(join(main, 'README'), 'hello\n');
    await gitIn(main, ['add', '.']);
    await gitIn(main, ['commit', '-q', '-m', 'init']);
    const added = await gitIn(main, ['worktree', 'add', '-q', '-b', 'feature', fixture.root]);
    assert.equal(added.code, 0, added.stderr);
    // The repository's pre-commit hook (the ordinary place: the git directory's hooks/), running a tracked script.
    const hook = join(main, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\nsh scripts/check.sh\n');
    await chmod(hook, 0o755);
  });
  after(async () => fixture.remove());

  test("the main repository's pre-commit runs `sh scripts/check.sh`: a rewritten scripts/check.sh in the worktree is held", async () => {
    const marker = join(fixture.base, 'worktree-hook-ran');
    const result = await fixture.run(`printf 'echo escaped > %s\\necho checks pass\\n' '${marker}' > scripts/check.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'a.txt'), 'x\n');
    await gitIn(fixture.root, ['add', 'a.txt']);
    const committed = await gitIn(fixture.root, ['commit', '-q', '-m', 'user commit']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      "scripts/check.sh (what the repository's pre-commit runs, from the common git directory's hooks/) landed rewritten, unapplied, " +
        `and the user's commit in the worktree ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
