// Attack A: the workspace root itself becomes a git directory (bare layout: HEAD + objects/ + refs/ + config
// at the top). The review checks each changed folder, never the workspace root, so everything lands, and git
// run outside (the user, VS Code's git extension) opens the root as a repository and runs its config.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: the workspace root turned into a bare repository', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  test('a planted bare layout at the workspace root is held, and git outside runs nothing from it', async () => {
    const marker = join(fixture.base, 'PWNED-root-bare');
    const config = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = touch ${marker}; echo\n`;
    const line = [`printf 'ref: refs/heads/main\\n' > HEAD`, `mkdir -p objects refs/heads`, `printf '%s' '${config}' > config`, `echo hi > README.txt`].join(
      ' && ',
    );
    const result = await fixture.run(line);
    assert.equal(result.exitCode, 0, result.output);
    const landed = ['HEAD', 'config', 'objects', 'refs'].filter((name) => existsSync(join(fixture.root, name)));
    // Run git as the user would, outside the sandbox, in the workspace.
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const git = spawnSync('git', ['status'], { cwd: fixture.root, env, encoding: 'utf8', timeout: 20_000 });
    const ran = existsSync(marker);
    assert.ok(
      !(landed.length === 4 && ran),
      `ESCAPED: landed ${landed.join(', ')}; held ${JSON.stringify(result.review.moved.map((m) => m.path))}; git status (${git.status}) ran core.fsmonitor: ${ran}\n${git.stderr}`,
    );
    assert.ok(result.review.moved.length > 0, `nothing was held; landed ${landed.join(', ')}; fsmonitor ran: ${ran}`);
  });
});
