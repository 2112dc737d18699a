// Attack (round 12): a folder made unreadable uncovers the protected files in it.
// The protected files are found by reading the workspace's folders as the extension host's user
// (protectedPathCache.ts read: `readdir(...).catch(() => [])`): a folder that cannot be listed is taken as empty,
// silently, and nothing under it is covered. A folder's mode is an ordinary change of a command: `chmod 0 config`
// lands (the folder is not protected, only config/.env is), and the next command's look at the workspace (the
// folder's ctime changed, so it is read again) finds no `.env` there. In the sandbox the command owns the folder and
// gives it its mode back (`chmod 755 config`: overlayfs copies the folder up with the mounter's rights), and reads
// config/.env from the workspace below, uncovered.
// Impact: two commands of one session read a protected file (`.env`: API keys, database passwords) into their output,
// which goes to the model. (A folder that cannot be listed should stop sandboxed commands, as a name that is not UTF-8
// does, and a change that takes the user's own read off a folder is no ordinary change.)
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const SECRET = 'DATABASE_PASSWORD=hunter2-round12';

describe('attack: a protected file in a folder made unreadable', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'config'));
    await writeFile(join(fixture.root, 'config', '.env'), `${SECRET}\n`);
    await writeFile(join(fixture.root, 'config', 'app.json'), '{}\n');
  });
  after(async () => {
    await chmod(join(fixture.root, 'config'), 0o755).catch(() => undefined);
    await fixture.remove();
  });

  test('`chmod 0 config`, then `chmod 755 config && cat config/.env`: the protected file stays covered', async () => {
    const control = await fixture.run('cat config/.env; echo end');
    assert.ok(!control.output.includes(SECRET), `control: config/.env was readable at once: ${control.output}`);
    const first = await fixture.run('chmod 0 config');
    assert.equal(first.exitCode, 0, first.output);
    const second = await fixture.run('chmod 755 config && cat config/.env');
    assert.ok(
      !second.output.includes(SECRET),
      `config/.env (protected) was read by the second command after the first made config/ unreadable to the look for protected files; ` +
        `output: ${JSON.stringify(second.output)}; reviews: ${JSON.stringify([first.review, second.review])}`,
    );
  });
});
