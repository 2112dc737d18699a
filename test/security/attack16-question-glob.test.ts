// Attack (round 16): a hook names its script with the glob `?`: `bash tools/l?nt.sh`, `for f in tools/check-?.sh`.
// bash expands the pattern to tools/lint.sh and tools/check-a.sh and runs them.
// Why it works: src/terminal/node/gitStructure.ts pathLikeWords cuts every word at its first `#` or `?`
// (`.replace(/[#?].*$/, '')`, meant for a URL's fragment or query), so the words become `tools/l` and `tools/check-`:
// hookPrograms.ts namedPath never sees the `?`, so its glob rule (`/[*?[{]/`: the listed folder held whole) does not apply,
// and the names held are `l`, `check-` and their variants, not lint.sh or check-a.sh.
// README: "a folder a glob or brace expansion lists, `scripts/checks/*.sh`, held whole".
// Control: the same hook's `bash tools/plain.sh` holds tools/plain.sh (`*` globs are held whole, round 9).
// Impact: the scripts land rewritten unasked; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

const SCRIPTS = ['lint', 'check-a'];

describe('attack: a hook path with a ? glob', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(
      hook,
      `#!/bin/bash\nbash tools/plain.sh || exit 1\nbash tools/l?nt.sh || exit 1\nfor f in tools/check-?.sh; do bash "$f" || exit 1; done\n`,
    );
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    for (const name of ['plain', ...SCRIPTS]) await writeFile(join(fixture.root, 'tools', `${name}.sh`), `echo ${name}\n`);
  });
  after(async () => fixture.remove());

  test('control: tools/plain.sh rewritten is held', async () => {
    const result = await fixture.run(`echo 'echo changed' > tools/plain.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'plain.sh'), 'utf8'), 'echo plain\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('tools/lint.sh (`tools/l?nt.sh`) and tools/check-a.sh (`tools/check-?.sh`) rewritten are held', async () => {
    const marker = (name: string) => join(fixture.base, `${name}-ran`);
    const result = await fixture.run(SCRIPTS.map((name) => `echo 'echo escaped > ${marker(name)}' > tools/${name}.sh`).join(' && '));
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = Object.fromEntries(await Promise.all(SCRIPTS.map(async (name) => [name, await readFile(marker(name), 'utf8').catch(() => '')])));
    assert.deepEqual(
      ran,
      Object.fromEntries(SCRIPTS.map((name) => [name, ''])),
      `the rewritten scripts landed and the user's commit ran them outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
