// Attack (round 11): the programs a Git config runs are held one step, never followed like a hook's.
// gitStructure.ts holds every path-like word of every config value (`filter.strip.clean = sh tools/clean.sh` holds
// tools/clean.sh), but unlike the hooks these values are never handed to hookPrograms.ts: what tools/clean.sh runs
// in turn (`exec node tools/strip.js`) is neither resolved nor named. A clean filter runs implicitly on every
// `git add`, `git status` and `git diff` of a matching file (as do textconv drivers, fsmonitor, a smudge filter at
// checkout) — the implicit programs are exactly the ones that matter, and workspace-local filters that strip
// notebooks or secrets through a small wrapper are common.
// Impact: a sandboxed command rewrites tools/strip.js as an ordinary file; it lands unasked, and the user's next
// `git add` of a notebook runs it outside the sandbox with the user's full rights.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Fixture, gitOutside, makeFixture, sandboxHere } from './harness';

describe("attack: what a Git config's filter program runs in turn", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
    await git(['config', 'filter.strip.clean', 'sh tools/clean.sh']);
    await git(['config', 'filter.strip.smudge', 'cat']);
    await writeFile(join(fixture.root, '.gitattributes'), '*.ipynb filter=strip\n');
    await mkdir(join(fixture.root, 'tools'));
    await writeFile(join(fixture.root, 'tools', 'clean.sh'), 'exec node tools/strip.js\n');
    await writeFile(join(fixture.root, 'tools', 'strip.js'), 'process.stdin.pipe(process.stdout);\n');
  });
  after(async () => fixture.remove());

  test('`filter.strip.clean = sh tools/clean.sh`, clean.sh runs `node tools/strip.js`: a rewritten strip.js runs at the next `git add`', async () => {
    const marker = join(fixture.base, 'filter-chain-ran');
    const result = await fixture.run(
      `printf 'require("fs").writeFileSync(%s, "escaped"); process.stdin.pipe(process.stdout);\\n' '${JSON.stringify(marker)}' > tools/strip.js`,
    );
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture.root, 'analysis.ipynb'), '{"cells": []}\n');
    const added = await git(['add', 'analysis.ipynb']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `tools/strip.js (what tools/clean.sh, the repository's clean filter, runs) landed rewritten, unapplied, and the user's \`git add\` ran it ` +
        `outside the sandbox; git add: ${JSON.stringify(added)}; review: ${JSON.stringify(result.review)}`,
    );
  });
});
