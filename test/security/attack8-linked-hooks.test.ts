// Attack (round 8): what the git directory's own links point at.
// The review holds what a repository's config points at (core.hooksPath, includes…) but never looks at the links
// inside the git directory. The common way a project shares its hooks without a hook manager is a link
// (`ln -s ../../scripts/pre-commit.sh .git/hooks/pre-commit`, in many contributing guides), and some teams link
// `.git/config` itself to a tracked file. The link's target is an ordinary workspace file (already executable,
// for a hook): a sandboxed command rewrites it, it lands, and Git runs it at the next `git commit` (VS Code's
// Commit button), or reads it as the repository's config at the next `git status`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000 })
    .toString()
    .trim();

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('attack: files the git directory links to', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    fixture = await makeFixture();
    env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    execFileSync('git', ['init', '-q', fixture.root]);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'pre-commit.sh'), '#!/bin/sh\nexit 0\n');
    await chmod(join(fixture.root, 'scripts', 'pre-commit.sh'), 0o755);
    await symlink('../../scripts/pre-commit.sh', join(fixture.root, '.git', 'hooks', 'pre-commit'));
  });
  after(async () => fixture.remove());

  test('the hook script .git/hooks/pre-commit links to is held', async () => {
    const marker = join(fixture.base, 'pwned-linked-hook');
    const result = await fixture.run(`printf '#!/bin/sh\\ntouch ${marker}\\n' > scripts/pre-commit.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'README'), 'x\n');
    git(fixture.root, env, 'add', 'README');
    try {
      git(fixture.root, env, 'commit', '-q', '-m', 'x');
    } catch {
      // the marker says whether the hook ran
    }
    const ran = await exists(marker);
    assert.ok(
      result.review.moved.some((entry) => entry.path.startsWith('scripts')),
      `scripts/pre-commit.sh (linked from .git/hooks/pre-commit) landed unreviewed${ran ? ' and git commit ran it outside the sandbox' : ''}; ` +
        `review: ${JSON.stringify(result.review)}`,
    );
    assert.equal(ran, false, 'git commit ran the hook the sandboxed command rewrote');
  });

  test('the tracked file .git/config links to is held', async () => {
    await writeFile(join(fixture.root, 'repo.gitconfig'), await readFile(join(fixture.root, '.git', 'config'), 'utf8'));
    await rm(join(fixture.root, '.git', 'config'));
    await symlink('../repo.gitconfig', join(fixture.root, '.git', 'config'));
    assert.equal(git(fixture.root, env, 'config', '--get', 'core.bare'), 'false');
    const marker = join(fixture.base, 'pwned-linked-config');
    const result = await fixture.run(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> repo.gitconfig`);
    assert.equal(result.exitCode, 0, result.output);
    try {
      git(fixture.root, env, 'status', '--porcelain');
    } catch {
      // the marker says whether it ran
    }
    const ran = await exists(marker);
    assert.ok(
      result.review.moved.some((entry) => entry.path === 'repo.gitconfig'),
      `repo.gitconfig (.git/config links to it) landed unreviewed${ran ? ' and git status ran its core.fsmonitor outside the sandbox' : ''}; ` +
        `review: ${JSON.stringify(result.review)}`,
    );
    assert.equal(ran, false, 'git status ran the command the sandboxed command planted');
  });
});
