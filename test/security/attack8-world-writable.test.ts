// Attack (round 8): permissions a landing hands to everyone on the machine.
// The review holds setuid/setgid bits and a new executable bit, but not the write bits of group and others. A
// folder the workspace has keeps the mode the command gave it (landInto chmods it to the layer's mode, no umask),
// and a file lands by rename with its mode: `chmod 777 src; chmod 666 src/app.py` makes them writable by every
// other account of the machine (another user, a service, the gateway-sandbox user of these tests), who can then
// rewrite what the user's tools run later (a module the user imports, a test the runner loads).
import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: world-writable modes landing unreviewed', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'src'), { mode: 0o755 });
    await writeFile(join(fixture.root, 'src', 'app.py'), 'print("hi")\n', { mode: 0o644 });
  });
  after(async () => fixture.remove());

  test('a folder and a file never become writable by other users without the Apply', async () => {
    const result = await fixture.run('chmod 0777 src && chmod 0666 src/app.py && echo "# touched" >> src/app.py');
    assert.equal(result.exitCode, 0, result.output);
    const folder = (await stat(join(fixture.root, 'src'))).mode & 0o777;
    const file = (await stat(join(fixture.root, 'src', 'app.py'))).mode & 0o777;
    assert.ok(
      (folder & 0o022) === 0 && (file & 0o022) === 0,
      `the workspace's src is now ${folder.toString(8)} and src/app.py ${file.toString(8)} (writable by every account of the machine), unapplied; ` +
        `review: ${JSON.stringify(result.review)}`,
    );
  });
});
