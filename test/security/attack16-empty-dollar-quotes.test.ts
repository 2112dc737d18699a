// Attack (round 16): a hook splits its script's name with an expansion that is empty: bash's empty ANSI-C string `$''`,
// an empty locale string `$""`, or an empty command substitution `$(:)`: `bash tools/li$''nt.sh` runs tools/lint.sh
// (checked: `echo tools/li$''nt.sh tools/fm$""t.sh tools/ch$(:)eck.sh` prints tools/lint.sh tools/fmt.sh tools/check.sh).
// Why it works: src/terminal/node/shellEscapes.ts shellUnescaped returns a text with no backslash unchanged, so its
// `$'…'` decoding never runs; src/terminal/node/gitStructure.ts pathLikeWords drops the quotes and splits at `$`, `(`, `)`:
// the words are `tools/li` and `nt.sh` (`tools/fm`, `t.sh`; `tools/ch`, `eck.sh`); hookPrograms.ts completedAsGlob
// (which holds a folder whole for `scripts/$c.sh`) only knows `$name`, `${…}`, `$1`. No word names tools/lint.sh and no
// folder is held whole.
// README: "a file whose name a hook mentions however it spells the path … a path spelled with an escape the shell removes
// … read as the shell reads it"; "a name completed from a variable, `sh "scripts/$c.sh"`, holds its folder whole".
// Control: the same hook's `bash tools/plain.sh` holds tools/plain.sh.
// Impact: the three scripts land rewritten unasked; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

const SCRIPTS = ['lint', 'fmt', 'check'];

describe('attack: a hook path split by an empty $-expansion', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(
      hook,
      `#!/bin/bash\nbash tools/plain.sh || exit 1\nbash tools/li$''nt.sh || exit 1\nbash tools/fm$""t.sh || exit 1\nbash tools/ch$(:)eck.sh || exit 1\n`,
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

  test('tools/lint.sh, tools/fmt.sh and tools/check.sh rewritten are held', async () => {
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
