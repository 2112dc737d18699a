// Attack (round 10): an interim review that answers "is there a repository at this path of your home folder?".
// Round 9 pinned the listing of the change set (each folder opened beneath the layer, each entry lstat'ed through
// that handle). repositoryFacts then looks again at every changed folder by its path in the layer:
// isGitDirectory(join(upper, path)) and isPythonEnvironment's lstat(join(upper, path, 'pyvenv.cfg')), which follow
// a link the command swapped in for the folder since the listing. A background command that flips a folder `a`
// (holding one plain file) with a link `b -> ~/work/acme-merger/.git` gets `a` reported held as "a Git repository"
// exactly when that path of the user's home folder is one: the sandbox hides the home folder, the review
// answers for it (a name the user's folders hold, one guess at a time).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: an interim review probes the home folder through a swapped link', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, 'work', 'acme-merger'), { recursive: true });
    await runOutside('git', ['-C', join(fixture.home, 'work', 'acme-merger'), 'init', '-q']);
  });
  after(async () => {
    execFileSync('chmod', ['-R', 'u+rwx', fixture.base]);
    await fixture.remove();
  });

  test('no held reason depends on what the home folder holds', async () => {
    const target = join(fixture.home, 'work', 'acme-merger', '.git');
    // Fresh pairs every 100 ms: a name the review already told of (as a link, say) is not told again.
    const line =
      `/usr/bin/python3 -c 'import ctypes,os,time\nlibc=ctypes.CDLL(None,use_errno=True)\nend=time.time()+12\nk=0\n` +
      `while time.time()<end:\n  a=b"a%d"%k; b=b"b%d"%k; os.mkdir(a); open(a+b"/f","w").close(); os.symlink(${JSON.stringify(target)}, b)\n` +
      `  stop=time.time()+0.1\n  while time.time()<stop:\n    libc.renameat2(-100,a,-100,b,2)\n  k+=1'; sleep 60`;
    const watch = (await fixture.guard.watch(never))!;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    const told: { path: string; reason?: string }[] = [];
    const started = Date.now();
    let reviews = 0;
    const leaked = () => told.filter((entry) => /Git repository/.test(entry.reason ?? ''));
    while (Date.now() - started < 12_500 && leaked().length === 0) {
      const rollback = await watch.review!(never).catch(() => undefined);
      for (const entry of rollback?.moved ?? []) told.push({ path: entry.path, reason: (entry as { reason?: string }).reason });
      reviews++;
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never).catch(() => undefined);
    assert.deepEqual(
      leaked(),
      [],
      `after ${reviews} interim review(s) the review told the model that ${leaked()
        .map((entry) => entry.path)
        .join(', ')} (a folder with one plain file, ` +
        `flipped with a link to ${target}) is ` +
        `"a Git repository": it looked through the link into the user's home folder, which the sandbox hides`,
    );
  });
});
