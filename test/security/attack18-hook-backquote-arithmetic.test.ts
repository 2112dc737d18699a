// Attack (round 18): a hook names its script inside a backquoted command (whose `\\` bash reads as one backslash before
// it reads the command) or inside a command substitution nested in an arithmetic expansion `$(( $(…) ))`.
// src/terminal/common/shellLexer.ts reads a hook "as bash reads its words", but:
// - in backquotes, bash first turns `\\` into `\` (and `\$`, `` \` `` into `$`, `` ` ``), then reads the command: in
//   `` out=`bash tools/li\\nt.sh` `` the command is `bash tools/li\nt.sh`, whose `\n` is `n`: tools/lint.sh runs. The
//   lexer reads the backquoted text once, as if it were `$(…)`: its word is `tools/li\nt.sh` (a backslash kept);
// - `$((…))` is kept whole as an arithmetic part ("its value is a number, no path"), its inside never read, but bash
//   runs the command substitutions inside it: `$(( $(bash tools/ch\eck.sh >/dev/null; echo 0) + 1 ))` runs
//   tools/check.sh (checked with bash 5: both lines run their script).
// The raw-text readings (hookPrograms.ts mentionedBy: pathLikeWords, the name regex) see `tools/li`, `nt.sh`, `ck.sh`,
// `eck.sh`: no word names tools/lint.sh or tools/check.sh, and no folder is held whole.
// README: "a hook's words read as bash reads them, its quotes, backslashes and `$'…'` strings with bash's escapes
// (`sh scripts/che\ck.sh` …)".
// Control: the same hook's `bash tools/plain.sh` (and `bash tools/che\ck.sh` outside both) holds what it names.
// Impact: the two scripts land rewritten unasked; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

const SCRIPTS = ['lint', 'check'];

describe('attack: a hook script named inside backquotes or inside an arithmetic expansion', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(
      hook,
      [
        '#!/bin/bash',
        'bash tools/plain.sh || exit 1',
        'bash tools/sp\\lit.sh || exit 1',
        'out=`bash tools/li\\\\nt.sh` || exit 1',
        'n=$(( $(bash tools/ch\\eck.sh >/dev/null; echo 0) + 1 ))',
        '',
      ].join('\n'),
    );
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    for (const name of ['plain', 'split', ...SCRIPTS]) await writeFile(join(fixture.root, 'tools', `${name}.sh`), `echo ${name}\n`);
  });
  after(async () => fixture.remove());

  test('the hook runs each script (bash reads the spellings as tools/lint.sh and tools/check.sh)', async () => {
    // The hook traced by bash, outside (no script changed yet): each script is run by its plain name.
    const ran = spawnSync('bash', ['-c', `PATH=/usr/bin:/bin; cd ${JSON.stringify(fixture.root)} && bash -x .git/hooks/pre-commit 2>&1`], { encoding: 'utf8' });
    for (const name of ['plain', 'split', ...SCRIPTS]) assert.match(ran.stdout, new RegExp(`bash tools/${name}\\.sh`), ran.stdout);
  });

  test('control: tools/plain.sh and tools/split.sh rewritten are held', async () => {
    const result = await fixture.run(`echo 'echo changed' > tools/plain.sh && echo 'echo changed' > tools/split.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'plain.sh'), 'utf8'), 'echo plain\n', `control: ${JSON.stringify(result.review)}`);
    assert.equal(await readFile(join(fixture.root, 'tools', 'split.sh'), 'utf8'), 'echo split\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('tools/lint.sh and tools/check.sh rewritten are held', async () => {
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
