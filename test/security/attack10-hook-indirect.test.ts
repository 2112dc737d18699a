// Attack (round 10): what a hook runs one step further than the hook's own text.
// The review holds what a hook's text names (`sh scripts/check.sh`, any `name.ext`), the Makefile when it runs
// `make`, and package.json's scripts when it runs npm: mentionedBy reads only the hooks' (and runner configs')
// text. What those run in turn is never read: the script package.json's `test` names (`sh scripts/check.sh`, the
// very line that is held when the hook says it), a file the Makefile `include`s, the script a Makefile recipe
// runs. A sandboxed command rewrites it as an ordinary file, it lands, and the user's next commit runs it
// outside the sandbox, never applied.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommits } from './harness';

describe('attack: the files a hook runs through npm or make', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  const commit = userCommits(() => fixture);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'scripts'));
    await mkdir(join(fixture.root, 'mk'));
  });
  after(async () => fixture.remove());

  test("husky's `npm test`, package.json's test `sh scripts/check.sh`: a rewritten check.sh runs at the next commit", async () => {
    await mkdir(join(fixture.root, '.husky'));
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'npm test\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.husky', 'pre-commit'), 0o755);
    await git(['config', 'core.hooksPath', '.husky']);
    const pkg = { name: 'app', version: '1.0.0', scripts: { test: 'sh scripts/check.sh' }, devDependencies: { husky: '^9.1.7' } };
    await writeFile(join(fixture.root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checks pass\n');
    const marker = join(fixture.base, 'npm-script-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > scripts/check.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await commit();
    await git(['config', '--unset', 'core.hooksPath']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `scripts/check.sh (package.json's test script, which .husky/pre-commit's \`npm test\` runs) landed rewritten, unapplied, and the user's commit ran it ` +
        `outside the sandbox; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a hook that runs `make check`, the Makefile `include`s mk/rules.mk: a rewritten rules.mk runs at the next commit', async () => {
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nmake -s check\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'Makefile'), 'include mk/rules.mk\n');
    await writeFile(join(fixture.root, 'mk', 'rules.mk'), 'check:\n\t@echo ok\n');
    const marker = join(fixture.base, 'make-include-ran');
    const result = await fixture.run(`printf 'check:\\n\\t@echo escaped > ${marker}\\n' > mk/rules.mk`);
    assert.equal(result.exitCode, 0, result.output);
    await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `mk/rules.mk (included by the Makefile that .git/hooks/pre-commit's \`make check\` runs) landed rewritten, unapplied, and the user's commit ran it ` +
        `outside the sandbox; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a hook that runs `make check`, the recipe runs `sh scripts/lint.sh`: a rewritten lint.sh runs at the next commit', async () => {
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nmake -s lint\n', { mode: 0o755 });
    await writeFile(join(fixture.root, 'Makefile'), 'lint:\n\tsh scripts/lint.sh\n');
    await writeFile(join(fixture.root, 'scripts', 'lint.sh'), 'echo lint ok\n');
    const marker = join(fixture.base, 'make-recipe-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > scripts/lint.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `scripts/lint.sh (what the Makefile's lint recipe runs, which .git/hooks/pre-commit's \`make lint\` runs) landed rewritten, unapplied, and the ` +
        `user's commit ran it outside the sandbox; review: ${JSON.stringify(result.review)}`,
    );
  });
});
