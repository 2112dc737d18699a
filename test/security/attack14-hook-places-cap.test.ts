// Attack (round 14): past 24 folders a hook's `cd` leads to, a later `cd tools && sh check` is not read from tools.
// hookPrograms.ts mentionedBy collects the folders a text's words are resolved from: the places given and the tops,
// and every folder a `cd x`, `pushd x`, `make -C x`, `--prefix x` leads to, at most MAX_PLACES (24): past that it
// `break`s silently (no ConfigTooLarge). A bare word (`sh check`: namedFiles.ts bareWords) is looked up only in those
// folders (resolvePending), and unlike a path-like word it adds no name held wherever it is. A monorepo hook that visits
// its packages (`(cd packages/p1 && npx lint-staged)` …) fills the 24 places before the line `cd tools && sh check`,
// so tools/check is never looked up: an ordinary file to the review. The README promises "`cd scripts && ./check`,
// also held by that name wherever it is; a bare word that is a file where the text runs, `sh lint` → `./lint`", "the
// folders a `cd` … leads to", and that nothing lands unchecked because of a bound.
// Control: the same hook without the package lines holds tools/check.
// Impact: tools/check lands rewritten and runs outside the sandbox at the user's next commit.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: a hook past 24 cd folders', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, packages: number) => {
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    const lines = ['#!/bin/sh'];
    for (let index = 1; index <= packages; index++) lines.push(`(cd packages/p${index} && npx --no-install lint-staged) || true`);
    lines.push('cd tools && sh check || exit 1', '');
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, lines.join('\n'));
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await writeFile(join(fixture.root, 'tools', 'check'), 'echo check\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, 0);
    await plant(attack, 30);
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = `echo 'id > /tmp/owned' > tools/check`;

  test('control: a hook with no package lines holds tools/check', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(control.root, 'tools', 'check'), 'utf8'), 'echo check\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('the same line after 30 package lines still holds tools/check', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(
      await readFile(join(attack.root, 'tools', 'check'), 'utf8'),
      'echo check\n',
      `tools/check (the hook's \`cd tools && sh check\`) landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
