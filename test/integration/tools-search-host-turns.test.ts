// Issue 25 (no block of the extension host over 50 ms): ripgrep's listing comes in batches of at most 500 paths,
// and the extension host's event loop goes through its timers between two batches, even when ripgrep wrote them
// in one read (the paths of one read are checked batch after batch; each batch was up to 2,000 paths, and two
// batches ran as one block).
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { RipgrepSearch } from '../../src/tools/node/ripgrep';
import { findRipgrepOnPath } from '../../src/tools/node/ripgrepLocator';
import { putFiles } from '../unit/helpers/workspaceFixture';

const files = 3_000;
let root: string;
before(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'search-host-turns-')));
  await putFiles(root, Object.fromEntries(Array.from({ length: files }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, 'x\n'])));
});
after(() => rm(root, { recursive: true, force: true }));

test('ripgrep lists in batches of at most 500 paths, with a turn of the event loop (its timers) between two', async () => {
  // Installed by `npm run e2e:setup` (Debian's ripgrep package); without it this test fails and says so.
  const rg = findRipgrepOnPath();
  assert.ok(rg, 'ripgrep is not installed: run `npm run e2e:setup` (or apt-get install ripgrep)');
  const search = new RipgrepSearch(rg, root);
  const query = { folder: '.', respectIgnore: true, protectedGlobs: [], excludedGlobs: [] };
  const sizes: number[] = [];
  let timerRan = true;
  for await (const batch of search.listFiles(query, new AbortController().signal)) {
    assert.ok(timerRan, `the host's timers did not run before batch ${sizes.length + 1}`);
    sizes.push(batch.items.length);
    // A timer due at the loop's next timers phase (its 1 ms let pass): it must run before the next batch comes.
    timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const start = performance.now();
    while (performance.now() - start < 3);
  }
  assert.equal(
    sizes.reduce((sum, size) => sum + size, 0),
    files,
  );
  assert.ok(
    sizes.every((size) => size <= 500),
    `batch sizes ${sizes.join(', ')}`,
  );
});
