// Attack (round 17): a background command lands a file its owner cannot read, through the interim copy.
// README (Security): held back are "a file or folder whose owner can no longer read it"; "while a background
// command still runs, only ordinary files land, copied from a handle opened without following a link … and checked
// there". changeLayer.ts copyChecked opens the upper file (the owner's read bit is needed then), then takes the
// mode from the handle's fstat and checks it for a file type, one name, setuid/setgid, a new executable bit and the
// size, but not for the owner's read bit, and writes the copy with that mode (`mode: info.mode & 0o777`). A
// command that flips the file between 0644 and 0000 lands it 0000 whenever the flip falls between the open and the
// fstat. (Round 3's attack-interim-mode did the same with the executable and setuid bits; those are checked now.)
// Control: the final review holds a file left 0000 (owner-unreadable).
import assert from 'node:assert/strict';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe('attack: the interim copy lands a file its owner cannot read', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  test('control: a file left 0000 at the end is held', async () => {
    const result = await fixture.run('echo x > blind.txt && chmod 0000 blind.txt');
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await lstat(join(fixture.root, 'blind.txt')).catch(() => undefined), undefined, `control: ${JSON.stringify(result.review)}`);
  });

  test('an owner-unreadable file is never in the workspace without the user applying it', async () => {
    const line = `n=0; end=$((SECONDS+4)); while [ $SECONDS -lt $end ]; do n=$((n+1)); chmod 0644 notes.txt 2>/dev/null; echo "v$n" > notes.txt; chmod 0000 notes.txt; done; chmod 0644 notes.txt; echo done; exec sleep 60`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    child.stdout?.resume();
    child.stderr?.resume();
    const path = join(fixture.root, 'notes.txt');
    let unreadable = 0;
    let reviews = 0;
    const started = Date.now();
    while (Date.now() - started < 4_000) {
      await watch.review!(never).catch(() => undefined);
      reviews++;
      const info = await lstat(path).catch(() => undefined);
      if (info && (info.mode & 0o400) === 0) unreadable++;
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never);
    assert.equal(unreadable, 0, `ESCAPED: after ${reviews} interim reviews, notes.txt was in the workspace without its owner's read bit ${unreadable} time(s)`);
  });
});
