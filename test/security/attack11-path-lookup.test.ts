// Attack (round 11): a hook that puts a workspace folder on PATH and runs a program by its bare name.
// `export PATH="$PWD/tools/bin:$PATH"` then `lint-all` (the pattern of repositories that vendor their tool wrappers:
// tools/bin, script/, .bin) runs tools/bin/lint-all. hookPrograms.ts sees neither: `lint-all` has no `/` or `.`, so
// it is no path and no name; and the PATH entry is split at `$`, `=`, quotes… but not at `:`, so its word is
// `./tools/bin:` — resolved to a folder named `bin:` that does not exist, held as the name `bin:`. tools/bin is
// never held, and the existing executable's rewrite keeps its executable bit (wasExecutable), so it lands.
// Impact: a sandboxed command rewrites tools/bin/lint-all; it lands unasked and the user's next `git commit` runs
// it outside the sandbox with the user's full rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere } from './harness';

describe('attack: a program a hook finds on a PATH it extends with a workspace folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'tools', 'bin'), { recursive: true });
  });
  after(async () => fixture.remove());

  test('`export PATH="$PWD/tools/bin:$PATH"; lint-all`: a rewritten tools/bin/lint-all runs at the next commit', async () => {
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexport PATH="$PWD/tools/bin:$PATH"\nexec lint-all\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await writeFile(join(fixture.root, 'tools', 'bin', 'lint-all'), '#!/bin/sh\necho lint ok\n', { mode: 0o755 });
    await chmod(join(fixture.root, 'tools', 'bin', 'lint-all'), 0o755);
    const marker = join(fixture.base, 'path-lookup-ran');
    const result = await fixture.run(`printf '#!/bin/sh\\necho escaped > ${marker}\\n' > tools/bin/lint-all`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'c.txt'), 'x\n');
    await git(['add', 'c.txt']);
    const committed = await git(['commit', '-q', '-m', 'user commit']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `tools/bin/lint-all (what .git/hooks/pre-commit runs by name after putting tools/bin on PATH) landed rewritten, unapplied, and the user's ` +
        `commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
