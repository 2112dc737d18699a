// Attack C: the interim review judges whether a changed folder is a git directory (repositoryFacts) after it
// listed the change set, then copies what it listed. A background command toggling x/HEAD can have it listed,
// gone when x is judged, back when it is copied: x/HEAD, x/objects, x/refs and x/config all land, and git run
// outside in x opens x as a repository and runs its config. The final review holds x, but what an interim
// review copied in stays.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe('attack: a git directory completed between the interim judgement and the copy', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  test('x never becomes a repository in the workspace, and git outside runs nothing of it', async () => {
    const marker = join(fixture.base, 'PWNED-interim-gitdir');
    const config = `[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = touch ${marker}; echo\\n`;
    const py = `import os\nwhile True:\n    open("h","w").write("ref: refs/heads/main\\\\n")\n    os.rename("h","x/HEAD")\n    os.unlink("x/HEAD")\n`;
    const line = `mkdir -p x/objects x/refs/heads && printf '${config}' > x/config && echo keep > x/objects/keep && echo keep > x/refs/heads/keep && python3 -c '${py}'`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const all = () => ['HEAD', 'config', 'objects', 'refs'].every((name) => existsSync(join(fixture.root, 'x', name)));
    let reviews = 0;
    const started = Date.now();
    while (Date.now() - started < 25_000 && !all()) {
      await watch.review!(never).catch(() => undefined);
      reviews++;
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const review = await watch.settle(never);
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const git = spawnSync('git', ['status'], { cwd: join(fixture.root, 'x'), env, encoding: 'utf8', timeout: 20_000 });
    assert.ok(
      !all() && !existsSync(marker),
      `ESCAPED after ${reviews} interim review(s): x/{HEAD,config,objects,refs} all in the workspace: ${all()}; git status in x (${git.status}) ran core.fsmonitor: ${existsSync(marker)}; held at the end: ${JSON.stringify(review.moved.map((m) => m.path))}; git: ${git.stderr}\n${output.slice(0, 500)}`,
    );
  });
});
