// Attack (round 6): a repository whose config sets `core.worktree`. Git takes a relative value relative to the
// git directory and runs what its config names (fsmonitor, filters, hooks) in that work tree; the review resolves
// both against the folder that holds `.git`, so what the config points at in the real work tree is not held, and
// the next `git status` there runs the rewritten program (outside the sandbox).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack round 6', async () => {
  if (!(await sandboxHere())) return;

  describe('a repository whose core.worktree is another folder of the workspace', () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      await mkdir(join(fixture.root, 'app', 'tools'), { recursive: true });
      await writeFile(join(fixture.root, 'app', 'tools', 'fsmonitor.sh'), 'exit 1\n');
      execFileSync('git', ['init', '-q', join(fixture.root, 'meta')]);
      // Git reads `../../app` relative to meta/.git: the work tree is the workspace's app/.
      execFileSync('git', ['-C', join(fixture.root, 'meta'), 'config', 'core.worktree', '../../app']);
      execFileSync('git', ['-C', join(fixture.root, 'meta'), 'config', 'core.fsmonitor', 'sh tools/fsmonitor.sh']);
    });
    after(async () => {
      await rm('/tmp/gw-attack6-worktree', { force: true });
      await fixture.remove();
    });

    test('the program its config names in that work tree is held', async () => {
      const result = await fixture.run(`printf 'touch /tmp/gw-attack6-worktree\\nexit 1\\n' > app/tools/fsmonitor.sh`);
      assert.equal(result.exitCode, 0, result.output);
      assert.doesNotMatch(await readFile(join(fixture.root, 'app', 'tools', 'fsmonitor.sh'), 'utf8'), /gw-attack6/, JSON.stringify(result.review));
      // What the user's next `git status` in meta/ does (outside the sandbox): it runs app/tools/fsmonitor.sh.
      try {
        execFileSync('git', ['status'], {
          cwd: join(fixture.root, 'meta'),
          env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
          timeout: 20_000,
          stdio: 'ignore',
        });
      } catch {
        // Its exit code does not matter here.
      }
      await assert.rejects(readFile('/tmp/gw-attack6-worktree'), 'git status ran what the sandboxed command wrote');
    });
  });
});
