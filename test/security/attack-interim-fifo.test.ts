// Attack B2: the same judge-then-copy window of the interim review, with a FIFO swapped in for the ordinary
// file: the host's copyFile opens the FIFO for reading and blocks for ever (a libuv pool thread with it), so the
// interim review never ends and the final review, queued behind it, never runs either.
import assert from 'node:assert/strict';
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);

describe('attack: interim review opens a FIFO swapped in after the judgement', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  test('the reviews of a background command always end', async () => {
    const line = `while :; do echo ordinary > .a; mv -f .a leak; mkfifo .f; mv -fT .f leak; done`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    child.stdout?.resume();
    child.stderr?.resume();
    let hung = false;
    let reviews = 0;
    const started = Date.now();
    while (!hung && Date.now() - started < 20_000) {
      hung = !(await within(
        5_000,
        watch.review!(never).catch(() => undefined),
      ));
      reviews++;
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const settled = await within(10_000, watch.settle(never));
    // Unblock the host's stuck open (so this test's process can end): a writer on every FIFO left in the layers.
    const layers = join(fixture.base, 'changes-test');
    for (const layer of await readdir(layers).catch(() => [] as string[])) {
      const fifo = join(layers, layer, 'upper', 'leak');
      await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (h) => h.close(),
        () => undefined,
      );
    }
    assert.ok(
      !hung && settled,
      `ESCAPED (host review hang): interim review ${reviews} did not end in 5 s; the final review ${settled ? 'ended' : 'did not end in 10 s either'}`,
    );
  });
});
