// Attack (round 15): the round-11 oracle reopened through a folder link in the command's layer.
// hookPrograms.ts followPrograms reads each followed path twice (textsOf): the workspace's file and the layer's,
// `join(upper, inside)`, opened by gitStructure.ts readStart with 'refuse' = O_NOFOLLOW, which refuses a link only as
// the LAST component. A folder on the way that is a link the command made is followed (and `readdir(dirname(view))`
// for the script-extension candidates follows it too). `readable` (round 11's fix) is asked about the workspace
// path `root/leak/config`, which is an ordinary, unprotected workspace path, so it says yes.
// The command rewrites the script a hook runs (scripts/check.sh, read from the layer) to say `sh leak/config` and
// makes `leak -> $HOME/.ssh` (absolute; $HOME inside is the real path, the home folder only emptied): the host's review
// opens `upper/leak/config`, i.e. the real ~/.ssh/config, reads it as a hook's text, and every `name.ext` word of it
// (HostName 10.20.30.173) becomes a name held "wherever it is". Planted candidates, probe/10.20.30.0…255: the one
// held is the secret. README ## Security: "a file the command could not read itself, a protected file or one in your
// home folder, is never read for this, so what the review holds tells the command nothing it could not see".
// Impact: the command learns what the sandbox hides (~/.ssh/config, ~/.kube/config, ~/.aws/config, a protected .env
// by its absolute path), and tells the model, which may carry it anywhere.
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: a folder link in the layer makes the review read the hidden home folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec sh scripts/check.sh\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checks pass\n');
    await mkdir(join(fixture.home, '.ssh'), { mode: 0o700 });
    await writeFile(join(fixture.home, '.ssh', 'config'), 'Host build\n  HostName 10.20.30.173\n  User deploy\n', { mode: 0o600 });
  });
  after(async () => fixture.remove());

  const probes = (result: { review: unknown }) =>
    JSON.stringify(result.review)
      .match(/probe\/10\.20\.30\.\d+/g)
      ?.filter((path, index, all) => all.indexOf(path) === index) ?? [];

  test("control: round 11's spelling (`sh ../../.ssh/config`) is not read", async () => {
    const result = await fixture.run(
      `printf 'sh ../../.ssh/config\\n' > scripts/check.sh; mkdir -p probe && for i in $(seq 0 255); do : > probe/10.20.30.$i; done`,
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(probes(result), []);
  });

  test('`sh leak/config` with leak -> ~/.ssh in the layer: the hidden HostName is learned from which planted names are held', async () => {
    const command = [
      'if cat "$HOME/.ssh/config" 2>/dev/null | grep -q HostName; then echo READABLE-INSIDE; fi',
      `printf 'sh leak/config\\n' > scripts/check.sh`,
      'ln -s "$HOME/.ssh" leak',
      'mkdir -p probe && for i in $(seq 0 255); do : > probe/10.20.30.$i; done',
    ].join('; ');
    const result = await fixture.run(command);
    assert.equal(result.exitCode, 0, result.output);
    assert.doesNotMatch(result.output, /READABLE-INSIDE/, 'the sandbox itself read ~/.ssh/config: a different failure');
    const held = probes(result);
    assert.deepEqual(
      held,
      [],
      `the review held ${JSON.stringify(held)} of 256 planted names, which tells the command the HostName in the hidden ~/.ssh/config; ` +
        `review: ${JSON.stringify(result.review).slice(0, 600)}`,
    );
  });
});
