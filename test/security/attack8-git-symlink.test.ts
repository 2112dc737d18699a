// Attack (round 8): a repository whose `.git` is a symbolic link to its git directory.
// Git follows a `.git` symlink as it follows a folder (setup.c stats it; the layout of dotfiles managers, of work
// trees whose git directory lives on another disk, of Android's `repo`). The review's gitDirectoryOf
// (gitStructure.ts) takes only a folder or a `gitdir:` file: for a link it finds no repository, so that
// repository's config is never read, neither for the workspace's own `.git` nor for a nested one. A workspace
// file its config includes lands when a sandboxed command rewrites it, and the next `git status` runs it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000 })
    .toString()
    .trim();

for (const where of ['', 'lib']) {
  describe(`attack: ${where === '' ? "the workspace's" : 'a nested'} .git as a symbolic link`, async () => {
    if (!(await sandboxHere())) return;
    let fixture: Fixture;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      fixture = await makeFixture();
      env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
      const tree = join(fixture.root, where);
      await mkdir(tree, { recursive: true });
      execFileSync('git', ['init', '-q', tree]);
      // The git directory kept elsewhere (here beside the workspace), `.git` a link to it.
      const kept = join(fixture.home, 'git-dirs', `${where || 'workspace'}.git`);
      await mkdir(join(fixture.home, 'git-dirs'), { recursive: true });
      await rename(join(tree, '.git'), kept);
      await symlink(kept, join(tree, '.git'));
      git(tree, env, 'config', 'include.path', join(fixture.root, 'team.gitconfig'));
      await writeFile(join(fixture.root, 'team.gitconfig'), '[pull]\n\trebase = true\n');
      assert.equal(git(tree, env, 'config', '--get', 'pull.rebase'), 'true');
    });
    after(async () => fixture.remove());

    test('the workspace file its config includes is held', async () => {
      const marker = join(fixture.base, 'pwned-git-symlink');
      const result = await fixture.run(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > team.gitconfig`);
      assert.equal(result.exitCode, 0, result.output);
      try {
        git(join(fixture.root, where), env, 'status', '--porcelain');
      } catch {
        // a failing status still ran the hook
      }
      const ran = await access(marker).then(
        () => true,
        () => false,
      );
      assert.ok(
        result.review.moved.some((entry) => entry.path === 'team.gitconfig'),
        `team.gitconfig (included by the config of ${where || 'the workspace'}'s .git, a symbolic link) landed unreviewed` +
          `${ran ? ', and git status ran its core.fsmonitor outside the sandbox' : ''}; review: ${JSON.stringify(result.review)}`,
      );
      assert.equal(ran, false, 'git status ran the command the sandboxed command planted');
    });
  });
}
