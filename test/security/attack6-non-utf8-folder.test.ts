// Attack (round 6): a protected file in a folder whose name is not UTF-8 (a Latin-1 `Données/` from an old
// archive). Node reads the name with U+FFFD in place of the byte, the walk that finds the protected files cannot
// lstat that name, skips the folder, and `Données/.env` is not covered: the command reads it.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack round 6', async () => {
  if (!(await sandboxHere())) return;

  describe('a protected file in a folder whose name is not UTF-8', () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await makeFixture();
      // "Données" in Latin-1: 0xE9 alone is not UTF-8.
      const folder = Buffer.concat([Buffer.from(`${fixture.root}/Donn`), Buffer.from([0xe9]), Buffer.from('es')]);
      await mkdir(folder);
      // Round 7: a decoy beside it spelled with a real U+FFFD answered the walk's lookup in its place.
      await mkdir(`${fixture.root}/Donn\uFFFDes`);
      await writeFile(`${fixture.root}/Donn\uFFFDes/readme`, 'decoy\n');
      await writeFile(Buffer.concat([folder, Buffer.from('/.env')]), 'API_TOKEN=latin1-folder-secret\n');
    });
    after(async () => fixture.remove());

    test('the command cannot read it: it is not run, and the reason names the folder', async () => {
      const result = await fixture.run(`cat Donn*/.env; true`).then(
        (ran) => ran.output,
        (error: unknown) => String(error),
      );
      assert.doesNotMatch(result, /latin1-folder-secret/);
      assert.match(result, /not UTF-8/);
    });
  });
});
