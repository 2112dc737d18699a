// Round 17 (finding 2), the cases beside the attack test's repository: an entry put where the workspace has a
// folder is that folder's removal, judged by what the folder holds. An ordinary folder with nothing changed in it
// meanwhile is replaced unasked, as `rm -rf` alone would land; one holding a file the user saved while the command
// ran is held (changed outside), the user's file kept; a link put there is held, and its Apply replaces the folder
// only as the review saw it (stamped by everything in it, not by its being a folder).
import assert from 'node:assert/strict';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const EDIT = 'the user saved this while the command ran\n';

describe('an entry put where a folder was is judged as that folder’s removal', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture | undefined;
  beforeEach(async () => {
    await fixture?.remove();
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'build', 'out'), { recursive: true });
    await writeFile(join(fixture.root, 'build', 'out', 'a.txt'), 'before\n');
  });
  after(async () => fixture?.remove());

  test('an ordinary folder replaced by a file lands', async () => {
    const result = await fixture!.run('rm -rf build && echo x > build');
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture!.root, 'build'), 'utf8'), 'x\n', JSON.stringify(result.review));
  });

  test('a folder holding a file the user saved meanwhile is not replaced unasked', async () => {
    let edited: Promise<void> | undefined;
    const result = await fixture!.run('echo started; sleep 1; rm -rf build && echo x > build; sleep 0.3', {
      onOutput: (text) => {
        if (!edited && text.includes('started')) {
          edited = new Promise((resolve) => setTimeout(resolve, 300)).then(() => writeFile(join(fixture!.root, 'build', 'out', 'a.txt'), EDIT));
        }
      },
    });
    await edited;
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture!.root, 'build', 'out', 'a.txt'), 'utf8'), EDIT, JSON.stringify(result.review));
    assert.deepEqual(
      result.review.moved.map((moved) => moved.path),
      ['build'],
    );
  });

  test('a link put where the folder was is held, and Apply replaces the folder as the review saw it', async () => {
    const result = await fixture!.run('rm -rf build && ln -s /tmp build');
    assert.equal(result.exitCode, 0, result.output);
    assert.ok((await lstat(join(fixture!.root, 'build'))).isDirectory(), JSON.stringify(result.review));
    const changes = fixture!.held.at(-1)!;
    await changes.restore('build', never);
    assert.ok((await lstat(join(fixture!.root, 'build'))).isSymbolicLink());
  });

  test('a link put where the folder was, the folder changed after the review: Apply refuses', async () => {
    const result = await fixture!.run('rm -rf build && ln -s /tmp build');
    assert.equal(result.exitCode, 0, result.output);
    await writeFile(join(fixture!.root, 'build', 'out', 'b.txt'), 'new after the review\n');
    const changes = fixture!.held.at(-1)!;
    await assert.rejects(changes.restore('build', never), /changed in the workspace since the command/);
    assert.ok((await lstat(join(fixture!.root, 'build', 'out', 'b.txt'))).isFile());
  });
});
