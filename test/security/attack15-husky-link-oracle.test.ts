// Attack (round 15): the review reads the hidden home folder through a link the command puts in husky's folder, and
// answers through what it holds (the round-11 oracle, by another road).
// runnerConfigs.ts textsOf reads a runner config that is a folder (husky's `.husky`, and its `_` folder) from the
// command's layer too: `readdir(upper/.husky)` and then wholeText → gitStructure.ts readStart(path, …, 'follow') for
// each entry. Only the config's own path is lstat'ed; the folder's entries are opened FOLLOWING links, and the
// folder `_` is listed through a link. A command that adds `.husky/notes -> $HOME/.ssh/config` (absolute: the
// link is opened where the layer keeps it; $HOME inside is the real path) or makes `.husky/_` a link to `~/.ssh` gets, in the host's review (full user rights), the real ~/.ssh/config read as a
// husky hook: hookPrograms.ts mentionedBy adds every `name.ext` word of it (host names, IP addresses) to the names
// held "wherever it is", and every bare word is looked up. hookPrograms.ts followPrograms has a `readable` check for
// exactly this (round 11: "a file the command could not read itself, a protected file or one in your home folder, is
// never read for this, so what the review holds tells the command nothing it could not see" — README ## Security),
// but runnerConfigs.ts reads its configs' files with no such check and through links.
// The command plants candidate files (the 256 addresses of a /24) and the review's answer — which of them were held,
// told to the model with the reason — is the secret's content.
// Precondition: the workspace has a `.husky` folder (any project using husky). No git repository needed.
// Impact: the sandboxed command learns what the sandbox hides (any file readable to the user: ~/.ssh/config,
// ~/.kube/config, ~/.aws/config, ~/.netrc hosts; a protected `.env` by its absolute path too).
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe("attack: a link in husky's folder makes the review read the hidden home folder", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, '.husky'));
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'npx --no-install lint-staged\n', { mode: 0o755 });
    await mkdir(join(fixture.home, '.ssh'), { mode: 0o700 });
    await writeFile(join(fixture.home, '.ssh', 'config'), 'Host build\n  HostName 10.20.30.173\n  User deploy\n', { mode: 0o600 });
  });
  after(async () => fixture.remove());

  const probes = (result: { review: unknown }) =>
    JSON.stringify(result.review)
      .match(/probe\/10\.20\.30\.\d+/g)
      ?.filter((path, index, all) => all.indexOf(path) === index) ?? [];

  test('control: the same planted names with no link are not held', async () => {
    const result = await fixture.run('mkdir -p probe && for i in $(seq 0 255); do : > probe/10.20.30.$i; done');
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(probes(result), []);
    await fixture.run('rm -rf probe');
  });

  test('a link .husky/notes -> ~/.ssh/config: the hidden HostName is learned from which planted names are held', async () => {
    const command = [
      'echo "home inside: $HOME"',
      'if cat "$HOME/.ssh/config" ../../.ssh/config 2>/dev/null | grep -q HostName; then echo READABLE-INSIDE; fi',
      // Absolute: the review opens the link where the layer keeps it, outside the workspace. $HOME inside is the real path.
      'ln -s "$HOME/.ssh/config" .husky/notes',
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

  test("a link .husky/_ -> ~/.ssh: husky's `_` folder is listed through it and its files read", async () => {
    const result = await fixture.run(
      'rm -f .husky/notes; ln -s "$HOME/.ssh" .husky/_; mkdir -p probe && for i in $(seq 0 255); do : > probe/10.20.30.$i; done',
    );
    assert.equal(result.exitCode, 0, result.output);
    const held = probes(result);
    assert.deepEqual(held, [], `the review held ${JSON.stringify(held)} of 256 planted names (read through .husky/_ -> ~/.ssh)`);
  });
});
