// Attack (round 9): what a Git hook runs by command, not by path.
// The review holds what a hook's text names as a path (`sh scripts/check.sh`): pathLikeWords keeps only words
// with `/`, `.` or `~`. husky 9's own `npx husky init` writes `npm test` into .husky/pre-commit, and hand-written
// hooks say `npm run lint` or `make check`: those run package.json's scripts and the Makefile, which the review
// lets land as ordinary files (package.json is held only when husky 0.x's or the pre-commit package's keys
// change). A sandboxed command rewrites scripts.test (or the Makefile's target) and the user's next commit
// (VS Code's Commit button) runs it outside the sandbox, never applied.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere } from './harness';

describe('attack: scripts a Git hook runs by command name', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
  });
  after(async () => fixture.remove());

  test("husky 9's default hook `npm test`: a rewritten scripts.test runs at the next commit", async () => {
    await mkdir(join(fixture.root, '.husky'));
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'npm test\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.husky', 'pre-commit'), 0o755);
    await git(['config', 'core.hooksPath', '.husky']);
    const original = { name: 'app', version: '1.0.0', scripts: { test: 'echo tests pass' }, devDependencies: { husky: '^9.1.7' } };
    await writeFile(join(fixture.root, 'package.json'), `${JSON.stringify(original, null, 2)}\n`);
    const marker = join(fixture.base, 'husky-ran');
    const planted = { ...original, scripts: { test: `echo escaped > ${marker}; echo tests pass` } };
    const result = await fixture.run(`printf '%s\\n' '${JSON.stringify(planted)}' > package.json`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'a.txt'), 'x\n');
    await git(['add', 'a.txt']);
    await git(['commit', '-q', '-m', 'user commit']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.ok(
      ran === '' && result.review.moved.some((entry) => entry.path === 'package.json'),
      `package.json landed with scripts.test rewritten and the user's commit ran it through .husky/pre-commit's \`npm test\` outside the sandbox ` +
        `(marker: ${JSON.stringify(ran)}); review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a hook that runs `make check`: a rewritten Makefile runs at the next commit', async () => {
    await git(['config', '--unset', 'core.hooksPath']);
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nmake check\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'Makefile'), 'check:\n\t@echo ok\n');
    const marker = join(fixture.base, 'make-ran');
    const result = await fixture.run(`printf 'check:\\n\\t@echo escaped > ${marker}\\n' > Makefile`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'b.txt'), 'x\n');
    await git(['add', 'b.txt']);
    await git(['commit', '-q', '-m', 'user commit 2']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.ok(
      ran === '' && result.review.moved.some((entry) => entry.path === 'Makefile'),
      `the Makefile landed rewritten and the user's commit ran it through .git/hooks/pre-commit's \`make check\` outside the sandbox ` +
        `(marker: ${JSON.stringify(ran)}); review: ${JSON.stringify(result.review)}`,
    );
  });
});
