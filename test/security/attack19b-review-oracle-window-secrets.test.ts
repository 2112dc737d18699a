// Attack (round 19b): the review reads another window folder's protected file, covered in the sandbox, and answers
// through what it holds.
// README (Security): the protected files of every folder of the window are covered ("nor can any session read those
// of the window's other folders"; a worktree session cannot read those of the folder it was made from); and "a file
// the command could not read itself, a protected file or one in your home folder, is never read for this …, so what
// the review holds tells the command nothing it could not see".
// The review follows what a hook runs from the layer's version of the scripts (hookPrograms.ts followPrograms), and
// its `readable` check (repositoryFacts.ts commandCouldRead) refuses a protected file only inside the workspace and
// any file of the home folder: a file outside both is "readable" — also the protected files of the window's other
// folders (bubblewrap.ts protectedIn covers them inside), the worktree session's own repository folder (`../../app/.env`,
// round 17) and the real places of linked home secrets outside the home folder (`~/.azure -> /data/azure`), all
// covered in the sandbox. So a command that rewrites a script an existing hook runs (`sh scripts/check.sh`) to run
// `../../../other/.env` makes the review read that `.env`; each `name.ext` word of it (a password with a dot, a host
// name, a key file's name) becomes a name held "wherever it is". The command plants candidate files; which of them is
// held (told to the model with the reason) is the secret's content (round 11's oracle, for the secrets it was not
// fixed for).
// The same for a linked home secret kept outside the home folder (`~/.azure -> <base>/data/azure`, covered where it
// leads: bubblewrap.ts realPathsOf), whose host names the review reads the same way.
// Controls: the command itself reads the other folder's `.env` and the linked `config` empty (covered).
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SECRET = 'DB_PASSWORD=Tr0ub4dor.3';
const GUESSES = [1, 2, 3, 4, 5].map((n) => `tr0ub4dor.${n}`);
const SECRET_HOST = 'tenant3.contoso.example';
const HOST_GUESSES = [1, 2, 3, 4, 5].map((n) => `tenant${n}.contoso.example`);

describe("attack: the review reads another window folder's protected file and answers through what it holds", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    // /var/tmp: outside the home folder, as /workspaces or /srv would be; the window also has `other` open.
    fixture = await makeFixture({}, { tempFolder: '/var/tmp', windowFolders: ['other'] });
    const other = join(fixture.base, 'other');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, '.env'), `${SECRET}\n`);
    // A home secret kept elsewhere through a link (a dotfiles setup): ~/.azure -> <base>/data/azure, covered where it leads.
    await mkdir(join(fixture.base, 'data', 'azure'), { recursive: true });
    await writeFile(join(fixture.base, 'data', 'azure', 'config'), `[cloud]\nname = ${SECRET_HOST}\n`);
    await symlink(join(fixture.base, 'data', 'azure'), join(fixture.home, '.azure'));
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec sh scripts/check.sh\n', { mode: 0o755 });
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checking\n');
  });
  after(async () => fixture?.remove());

  test("control: the other folder's .env is covered inside", async () => {
    const result = await fixture.run('cat ../../../other/.env; echo "[end]"');
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /Tr0ub4dor/, `control: the command read the other folder's .env: ${result.output}`);
  });

  test('what the review holds says nothing of that .env', async () => {
    const plant = GUESSES.map((name) => `echo x > guesses/${name}`).join('; ');
    const result = await fixture.run(`printf 'sh ../../../other/.env\\n' > scripts/check.sh; mkdir -p guesses; ${plant}`);
    assert.equal(result.exitCode, 0, result.output);
    const held = GUESSES.filter((name) => result.review.moved.some((entry) => entry.path === `guesses/${name}`));
    assert.ok(
      held.length === 0 || held.length === GUESSES.length,
      `the review read the covered .env of the window's other folder: of the planted guesses it held only ${held.join(', ')} ` +
        `(${result.review.moved.find((entry) => entry.path === `guesses/${held[0]}`)?.reason ?? ''}), which is the password`,
    );
  });

  test('nor of a linked home secret kept outside the home folder (~/.azure -> data/azure), covered inside', async () => {
    const read = await fixture.run('cat ../../../data/azure/config ~/.azure/config 2>&1; echo "[end]"');
    assert.doesNotMatch(read.output, /contoso/, `control: the command read the linked home secret: ${read.output}`);
    const plant = HOST_GUESSES.map((name) => `echo x > hosts/${name}`).join('; ');
    const result = await fixture.run(`printf 'sh ../../../data/azure/config\\n' > scripts/check.sh; mkdir -p hosts; ${plant}`);
    assert.equal(result.exitCode, 0, result.output);
    const held = HOST_GUESSES.filter((name) => result.review.moved.some((entry) => entry.path === `hosts/${name}`));
    assert.ok(
      held.length === 0 || held.length === HOST_GUESSES.length,
      `the review read the covered ~/.azure/config where its link leads: of the planted guesses it held only ${held.join(', ')}`,
    );
  });
});
