// Reading the command's layer beneath it (pinnedPaths.ts readBeneath, listBeneath): a link the command made, as the
// file, as a listed folder or as a folder on the way, is never followed (round 15: the review read ~/.ssh through one).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listBeneath, readBeneath } from '../../../src/terminal/node/pinnedPaths';

void describe('reading beneath the layer', () => {
  const place = mkdtempSync(join(tmpdir(), 'gateway-pinned-'));
  const upper = join(place, 'upper');
  const secret = join(place, 'home');
  mkdirSync(join(upper, 'scripts'), { recursive: true });
  mkdirSync(join(upper, '.husky'));
  mkdirSync(secret);
  writeFileSync(join(secret, 'config'), 'HostName 10.20.30.173\n');
  writeFileSync(join(upper, 'scripts', 'check.sh'), 'echo ok\n');
  symlinkSync(secret, join(upper, 'leak'));
  symlinkSync(join(secret, 'config'), join(upper, '.husky', 'notes'));
  symlinkSync(secret, join(upper, '.husky', '_'));
  after(() => rmSync(place, { recursive: true, force: true }));

  void it('reads a file whose folders are real', async () => {
    assert.equal(await readBeneath(upper, 'scripts/check.sh', 1024), 'echo ok\n');
  });

  void it('reads nothing through a folder on the way that is a link', async () => {
    assert.equal(await readBeneath(upper, 'leak/config', 1024), undefined);
  });

  void it('reads nothing through a link as the file', async () => {
    assert.equal(await readBeneath(upper, '.husky/notes', 1024), undefined);
  });

  void it('lists a real folder, and nothing through a folder that is a link', async () => {
    assert.deepEqual((await listBeneath(upper, '.husky')).map((entry) => [entry.name, entry.isSymbolicLink()]).sort(), [
      ['_', true],
      ['notes', true],
    ]);
    assert.deepEqual(await listBeneath(upper, '.husky/_'), []);
    assert.deepEqual(await listBeneath(upper, 'leak'), []);
  });
});
