// Attack (round 16): a hook has a literal `$'` before its real ANSI-C string (`echo '$'` on one line, then
// `bash $'tools\x2flint.sh'`): the review pairs the wrong quotes and never decodes the path.
// Why it works: src/terminal/node/shellEscapes.ts shellUnescaped finds `$'…'` with a bare regular expression,
// /\$'((?:[^'\\]|\\.)*)'/g, over the whole text with no quoting state. The `$'` inside the single-quoted `'$'` opens a
// match that runs to the `$'` of the next line, which it takes as the closing quote; `tools\x2flint.sh'` is then outside any
// match, and the final `.replace(/\\(.)/g, '$1')` turns it into `toolsx2flint.sh` (checked:
// shellUnescaped("echo '$'\nbash $'tools\\x2flint.sh'") === "echo '\nbash $toolsx2flint.sh'"). The raw spelling names
// `x2flint.sh`. bash prints `$` for the first line and runs tools/lint.sh for the second. A `#` comment with an
// apostrophe before a `$'` does the same. Round 14's fix (attack14-hook-backslash-spelling) is bypassed by one line.
// README: "a path spelled with an escape the shell removes, … `$'tools\x2flint.sh'`, read as the shell reads it".
// Control: the same path without the line before it is held (round 14's test).
// Impact: tools/lint.sh lands rewritten unasked; the user's next commit runs it outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe("attack: a literal $' before a hook's ANSI-C path", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, "#!/bin/bash\nsh scripts/fmt.sh || exit 1\necho '$'\nbash $'tools\\x2flint.sh' || exit 1\n");
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'fmt.sh'), 'echo fmt\n');
    await writeFile(join(fixture.root, 'tools', 'lint.sh'), 'echo lint\n');
  });
  after(async () => fixture.remove());

  test('control: scripts/fmt.sh (spelled plainly) rewritten is held', async () => {
    const result = await fixture.run(`echo 'echo changed' > scripts/fmt.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'scripts', 'fmt.sh'), 'utf8'), 'echo fmt\n', `control: ${JSON.stringify(result.review)}`);
  });

  test("tools/lint.sh (`$'tools\\x2flint.sh'` after `echo '$'`) rewritten is held", async () => {
    const marker = join(fixture.base, 'lint-ran');
    const result = await fixture.run(`echo 'echo escaped > ${marker}' > tools/lint.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const committed = await userCommit(fixture);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `tools/lint.sh landed rewritten and the user's commit ran it outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
