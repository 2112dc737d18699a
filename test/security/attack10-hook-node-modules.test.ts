// Attack (round 10): the package a hook runs through npx.
// The most common hook of all (husky + lint-staged's setup: `.husky/pre-commit` saying `npx lint-staged`) runs
// node_modules/.bin/lint-staged, a link to node_modules/lint-staged/bin/lint-staged.js. The review holds what a
// hook's text names and package.json's scripts when it runs npm/npx, but nothing of node_modules: the command
// rewrites the installed package's entry script (an ordinary file that exists), it lands, and the user's next
// commit runs it outside the sandbox, never applied.
import assert from 'node:assert/strict';
import { access, chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: the installed package a hook runs through npx', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let env: NodeJS.ProcessEnv;
  const git = (args: string[]) => runOutside('git', ['-C', fixture.root, ...args], { env, timeoutMs: 60_000 });
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
      npm_config_offline: 'true',
    };
    await git(['init', '-q']);
    const pkg = { name: 'app', version: '1.0.0', devDependencies: { 'lint-staged': '^15.0.0' }, 'lint-staged': { '*.js': 'echo' } };
    await writeFile(join(fixture.root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const installed = join(fixture.root, 'node_modules', 'lint-staged');
    await mkdir(join(installed, 'bin'), { recursive: true });
    await writeFile(join(installed, 'package.json'), JSON.stringify({ name: 'lint-staged', version: '15.2.0', bin: { 'lint-staged': 'bin/lint-staged.js' } }));
    await writeFile(join(installed, 'bin', 'lint-staged.js'), '#!/usr/bin/env node\nconsole.log("lint-staged: nothing to do");\n', { mode: 0o755 });
    await chmod(join(installed, 'bin', 'lint-staged.js'), 0o755);
    await mkdir(join(fixture.root, 'node_modules', '.bin'));
    await symlink('../lint-staged/bin/lint-staged.js', join(fixture.root, 'node_modules', '.bin', 'lint-staged'));
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nnpx lint-staged\n');
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
  });
  after(async () => fixture.remove());

  test("a rewritten node_modules/lint-staged/bin/lint-staged.js is held (the hook's `npx lint-staged` runs it)", async () => {
    const marker = join(fixture.base, 'npx-ran');
    const planted = `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "escaped");\n`;
    const result = await fixture.run(`printf '%s' '${planted}' > node_modules/lint-staged/bin/lint-staged.js`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'a.txt'), 'x\n');
    await git(['add', 'a.txt']);
    const committed = await git(['commit', '-q', '-m', 'user commit']);
    const ran = await access(marker).then(
      () => true,
      () => false,
    );
    assert.ok(
      !ran,
      `node_modules/lint-staged/bin/lint-staged.js landed rewritten, unapplied, and the user's commit ran it through .git/hooks/pre-commit's ` +
        `\`npx lint-staged\` outside the sandbox; review: ${JSON.stringify(result.review)}; commit: ${committed.stderr.slice(0, 300)}`,
    );
  });
});
