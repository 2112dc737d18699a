// Attack (round 8): the scripts that held hook configs run.
// The review holds the hook managers' configs by name (`.husky`, `.pre-commit-config.yaml`, lefthook…) and the
// folder core.hooksPath names, but not the workspace files those hooks run: husky's `.husky/pre-commit` saying
// `sh scripts/check.sh`, a pre-commit `repo: local` hook with `entry: scripts/lint.sh`. Rewriting that script is
// rewriting the hook: it lands as an ordinary file (already executable, or run through `sh`), and Git runs it
// at the user's next `git commit` (VS Code's Commit button), as it would the hook itself. (Tested here with husky 9.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: the scripts a hook runs', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    fixture = await makeFixture();
    env = {
      ...process.env,
      HOME: fixture.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    execFileSync('git', ['init', '-q', fixture.root]);
    // husky 9 as `npx husky init` leaves it: core.hooksPath=.husky/_, whose pre-commit runs .husky/pre-commit.
    await mkdir(join(fixture.root, '.husky', '_'), { recursive: true });
    await writeFile(join(fixture.root, '.husky', '_', 'pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/../pre-commit"\n');
    await chmod(join(fixture.root, '.husky', '_', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'sh scripts/check.sh\n');
    execFileSync('git', ['-C', fixture.root, 'config', 'core.hooksPath', '.husky/_'], { env });
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'exit 0\n');
  });
  after(async () => fixture.remove());

  test("the script husky's pre-commit runs is held", async () => {
    const marker = join(fixture.base, 'pwned-husky-target');
    const result = await fixture.run(`printf 'touch ${marker}\\n' > scripts/check.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'README'), 'x\n');
    execFileSync('git', ['-C', fixture.root, 'add', 'README'], { env });
    try {
      execFileSync('git', ['-C', fixture.root, 'commit', '-q', '-m', 'x'], { env, timeout: 20_000 });
    } catch {
      // the marker says whether the hook ran it
    }
    const ran = await access(marker).then(
      () => true,
      () => false,
    );
    assert.ok(
      result.review.moved.some((entry) => entry.path === 'scripts/check.sh' || entry.path === 'scripts'),
      `scripts/check.sh (run by .husky/pre-commit) landed unreviewed${ran ? ' and git commit ran it outside the sandbox' : ''}; review: ${JSON.stringify(result.review)}`,
    );
    assert.equal(ran, false, 'git commit ran the script the sandboxed command rewrote');
  });
});
