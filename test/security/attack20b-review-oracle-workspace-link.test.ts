// Attack (round 20b): the review reads a covered protected file through a link the workspace already has, and
// answers through what it holds.
// README (Security): "a file the command could not read itself is never read for this: one its sandbox hides (your
// home folder, the protected files of every folder of the window, …) or a file whose name a protected pattern
// matches wherever it is (nor is anything reached through a link the command made in its layer …), so what the
// review holds tells the command nothing it could not see". reviewReadable.ts commandCouldRead judges a followed
// path by its spelling: a path inside the workspace is readable unless a protected pattern matches its own name. A
// link the workspace already has (not one the command made: those are held as links) is followed by the review's
// read to wherever it leads: `config/app.conf -> ../.env` (a tool that wants its settings under another name, a
// Docker `env_file`). In the sandbox `.env` is covered, so `config/app.conf` reads empty; the review reads the real
// `.env`. A command that rewrites the script an existing hook runs (`sh scripts/check.sh`) to run
// `config/app.conf`, and plants candidate files named after guesses, learns which guess is the password from which
// of them the review holds (told to the model, with the reason): round 11's oracle, through a workspace link.
// (The same through a workspace link into the home folder, `config/private -> ~/.private/app`, did not answer:
// attempts list.)
// Control: the command itself reads config/app.conf empty (the cover of .env).
// Fix: judge a followed path inside the workspace by where it leads (resolve the workspace's links, as the kernel
// does inside the sandbox: a protected or hidden target is not read), or read followed files through handles opened
// without following links and check where each handle arrived (/proc/self/fd) against the protected files.
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SECRET = 'DB_PASSWORD=Tr0ub4dor.3';
const GUESSES = [1, 2, 3, 4, 5].map((n) => `tr0ub4dor.${n}`);

describe('attack: the review reads a covered .env through a link the workspace has, and answers through what it holds', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture({}, { tempFolder: '/var/tmp' });
    await mkdir(join(fixture.root, 'config'), { recursive: true });
    // A protected .env, and a settings name linked to it.
    await writeFile(join(fixture.root, '.env'), `${SECRET}\n`);
    await symlink('../.env', join(fixture.root, 'config', 'app.conf'));
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec sh scripts/check.sh\n', { mode: 0o755 });
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checking\n');
  });
  after(async () => fixture?.remove());

  test('control: the command reads neither file', async () => {
    const result = await fixture.run('cat config/app.conf 2>&1; echo "[end]"');
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /Tr0ub4dor/, `control: the command read a hidden file: ${result.output}`);
  });

  test('what the review holds says nothing of the covered .env behind config/app.conf', async () => {
    const plant = GUESSES.map((name) => `echo x > guesses/${name}`).join('; ');
    const result = await fixture.run(`printf 'sh config/app.conf\\n' > scripts/check.sh; mkdir -p guesses; ${plant}`);
    assert.equal(result.exitCode, 0, result.output);
    const held = GUESSES.filter((name) => result.review.moved.some((entry) => entry.path === `guesses/${name}` && entry.kept));
    assert.ok(
      held.length === 0 || held.length === GUESSES.length,
      `the review read the covered .env through the workspace's link config/app.conf: of the planted guesses it held ` +
        `only ${held.join(', ')}, which is the password`,
    );
  });
});
