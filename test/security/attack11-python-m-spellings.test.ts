// Attack (round 11): `python -m` spelled the way Python also accepts it: `-mtools.lint`, `-Bm tools.lint`.
// hookPrograms.ts follows `python -m tools.lint` to tools/lint.py (and the package's __init__.py) only when the
// word before the module is exactly `-m`. Python's option parser takes `-m` glued to its argument (`-mtools.lint`,
// the spelling pre-commit's own installed hook uses: `exec "$INSTALL_PYTHON" -mpre_commit …`) and glued to other
// flags (`-Bm tools.lint`, no bytecode written; `-um`, `-Sm`). Then `-mtools.lint` is one word with a `.`: taken for a
// file named `-mtools.lint`, and `-Bm` is no `-m`: tools/lint.py is neither a path nor a name the review holds.
// Impact: a sandboxed command rewrites tools/lint.py as an ordinary file; it lands unasked and the user's next
// `git commit` runs it outside the sandbox with the user's full rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommits } from './harness';

describe('attack: python -m spelled as Python also reads it', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  const commit = userCommits(() => fixture);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'tools'));
    await writeFile(join(fixture.root, 'tools', '__init__.py'), '');
  });
  after(async () => fixture.remove());

  for (const [spelling, hookLine] of [
    ['-mtools.lint', 'exec /usr/bin/python3 -mtools.lint'],
    ['-Bm tools.lint', 'exec /usr/bin/python3 -Bm tools.lint'],
  ] as const) {
    test(`a hook runs \`python3 ${spelling}\`: a rewritten tools/lint.py runs at the next commit`, async () => {
      await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hookLine}\n`, { mode: 0o755 });
      await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
      await writeFile(join(fixture.root, 'tools', 'lint.py'), 'print("lint ok")\n');
      // The previous case's bytecode (same size, same second) would run instead of the source: a fresh start.
      await rm(join(fixture.root, 'tools', '__pycache__'), { recursive: true, force: true });
      const marker = join(fixture.base, `python-m-${spelling.replace(/\W/g, '')}-ran`);
      const result = await fixture.run(`printf 'open("${marker}", "w").write("escaped")\\n' > tools/lint.py`);
      assert.equal(result.exitCode, 0, result.output);
      const committed = await commit();
      const ran = await readFile(marker, 'utf8').catch(() => '');
      assert.equal(
        ran,
        '',
        `tools/lint.py (what .git/hooks/pre-commit's \`python3 ${spelling}\` runs) landed rewritten, unapplied, and the user's commit ran it ` +
          `outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
      );
    });
  }
});
