// Attack (round 12): a global hook that runs its library in the home folder cuts the chain, and nothing is held.
// The review reads the hooks themselves wherever they are, also the user's global `core.hooksPath` (~/.githooks), but
// never reads another file in the home folder while following what they run (hookPrograms.ts followPrograms: `readable`
// refuses every path in the home folder, so that what is held tells the command nothing of files it cannot see).
// A global dispatcher hook that keeps its logic in a library beside it (`. ~/.githooks/lib.sh`, lib.sh then running
// the repository's own `sh scripts/pre-commit.sh`) is common; the library is skipped, what it names is neither
// pointed at nor held by name, and the whole change set is not held either: the chain simply ends, silently. The
// workspace script the library runs is an ordinary file to the review.
// Impact: a sandboxed command rewrites scripts/pre-commit.sh; it lands unasked and the user's next commit runs it
// outside the sandbox with full rights. (Refusing to read is right for the oracle; landing is not: where a followed
// file cannot be read, what it would name is unknown, and the change set should wait, as past the other bounds.)
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: a global hook whose library lives in the home folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) =>
    runOutside('git', ['-C', fixture.root, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: fixture.home, XDG_CONFIG_HOME: join(fixture.home, '.config'), GIT_CONFIG_NOSYSTEM: '1' },
    });
  before(async () => {
    fixture = await makeFixture();
    const hooks = join(fixture.home, '.githooks');
    await mkdir(hooks, { recursive: true });
    await writeFile(join(fixture.home, '.gitconfig'), `[core]\n\thooksPath = ~/.githooks\n`);
    await writeFile(join(hooks, 'pre-commit'), '#!/bin/sh\n. ~/.githooks/lib.sh\nrun_local pre-commit\n');
    await chmod(join(hooks, 'pre-commit'), 0o755);
    await writeFile(join(hooks, 'lib.sh'), 'run_local() {\n  if [ -f "scripts/$1.sh" ]; then sh "scripts/$1.sh"; fi\n}\n');
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'pre-commit.sh'), 'echo checks pass\n');
  });
  after(async () => fixture.remove());

  test('~/.githooks/pre-commit sources ~/.githooks/lib.sh, which runs scripts/pre-commit.sh: a rewritten one is held', async () => {
    const marker = join(fixture.base, 'home-hook-library-ran');
    const result = await fixture.run(`printf 'echo escaped > %s\\n' '${marker}' > scripts/pre-commit.sh`);
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'a.txt'), 'x\n');
    await git(['add', 'a.txt']);
    const committed = await git(['commit', '-q', '-m', 'user commit']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      "scripts/pre-commit.sh (what the global hook's library in the home folder runs) landed rewritten, unapplied, and the user's commit ran it " +
        `outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
