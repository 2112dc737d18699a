// Attack (round 11): the review, which runs with the user's full rights, reads the hidden home folder for the
// command and answers through what it holds.
// Inside the sandbox ~/.ssh is covered and the home folder emptied. But the review follows what the layer's version
// of a hook-run script names (hookPrograms.ts: both views are read), and a word such as `../../.ssh/config`
// is resolved from the work tree's top to the real ~/.ssh/config — outside the workspace, so read "as it is",
// following links, with no check against the home folder, the protected files or the credential list. Every
// `name.ext` word of that secret file (host names, IP addresses, account names with a dot) becomes a name held
// "wherever it is". The command plants candidate files (here the 256 addresses of a /24; 99,999 fit in one
// change set) and the review's answer — which of them were held, told to the model with the reason — is the
// secret's content. The same works for ~/.kube/config, ~/.netrc, ~/.git-credentials' hosts, ~/.aws/config…
// Impact: the sandboxed command learns what the sandbox hides from it (a read of the user's credential files);
// with the network allowed, or simply through the model, it leaves.
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: the review reads the hidden home folder and answers through what it holds', async () => {
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

  test("the hidden ~/.ssh/config's HostName is learned from which planted names the review holds", async () => {
    const command = [
      // The sandbox itself cannot read it.
      'if cat ../../.ssh/config 2>/dev/null | grep -q HostName; then echo READABLE-INSIDE; fi',
      `printf 'sh ../../.ssh/config\\n' > scripts/check.sh`,
      'mkdir probe && for i in $(seq 0 255); do : > probe/10.20.30.$i; done',
    ].join('; ');
    const result = await fixture.run(command);
    assert.equal(result.exitCode, 0, result.output);
    assert.doesNotMatch(result.output, /READABLE-INSIDE/, 'the sandbox itself read ~/.ssh/config: a different failure');
    const heldProbes = JSON.stringify(result.review)
      .match(/probe\/10\.20\.30\.\d+/g)
      ?.filter((path, index, all) => all.indexOf(path) === index);
    assert.deepEqual(
      heldProbes ?? [],
      [],
      `the review held ${JSON.stringify(heldProbes)} of 256 planted names, which tells the command the HostName in the hidden ~/.ssh/config; ` +
        `review: ${JSON.stringify(result.review).slice(0, 500)}`,
    );
  });
});
