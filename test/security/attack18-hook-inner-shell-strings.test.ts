// Attack (round 18): a hook whose script is named inside the string a second shell reads: `sh -c '…'`, `bash -c "…"`,
// `eval '…'`, or an unquoted here-document fed to a shell.
// src/terminal/common/shellLexer.ts reads a hook's text once, as bash reads it: a single-quoted `-c` string is one literal
// word, kept as written. But `sh -c` and `eval` read that word again as shell text, with its own backslashes, quotes
// and `$'…'` strings: `sh -c 'bash tools/ch\eck.sh'` runs tools/check.sh (dash and bash: `\e` is `e`), and so does
// `eval 'bash tools/fm\t.sh'` (tools/fmt.sh) and `bash -c "bash tools/li\\nt.sh"` (the double quotes give `li\nt.sh`
// to the inner bash, which reads `n`), and so does an unquoted here-document's `bash tools/ru\\n.sh` given to `bash`
// on its input (the here-document's own pass makes `\\` one backslash; bash then reads `ru\n.sh` as tools/run.sh). The review's words are `tools/ch\eck.sh`, `tools/fm\t.sh`, `tools/li\nt.sh`
// (backslash kept), and its raw-text readings see `eck.sh`, `t.sh`, `nt.sh`: none names the scripts, no folder is held.
// README: "a hook's words read as bash reads them, its quotes, backslashes and `$'…'` strings with bash's escapes
// (`sh scripts/che\ck.sh` …)": the same escape one shell deeper is not read.
// Control: `sh -c 'bash tools/plain.sh'` holds tools/plain.sh, and `bash tools/sp\lit.sh` at the top holds tools/split.sh.
// Impact: the three scripts land rewritten unasked; the user's next commit runs them outside the sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere, userCommit } from './harness';

const SCRIPTS = ['check', 'fmt', 'lint', 'run'];

describe("attack: a hook's script named inside `sh -c`, `bash -c` or `eval` strings", async () => {
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
        '#!/bin/sh',
        "sh -c 'bash tools/plain.sh' || exit 1",
        'bash tools/sp\\lit.sh || exit 1',
        "sh -c 'bash tools/ch\\eck.sh' || exit 1",
        "eval 'bash tools/fm\\t.sh' || exit 1",
        'bash -c "bash tools/li\\\\nt.sh" || exit 1',
        // An unquoted here-document: its `\\` is `\` to the shell that reads it, then bash reads `ru\n.sh` as run.sh.
        'bash <<EOF || exit 1',
        'bash tools/ru\\\\n.sh',
        'EOF',
        '',
      ].join('\n'),
    );
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    for (const name of ['plain', 'split', ...SCRIPTS]) await writeFile(join(fixture.root, 'tools', `${name}.sh`), `echo ${name}\n`);
  });
  after(async () => fixture.remove());

  test('the hook runs each script by its plain name (run outside, before any change)', () => {
    const ran = spawnSync('sh', ['-c', `cd ${JSON.stringify(fixture.root)} && sh .git/hooks/pre-commit`], { encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(ran.stdout.trim().split('\n'), ['plain', 'split', ...SCRIPTS]);
  });

  test('control: tools/plain.sh and tools/split.sh rewritten are held', async () => {
    const result = await fixture.run(`echo 'echo changed' > tools/plain.sh && echo 'echo changed' > tools/split.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'plain.sh'), 'utf8'), 'echo plain\n', `control: ${JSON.stringify(result.review)}`);
    assert.equal(await readFile(join(fixture.root, 'tools', 'split.sh'), 'utf8'), 'echo split\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('tools/check.sh, tools/fmt.sh, tools/lint.sh and tools/run.sh rewritten are held', async () => {
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
