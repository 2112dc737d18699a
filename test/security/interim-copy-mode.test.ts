// Round 17 (finding 6): the interim copy is judged by every rule of the final review on its handle's fstat, and
// written with a mode of the layer's choosing (0644, 0755 for a file already executable in the workspace), never
// wider than the command's own bits for group and others. The review's lstat holds a file that is world-writable
// when it looks; the race is a file made world-writable between that look and the copy's fstat: the old copy
// (`mode: info.mode & 0o777`) then wrote it 0666, which only the host's umask hid (022 usually; not under 0).
import assert from 'node:assert/strict';
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe('the interim copy: judged on its handle, written with a chosen mode', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await writeFile(join(fixture.root, 'tool.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 });
  });
  after(async () => fixture.remove());

  test('private stays private, group-writable lands 0644, executable stays 0755, world-writable waits and is held', async () => {
    // Each file made with its mode from the start (a umask, not a chmod after): an interim review may read it at any
    // moment. open.txt first: once the others are in, it is in the layer too.
    const line = [
      '(umask 000; echo c > open.txt)',
      '(umask 077; echo a > private.txt)',
      '(umask 002; echo b > shared.txt)',
      "printf '#!/bin/sh\\necho new\\n' > tool.sh && chmod 0775 tool.sh",
      'echo done; exec sleep 60',
    ].join('; ');
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    child.stdout?.resume();
    child.stderr?.resume();
    /** The permission bits of a workspace entry, -1 when there is none. */
    const modeOf = async (name: string) => {
      const info = await lstat(join(fixture.root, name)).catch(() => undefined);
      return info ? info.mode & 0o7777 : -1;
    };
    const started = Date.now();
    let modes: Record<string, number> = {};
    // Bounded: 5 s of interim reviews at most, until the three ordinary files are in.
    while (Date.now() - started < 5_000) {
      await watch.review!(never).catch(() => undefined);
      modes = { private: await modeOf('private.txt'), shared: await modeOf('shared.txt'), tool: await modeOf('tool.sh'), open: await modeOf('open.txt') };
      const tool = await readFile(join(fixture.root, 'tool.sh'), 'utf8').catch(() => '');
      if (modes.private >= 0 && modes.shared >= 0 && tool.includes('new')) break;
    }
    const atInterim = { ...modes };
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const review = await watch.settle(never);
    assert.deepEqual(atInterim, { private: 0o600, shared: 0o644, tool: 0o755, open: -1 }, `interim modes ${JSON.stringify(atInterim)}`);
    assert.equal(await modeOf('open.txt'), -1, `the world-writable file landed; review: ${JSON.stringify(review)}`);
    assert.ok(
      review.moved.some((moved) => moved.path === 'open.txt'),
      `open.txt is held: ${JSON.stringify(review.moved)}`,
    );
  });

  test('a file flipped to world-writable after the review looked is not copied in so (host umask 0)', async () => {
    const line = `n=0; end=$((SECONDS+4)); while [ $SECONDS -lt $end ]; do n=$((n+1)); chmod 0644 flip.txt 2>/dev/null; echo "v$n" > flip.txt; chmod 0666 flip.txt; done; chmod 0644 flip.txt; echo done; exec sleep 60`;
    // Without a umask, what the copy is written with is what lands: the old copy's 0666 would show.
    const umask = process.umask(0);
    try {
      const watch = (await fixture.guard.watch(never))!;
      const launch = await fixture.session.launch(
        { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
        never,
      );
      const child = spawnSandboxed(launch, fixture.root);
      child.stdout?.resume();
      child.stderr?.resume();
      let open = 0;
      let reviews = 0;
      const started = Date.now();
      // Bounded: 4 s of interim reviews.
      while (Date.now() - started < 4_000) {
        await watch.review!(never).catch(() => undefined);
        reviews++;
        const info = await lstat(join(fixture.root, 'flip.txt')).catch(() => undefined);
        if (info && (info.mode & 0o002) !== 0) open++;
      }
      process.kill(-child.pid!, 'SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
      await watch.settle(never);
      assert.equal(open, 0, `after ${reviews} interim reviews, flip.txt was in the workspace world-writable ${open} time(s)`);
    } finally {
      process.umask(umask);
    }
  });
});
