// A symlink re-pointed between the check and the write, 500 times, by another process that flips the links as fast
// as it can: a race with a real process, so an integration test (moved from test/unit/tools/links.test.ts, whose
// other link tests stay in the unit stage).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { stopFlipper } from '../unit/helpers/linkFlipper';

const signal = new AbortController().signal;
let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tools-links-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(join(root, 'real'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'file.txt'), 'outside\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('a symlink re-pointed while the agent writes', () => {
  // Another process flips `dir` (a folder link) and `f.txt` (a file link) between inside and outside,
  // atomically (rename over the link), as fast as it can, while the port writes through them.
  // Before the write re-checked the opened file, more than a third of these writes landed outside (the port wrote wherever the path led).
  test('500 writes through flipping links never reach outside', async () => {
    const flipper = spawn(
      'bash',
      [
        '-c',
        'while :; do ln -sfn real a; mv -T a dir; ln -sfn ../outside b; mv -T b dir; ln -sfn real/f.txt c; mv -T c f.txt; ln -sfn ../outside/file.txt d; mv -T d f.txt; done',
      ],
      // Its own process group: stopFlipper also ends the `ln` or `mv` it is running, which otherwise could make one more
      // entry while afterEach removes the folder (ENOTEMPTY, 1 run in 6 on a loaded machine).
      { cwd: root, stdio: 'ignore', detached: true },
    );
    try {
      const changes = new NodeFileChanges(root);
      let written = 0;
      for (let i = 0; i < 250; i++) {
        for (const path of ['dir/file.txt', 'f.txt']) {
          try {
            await changes.write(path, `agent ${i}\n`, signal);
            written++;
          } catch (error) {
            assert.match(String(error), /outside the workspace|ENOENT|ELOOP|nothing was written/);
          }
        }
      }
      assert.ok(written > 0, 'some writes went through while the links pointed inside');
    } finally {
      await stopFlipper(flipper);
    }
    assert.equal(await readFile(join(outside, 'file.txt'), 'utf8'), 'outside\n');
    assert.deepEqual(await readdir(outside), ['file.txt']);
  });
});
