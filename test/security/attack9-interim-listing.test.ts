// Attack (round 9): an interim review that lists the user's folders through a link the command swaps in.
// readChangeSet walks the layer with opendir(join(upper, folder)) and entryOf lstat(join(upper, path)): the
// folders on the way are followed. While a background command runs, it swaps a folder `a` of its layer (listed
// as a folder a moment before) for a link to a host path (renameat2 RENAME_EXCHANGE of `a` and `b -> ~/clients/acme`):
// the review then lists the user's real folder as if it were part of the change set, and tells the model and the
// notification every path there it holds (`b/.env.acme-prod-db`: "a protected file"), names the sandbox hides.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const SECRET_NAME = '.env.acme-prod-db';

describe('attack: the home folder listed by an interim review through a swapped link', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, 'clients', 'acme'), { recursive: true });
    await writeFile(join(fixture.home, 'clients', 'acme', SECRET_NAME), 'DB_PASSWORD=hunter2\n');
  });
  after(async () => {
    execFileSync('chmod', ['-R', 'u+rwx', fixture.base]);
    await fixture.remove();
  });

  test("no name from the user's home folder reaches the review's report", async () => {
    const line =
      `mkdir a; : > a/f; ln -s ${join(fixture.home, 'clients', 'acme')} b; ` +
      // renameat2(RENAME_EXCHANGE): `a` flips between a folder and a link many times a millisecond.
      `/usr/bin/python3 -c 'import ctypes,time\nlibc=ctypes.CDLL(None,use_errno=True)\nend=time.time()+5\n` +
      `while time.time()<end:\n  libc.renameat2(-100,b"a",-100,b"b",2)'; sleep 60`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    const told: string[] = [];
    const started = Date.now();
    let reviews = 0;
    while (Date.now() - started < 5_500 && !told.some((path) => path.endsWith(SECRET_NAME))) {
      const rollback = await watch.review!(never).catch(() => undefined);
      for (const entry of rollback?.moved ?? []) told.push(entry.path);
      for (const entry of rollback?.failed ?? []) told.push(entry.path);
      reviews++;
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never).catch(() => undefined);
    for (const held of fixture.held) for (const entry of held.rollback.moved) told.push(entry.path);
    const leaked = told.filter((path) => path.includes(SECRET_NAME));
    assert.deepEqual(
      leaked,
      [],
      `after ${reviews} interim review(s) the review listed the user's home folder through a swapped link (a <-> b -> ${join(fixture.home, 'clients', 'acme')}) ` +
        `and reported ${JSON.stringify(leaked.slice(0, 10))}`,
    );
  });
});
