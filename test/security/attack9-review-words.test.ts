// Attack (round 9): the runner-config scan as a way to freeze the extension host.
// runnerConfigs.ts reads the texts of the workspace's known runner configs in the command's layer too: a
// `.husky` folder's 200 files and its `_` folder's 200, 64 KB each. Every path-like word becomes a "pointed at"
// path, with no bound on how many, and judgeChanges then tests every changed entry against every one of them
// (`facts.pointedAt.some(...)`, synchronous, outside the review's 20 s deadline, which only bounds reading the
// change set). A command that writes ~5 MB of distinct `wF/N` words into .husky/ (held, but read anyway) and
// touches a few thousand ordinary files blocks the extension host's event loop far past the 20 s bound.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const FILES = Number(process.env.ATTACK9_WORD_FILES ?? 40);
const CHANGED = Number(process.env.ATTACK9_CHANGED ?? 2000);

describe('attack: a review made endless by runner-config words', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, '.husky'));
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'npx lint-staged\n', { mode: 0o755 });
  });
  after(async () => fixture.remove());

  test('the review does not block the extension host for more than 10 s', { timeout: 600_000 }, async () => {
    // Each file: 64 KB of distinct words "wF/N" (each has a `/`, so each is taken for a path); then CHANGED ordinary files.
    const script =
      `mkdir -p .husky/_ src && for d in .husky .husky/_; do ` +
      `awk -v files=${FILES} -v d="$d" 'BEGIN { for (f = 0; f < files; f++) { out = d "/w" f; s = ""; ` +
      `for (n = 0; length(s) < 65000; n++) s = s "w" f "/" n " "; printf "%s", s > out; close(out) } }'; done && ` +
      `for i in $(seq 1 ${CHANGED}); do echo $i > src/f$i.txt; done`;
    let worst = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 50);
    const started = Date.now();
    try {
      const result = await fixture.run(script, { timeoutMs: 120_000 });
      assert.equal(result.exitCode, 0, result.output);
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - started;
    assert.ok(
      worst < 10_000,
      `one sandboxed command froze the extension host's event loop for ${(worst / 1000).toFixed(1)} s ` +
        `(the run and its review took ${(took / 1000).toFixed(1)} s; the review's own bound is 20 s)`,
    );
  });
});
