// Attack B: the interim review of a background command (run at each read of its output) judges an entry of the
// layer by lstat, then copies it in with copyFile, which FOLLOWS a symbolic link. The command is still running, so
// between the two it swaps the ordinary file for a link to a host path: the host (with the user's full rights,
// outside every mount of the sandbox) reads that path and writes it into the workspace as an ordinary file.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const SECRET = 'BEGIN-SECRET-host-only-7c1f0e';

async function everything(folder: string): Promise<string> {
  let all = '';
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) all += await everything(path);
    else if (entry.isFile()) all += await readFile(path, 'utf8').catch(() => '');
  }
  return all;
}

describe('attack: interim review copies through a link swapped in after the judgement', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, '.ssh'), { recursive: true });
    await writeFile(join(fixture.home, '.ssh', 'id_rsa'), `${SECRET}\n`, { mode: 0o600 });
  });
  after(async () => fixture.remove());

  test("a home-folder secret never reaches the workspace through a background command's interim reviews", async () => {
    const target = join(fixture.home, '.ssh', 'id_rsa');
    // Inside: the secret is not readable (home is an empty tmpfs, .ssh covered).
    const line = `cat ${target} 2>/dev/null && echo READABLE-INSIDE; while :; do echo ordinary > .a; mv -f .a leak; ln -sfn ${target} .b; mv -fT .b leak; done`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const started = Date.now();
    let leaked = false;
    let reviews = 0;
    while (Date.now() - started < 20_000 && !leaked) {
      await watch.review!(never).catch(() => undefined);
      reviews++;
      leaked = (await everything(fixture.root)).includes(SECRET);
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never);
    leaked ||= (await everything(fixture.root)).includes(SECRET);
    assert.doesNotMatch(output, /READABLE-INSIDE/);
    assert.ok(!leaked, `ESCAPED after ${reviews} interim review(s): the host copied ${target} into the workspace (${await readdir(fixture.root)})`);
  });
});
