// Attack (round 11): the Makefile make reads with `-C dir` (or `--directory=dir`, or a recipe's `$(MAKE) -C dir`).
// hookPrograms.ts reads the Makefile when a text runs make, but only in the folders it knows the text runs from (the
// work tree's top, the text's own folder, a `cd` target): make's `-C tools` is not a `cd`, and `tools` has no `/`
// or `.`, so it is no path either. tools/Makefile is held by its name wherever it is, but it is never read, so what
// its recipes run (`sh ./lint-all`, `python3 check_style.py`) is neither followed nor named. The same for a
// recipe's `$(MAKE) -C tools`: the word there is `MAKE`, not `make`, so even the top Makefile's recursion into
// tools/ is not seen. Recursive make is how most multi-directory Makefiles are written.
// Impact: a sandboxed command rewrites the script tools/Makefile's recipe runs, as an ordinary file; it lands
// unasked, and the user's next `git commit` runs it outside the sandbox with the user's full rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommits } from './harness';

describe('attack: the Makefile of another folder that make runs with -C', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  const commit = userCommits(() => fixture);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'tools'));
    await mkdir(join(fixture.root, 'docs'));
  });
  after(async () => fixture.remove());

  test("a hook runs `make -C tools lint`, tools/Makefile's recipe runs `sh ./lint-all`: a rewritten tools/lint-all runs at the next commit", async () => {
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec make -s -C tools lint\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'tools', 'Makefile'), 'lint:\n\t@sh ./lint-all\n');
    await writeFile(join(fixture.root, 'tools', 'lint-all'), 'echo lint ok\n');
    const marker = join(fixture.base, 'make-C-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > tools/lint-all`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `tools/lint-all (what tools/Makefile's lint recipe runs, which .git/hooks/pre-commit's \`make -C tools lint\` runs) landed rewritten, ` +
        `unapplied, and the user's commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a hook runs `make check`, the top Makefile recurses with `$(MAKE) -C docs check`: a rewritten docs/check-links runs at the next commit', async () => {
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec make -s check\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'Makefile'), 'check:\n\t@$(MAKE) -s -C docs check\n');
    await writeFile(join(fixture.root, 'docs', 'Makefile'), 'check:\n\t@sh ./check-links\n');
    await writeFile(join(fixture.root, 'docs', 'check-links'), 'echo links ok\n');
    const marker = join(fixture.base, 'make-recursive-ran');
    const result = await fixture.run(`printf 'echo escaped > ${marker}\\n' > docs/check-links`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await commit();
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `docs/check-links (what docs/Makefile's recipe runs, reached by the top Makefile's \`$(MAKE) -C docs check\`, which .git/hooks/pre-commit's ` +
        `\`make check\` runs) landed rewritten, unapplied, and the user's commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; ` +
        `review: ${JSON.stringify(result.review)}`,
    );
  });
});
