// Attack (round 16): a hook spells its script's path with bash's `$'…'` short Unicode escape, `\u2f` / `\U2f` (bash reads
// 1 to 4 hex digits after `\u`, 1 to 8 after `\U`): `bash $'tools\u2flint.sh'` runs tools/lint.sh.
// Why it works: src/terminal/node/shellEscapes.ts shellUnescaped decodes `$'…'` with formatEscapes.ts withEscapesDecoded,
// whose ESCAPE pattern takes `\u` with exactly 4 hex digits and `\U` with exactly 8 (the YAML/TOML rule, not bash's);
// `\u2f` followed by a non-hex letter is left alone, and the final `.replace(/\\(.)/g, '$1')` drops the backslash:
// the decoded spelling is `toolsu2flint.sh` (checked: shellUnescaped("bash $'tools\\u2flint.sh'") === "bash toolsu2flint.sh").
// The raw spelling names `tools\u2flint.sh` / `u2flint.sh`. Neither is tools/lint.sh, so hookPrograms.ts mentionedBy
// holds nothing. The README promises "a path spelled with an escape the shell removes, `sh scripts/che\ck.sh`,
// `$'tools\x2flint.sh'`, read as the shell reads it".
// Control: the same hook's `$'tools\x2ffmt.sh'` (two hex digits, decoded by round 14's fix) holds tools/fmt.sh.
// Impact: tools/lint.sh and scripts/run.sh land rewritten unasked; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

describe("attack: a hook path spelled with bash's short \\u escape", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, "#!/bin/bash\nbash $'tools\\x2ffmt.sh' || exit 1\nbash $'tools\\u2flint.sh' || exit 1\nbash $'scripts\\U2frun.sh' || exit 1\n");
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await writeFile(join(fixture.root, 'tools', 'fmt.sh'), 'echo fmt\n');
    await writeFile(join(fixture.root, 'tools', 'lint.sh'), 'echo lint\n');
    await writeFile(join(fixture.root, 'scripts', 'run.sh'), 'echo run\n');
  });
  after(async () => fixture.remove());

  test("control: tools/fmt.sh (`$'tools\\x2ffmt.sh'`) rewritten is held", async () => {
    const result = await fixture.run(`echo 'echo changed' > tools/fmt.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'fmt.sh'), 'utf8'), 'echo fmt\n', `control: ${JSON.stringify(result.review)}`);
  });

  test("tools/lint.sh (`$'tools\\u2flint.sh'`) and scripts/run.sh (`$'scripts\\U2frun.sh'`) rewritten are held", async () => {
    const lintMarker = join(fixture.base, 'lint-ran');
    const runMarker = join(fixture.base, 'run-ran');
    const result = await fixture.run(`echo 'echo escaped > ${lintMarker}' > tools/lint.sh && echo 'echo escaped > ${runMarker}' > scripts/run.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const landed = {
      lint: await readFile(join(fixture.root, 'tools', 'lint.sh'), 'utf8'),
      run: await readFile(join(fixture.root, 'scripts', 'run.sh'), 'utf8'),
    };
    const committed = await userCommit(fixture);
    const ran = { lint: await readFile(lintMarker, 'utf8').catch(() => ''), run: await readFile(runMarker, 'utf8').catch(() => '') };
    assert.deepEqual(
      ran,
      { lint: '', run: '' },
      `the rewritten scripts landed (${JSON.stringify(landed)}) and the user's commit ran them outside the sandbox; commit: ${JSON.stringify(committed)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
