// Attack (round 5): what Git would run, found where the review does not look.
// 1. The review reads the config of a repository only when the command changed the folder that holds its `.git`
//    (or the repository is the workspace's own or a parent's). A nested repository (`lib/`, a second clone in a
//    monorepo checkout, the kind VS Code's git extension opens by itself) whose config points elsewhere in the
//    workspace (`core.hooksPath = ../tools/hooks`, `include.path = ../../team-config/team.gitconfig`) is never read
//    when the command touches only those files: a rewrite of the shared hook or the shared config lands, and
//    the next `git commit` in `lib`, or the git extension's next status there, runs it.
// 2. The review reads ~/.gitconfig and $XDG_CONFIG_HOME/git/config, but Git reads `$GIT_CONFIG_GLOBAL` instead
//    when the environment sets it (as the extension host's environment may): a relative `core.hooksPath` there
//    is ignored by the review.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000 })
    .toString()
    .trim();

async function hook(path: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o755);
}

describe('attack: Git config the review never reads', async () => {
  if (!(await sandboxHere())) return;

  describe("a nested repository's config pointing elsewhere in the workspace", () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      execFileSync('git', ['init', '-q', join(fixture.root, 'lib')]);
      execFileSync('git', ['init', '-q', join(fixture.root, 'app')]);
      git(join(fixture.root, 'lib'), {}, 'config', 'core.hooksPath', '../tools/hooks');
      git(join(fixture.root, 'app'), {}, 'config', 'include.path', '../../team-config/team.gitconfig');
      await hook(join(fixture.root, 'tools', 'hooks', 'pre-commit'));
      await mkdir(join(fixture.root, 'team-config'));
      await writeFile(join(fixture.root, 'team-config', 'team.gitconfig'), '[pull]\n\trebase = true\n');
    });
    after(async () => fixture.remove());

    test("the hook a nested repository's core.hooksPath points at is held", async () => {
      const env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
      assert.equal(git(join(fixture.root, 'lib'), env, 'rev-parse', '--git-path', 'hooks'), '../tools/hooks');
      const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-NESTED-HOOK\\n' > tools/hooks/pre-commit`);
      assert.equal(result.exitCode, 0, result.output);
      assert.ok(
        result.review.moved.some((entry) => entry.path.startsWith('tools')),
        JSON.stringify(result.review),
      );
      assert.doesNotMatch(await readFile(join(fixture.root, 'tools/hooks/pre-commit'), 'utf8'), /PWNED/);
    });

    test("the file a nested repository's include.path points at is held", async () => {
      const result = await fixture.run(`printf '[core]\\n\\tfsmonitor = touch /tmp/gw-pwned-nested\\n' > team-config/team.gitconfig`);
      assert.equal(result.exitCode, 0, result.output);
      assert.ok(
        result.review.moved.some((entry) => entry.path.startsWith('team-config')),
        JSON.stringify(result.review),
      );
      const env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
      assert.equal(
        execFileSync('git', ['-C', join(fixture.root, 'app'), 'config', '--default', '', 'core.fsmonitor'], { env: { ...process.env, ...env } })
          .toString()
          .trim(),
        '',
      );
    });
  });

  describe('GIT_CONFIG_GLOBAL in the extension host environment', () => {
    let fixture: Fixture;
    const saved = process.env.GIT_CONFIG_GLOBAL;
    before(async () => {
      fixture = await makeFixture();
      execFileSync('git', ['init', '-q', fixture.root]);
      await mkdir(join(fixture.home, 'cfg'));
      await writeFile(join(fixture.home, 'cfg', 'gitconfig'), '[core]\n\thooksPath = .githooks\n');
      process.env.GIT_CONFIG_GLOBAL = join(fixture.home, 'cfg', 'gitconfig');
      await hook(join(fixture.root, '.githooks', 'pre-commit'));
    });
    after(async () => {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
      await fixture.remove();
    });

    test('the hook the $GIT_CONFIG_GLOBAL config points at is held', async () => {
      assert.equal(git(fixture.root, { HOME: fixture.home }, 'config', 'core.hooksPath'), '.githooks');
      const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-GIT-CONFIG-GLOBAL\\n' > .githooks/pre-commit`);
      assert.equal(result.exitCode, 0, result.output);
      assert.ok(
        result.review.moved.some((entry) => entry.path.startsWith('.githooks')),
        JSON.stringify(result.review),
      );
      assert.doesNotMatch(await readFile(join(fixture.root, '.githooks/pre-commit'), 'utf8'), /PWNED/);
    });
  });
});
