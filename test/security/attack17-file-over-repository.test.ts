// Attack (round 17): a file put where a folder was removes that folder, a repository in it too, unasked.
// README (Security): "A deletion that would remove a repository, or a folder too large to look through, is held too."
// changeLayer.ts looks at what a removal would take (removalOf: a `.git`, `.hg`, `.sl` or a bare layout inside,
// a tree too large, something changed while the command ran) only for a deletion (a whiteout) or an opaque folder.
// A command that removes a folder and makes a file of the same name leaves neither in its layer: overlayfs keeps a
// plain file in `upper` at that name, which hides the folder below by itself. The review reads an ordinary file
// (kind 'file', existed: true), never looks at the folder it replaces, and landInto's 'file' case runs
// `rm(target, { recursive: true, force: true })` on the workspace's folder before moving the file in.
// So `rm -rf vendor/lib && echo x > vendor/lib` deletes the nested repository vendor/lib (its .git, its commits,
// its stashes, whatever was never pushed) with nothing held and nothing asked.
// Control: `rm -rf vendor/lib` alone is held (removes-repository).
import assert from 'node:assert/strict';
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: a file replaces a folder that holds a repository', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture | undefined;
  let nested: string;
  const gitIn = (folder: string, args: string[]) =>
    runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: fixture!.home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  beforeEach(async () => {
    await fixture?.remove();
    fixture = await makeFixture();
    nested = join(fixture.root, 'vendor', 'lib');
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, 'work.txt'), 'a week of unpushed work\n');
    assert.equal((await gitIn(nested, ['init', '-q'])).code, 0);
    assert.equal((await gitIn(nested, ['add', '.'])).code, 0);
    assert.equal((await gitIn(nested, ['commit', '-q', '-m', 'unpushed'])).code, 0);
  });
  after(async () => fixture?.remove());

  test('control: removing the folder is held', async () => {
    const result = await fixture!.run('rm -rf vendor/lib');
    assert.equal(result.exitCode, 0, result.output);
    assert.ok(await lstat(join(nested, '.git')).catch(() => undefined), `control: the repository was removed; review: ${JSON.stringify(result.review)}`);
  });

  test('replacing the folder with a file is held', async () => {
    const result = await fixture!.run('rm -rf vendor/lib && echo x > vendor/lib');
    assert.equal(result.exitCode, 0, result.output);
    const there = await lstat(join(nested, '.git')).catch(() => undefined);
    assert.ok(there, `the nested repository vendor/lib (its .git and commits) was removed unasked; review: ${JSON.stringify(result.review)}`);
  });
});
