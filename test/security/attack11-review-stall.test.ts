// Attack (round 11): a text the review reads that stalls the extension host for seconds per file.
// mentionedBy (hookPrograms.ts) reads every `cd <word>` of a text and, for each one, spreads the whole set of
// folders gathered so far (`[...folders].slice(0, 20)`) and adds up to 20 new ones: with distinct targets
// (`cd a0`, `cd a1`, …) the set grows by 20 a line and each line copies all of it, quadratic in the lines. 64 KB of
// `cd aN` lines (the read bound of each text) is ~8,000 lines, 160,000 folders and ~6·10^8 copies: about 9 s of
// SYNCHRONOUS work on this project's machine, in one call, the extension host's event loop blocked throughout.
// The texts read are the command's own: the layer's version of every file a hook or runner config runs (the
// review reads both views), and the files those name, up to 200 files. So with any existing hook that runs any
// workspace script, the command rewrites that script (held, it does not care) to name up to 200 new files of its
// own, each a 64 KB `cd` bomb: 200 × 9 s of frozen extension host. No deadline covers repositoryFacts (the 20 s
// bound is only checked while the change set is read), so the review never gives up either.
// Impact: the editor (every extension, the chat, the terminal) freezes for seconds at a time, for as long as half an
// hour per command; the README's "20 s of review, the whole change set waits" does not hold.
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe("attack: a hook-run script's text that stalls the review", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec sh scripts/check.sh\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checks pass\n');
  });
  after(async () => fixture.remove());

  test('two 64 KB texts of `cd aN` lines block the event loop for seconds and the review past its 20 s bound', async () => {
    // check.sh (what the hook runs) names two new files, each 64 KB of distinct `cd` lines and no path (a path word
    // there would be resolved from all 160,000 folders and end the review early, every entry held: still a stall).
    const bomb = (file: string) => `for i in $(seq 0 7999); do echo "cd a$i"; done | head -c 65000 > ${file}`;
    const command = [`printf '%s\\n' 'sh scripts/more1.sh scripts/more2.sh' > scripts/check.sh`, bomb('scripts/more1.sh'), bomb('scripts/more2.sh')].join('; ');
    let worst = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      worst = Math.max(worst, now - last - 50);
      last = now;
    }, 50);
    const started = Date.now();
    const result = await fixture.run(command, { timeoutMs: 60_000 });
    const took = Date.now() - started;
    clearInterval(ticker);
    assert.equal(result.exitCode, 0, result.output);
    assert.ok(
      worst < 2000 && took < 20_000,
      `the review of two 64 KB texts blocked the extension host's event loop for ${worst} ms at once and took ${took} ms in all ` +
        `(the README's bound: 20 s); review: ${JSON.stringify(result.review).slice(0, 300)}`,
    );
  });
});
