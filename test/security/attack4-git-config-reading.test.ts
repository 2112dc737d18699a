// Attack (round 4): the review reads the user's and the repository's Git config to learn what Git would run, but
// it reads it differently from Git:
// 1. A config file that is a symbolic link is skipped (readBounded lstat()s it and wants a regular file). Dotfile
//    managers (GNU stow, dotbot, rcm, chezmoi's symlink mode, Nix home-manager) make ~/.gitconfig or
//    ~/.config/git/config exactly that; Git follows the link. A global `core.hooksPath = .githooks` there is
//    then ignored: a command rewrites `.githooks/pre-commit`, it lands, the next `git commit` outside runs it.
// 2. A `;` or `#` inside a quoted value is part of the value for Git, but the review cuts the value at the first
//    ` ;`/` #` as if it were a comment: a path after it in a `!` alias (`"!f() { npm test; ./tools/x.sh; }; f"`,
//    the usual way to write a shell-function alias) is never seen, so a rewrite of that script lands.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe("attack: the user's Git config as Git reads it, not as the review does", async () => {
  if (!(await sandboxHere())) return;

  describe('a ~/.gitconfig that is a link into a dotfiles folder', () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      execFileSync('git', ['init', '-q', fixture.root]);
      await mkdir(join(fixture.home, 'dotfiles'));
      await writeFile(join(fixture.home, 'dotfiles', 'gitconfig'), '[core]\n\thooksPath = .githooks\n');
      await symlink('dotfiles/gitconfig', join(fixture.home, '.gitconfig'));
      await mkdir(join(fixture.root, '.githooks'));
      await writeFile(join(fixture.root, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
      await chmod(join(fixture.root, '.githooks', 'pre-commit'), 0o755);
    });
    after(async () => fixture.remove());

    test('the hook the linked global config points at is held', async () => {
      // Git itself follows the link: the hooks folder is .githooks.
      const hooksPath = execFileSync('git', ['-C', fixture.root, 'config', 'core.hooksPath'], { env: { ...process.env, HOME: fixture.home } })
        .toString()
        .trim();
      assert.equal(hooksPath, '.githooks');
      const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-LINKED-GITCONFIG\\n' > .githooks/pre-commit`);
      const now = await readFile(join(fixture.root, '.githooks', 'pre-commit'), 'utf8');
      assert.ok(
        !now.includes('PWNED-LINKED-GITCONFIG'),
        `ESCAPED: .githooks/pre-commit landed unasked although ~/.gitconfig (a link) sets core.hooksPath (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
      );
    });
  });

  describe("a shell-function alias in the user's config", () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      execFileSync('git', ['init', '-q', fixture.root]);
      await writeFile(
        join(fixture.home, '.gitconfig'),
        '[alias]\n\tlg = "!git log --format=\'%h #%s\' | ./tools/format-log.sh"\n\tship = "!f() { npm test ; ./tools/release.sh; }; f"\n',
      );
      await mkdir(join(fixture.root, 'tools'));
      for (const script of ['release.sh', 'format-log.sh']) {
        await writeFile(join(fixture.root, 'tools', script), '#!/bin/sh\necho ok\n');
        await chmod(join(fixture.root, 'tools', script), 0o755);
      }
    });
    after(async () => fixture.remove());

    for (const script of ['release.sh', 'format-log.sh']) {
      test(`the script an alias runs after a quoted \` ;\` or \` #\` is held: tools/${script}`, async () => {
        const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-ALIAS\\n' > tools/${script}`);
        const now = await readFile(join(fixture.root, 'tools', script), 'utf8');
        assert.ok(
          !now.includes('PWNED-ALIAS'),
          `ESCAPED: tools/${script} (run by a \`!\` alias of the user's config) landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    }
  });
});
