// Attack (round 2): what an existing repository's config points at is held, but the review knows a fixed list of
// program keys. Git also runs `gpg.ssh.defaultKeyCommand` (signing, when user.signingKey is unset),
// `core.alternateRefsCommand`, `pager.<command>` and `sendemail.toCmd`, and joins a value continued with a
// backslash at the line's end: a script one of them names is rewritten by a command and lands, and Git outside
// runs it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SCRIPTS = ['tools/signing-key.sh', 'tools/alternates.sh', 'tools/pager.sh', 'tools/to-cmd.sh', 'tools/fsmonitor.sh'];

describe("attack: program keys of a repository's config the review does not know", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    const git = (...args: string[]) => runOutside('git', ['-C', fixture.root, ...args]);
    await runOutside('git', ['init', '-q', fixture.root]);
    await mkdir(join(fixture.root, 'tools'));
    for (const script of SCRIPTS) await writeFile(join(fixture.root, script), 'echo ok\n');
    await git('config', 'gpg.format', 'ssh');
    await git('config', 'gpg.ssh.defaultKeyCommand', 'sh tools/signing-key.sh');
    await git('config', 'core.alternateRefsCommand', 'sh tools/alternates.sh');
    await git('config', 'pager.log', 'sh tools/pager.sh');
    await git('config', 'sendemail.toCmd', 'sh tools/to-cmd.sh');
    const config = join(fixture.root, '.git', 'config');
    await writeFile(config, `${await readFile(config, 'utf8')}[core]\n\tfsmonitor = sh \\\n tools/fsmonitor.sh\n`);
  });
  after(async () => fixture.remove());

  test('each script a program key names is held when a command rewrites it', async () => {
    const result = await fixture.run(SCRIPTS.map((script) => `echo 'touch /tmp/pwned-git' > ${script}`).join(' && '));
    assert.equal(result.exitCode, 0, result.output);
    const landed: string[] = [];
    for (const script of SCRIPTS) if ((await readFile(join(fixture.root, script), 'utf8')).includes('pwned')) landed.push(script);
    assert.deepEqual(landed, [], `ESCAPED: rewritten and landed unasked: ${landed.join(', ')}`);
    assert.ok(existsSync(join(fixture.root, '.git')));
  });
});
