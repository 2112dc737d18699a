// Attack B3: the interim review judges a file's mode by lstat and then copyFile copies the mode the file has at
// copy time; a background command flipping chmod lands a new executable (and setuid) file unasked.
import assert from 'node:assert/strict';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe('attack: interim review copies a mode changed after the judgement', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  test('a new executable or setuid file is never in the workspace without the user applying it', async () => {
    const line = `printf '#!/bin/sh\\necho owned\\n' > run.sh; end=$((SECONDS+4)); while [ $SECONDS -lt $end ]; do chmod 0644 run.sh; printf "#!/bin/sh\\necho owned\\n" > run.sh; chmod 04755 run.sh; done; chmod 0755 run.sh; echo done; exec sleep 60`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    child.stdout?.resume();
    child.stderr?.resume();
    const path = join(fixture.root, 'run.sh');
    const modeNow = async () => ((await lstat(path).catch(() => undefined))?.mode ?? 0) & 0o7777;
    let worst = 0;
    let reviews = 0;
    const started = Date.now();
    while (Date.now() - started < 4_000) {
      await watch.review!(never).catch(() => undefined);
      reviews++;
      worst |= await modeNow();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const review = await watch.settle(never);
    const final = await modeNow();
    assert.ok(
      (worst & 0o7111) === 0 && (final & 0o7111) === 0,
      `ESCAPED after ${reviews} interim review(s): run.sh was in the workspace with mode ${worst.toString(8)}, after the end ${final.toString(8)}; held: ${JSON.stringify(review.moved.map((m) => `${m.path}: ${m.reason}`))}`,
    );
  });
});
