// Attack (round 11): a hook that runs every script of a folder through a shell glob.
// `for check in scripts/checks/*.sh; do sh "$check"; done` (or `scripts/pre-commit.d/*`, the hooks.d pattern many
// projects use to split a hook) names its files by a pattern. hookPrograms.ts's cleanTail keeps only the part of a
// word after its last component holding `*`, `?`, `[`, `$`…: for `scripts/checks/*.sh` that is nothing, and
// namedPath returns at once — not even the folder the glob lists is added (a folder named plainly,
// `run-parts scripts/checks`, would be held whole). No `name.ext` word is there either, so no name is held. Brace
// expansion is the same: `scripts/{lint,format}.sh` has a `{` component, and `format}.sh` is no `name.ext` word.
// Impact: a sandboxed command adds scripts/checks/zz-extra.sh (an ordinary, non-executable file: `sh` runs it) or
// rewrites an existing check; it lands unasked and the user's next `git commit` runs it outside the sandbox with
// the user's full rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommits } from './harness';

describe('attack: the scripts a hook runs through a glob', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  const commit = userCommits(() => fixture);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'scripts', 'checks'), { recursive: true });
    await mkdir(join(fixture.root, 'scripts', 'pre-commit.d'), { recursive: true });
  });
  after(async () => fixture.remove());

  test('a hook runs `for check in scripts/checks/*.sh; do sh "$check"; done`: a new scripts/checks/zz-extra.sh runs at the next commit', async () => {
    const hook = '#!/bin/sh\nfor check in scripts/checks/*.sh; do\n  sh "$check" || exit 1\ndone\n';
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), hook, { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'scripts', 'checks', 'lint.sh'), 'echo lint ok\n');
    const marker = join(fixture.base, 'glob-sh-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > scripts/checks/zz-extra.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `scripts/checks/zz-extra.sh (in the folder .git/hooks/pre-commit's glob runs) landed, unapplied, and the user's commit ran it outside the ` +
        `sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a hook sources `scripts/pre-commit.d/*`: a rewritten scripts/pre-commit.d/10-format runs at the next commit', async () => {
    const hook = '#!/bin/sh\nfor part in "$(git rev-parse --show-toplevel)"/scripts/pre-commit.d/*; do\n  . "$part"\ndone\n';
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), hook, { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'scripts', 'pre-commit.d', '10-format'), 'echo format ok\n');
    const marker = join(fixture.base, 'glob-dot-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > scripts/pre-commit.d/10-format`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `scripts/pre-commit.d/10-format (sourced by .git/hooks/pre-commit's glob) landed rewritten, unapplied, and the user's commit ran it outside ` +
        `the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
  test('a hook runs `for part in scripts/{lint,format}.sh; do sh "$part"; done` (brace expansion): a rewritten scripts/format.sh runs at the next commit', async () => {
    const hook = '#!/bin/bash\nfor part in scripts/{lint,format}.sh; do\n  sh "$part" || exit 1\ndone\n';
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), hook, { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'scripts', 'lint.sh'), 'echo lint ok\n');
    await writeFile(join(fixture.root, 'scripts', 'format.sh'), 'echo format ok\n');
    const marker = join(fixture.base, 'brace-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > scripts/format.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `scripts/format.sh (named by .git/hooks/pre-commit's brace expansion scripts/{lint,format}.sh) landed rewritten, unapplied, and the user's ` +
        `commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
