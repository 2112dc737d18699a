// Attack (round 20b): the review reads a home secret whose link leads into the workspace (a dotfiles repository
// opened as the workspace), covered in the sandbox, and answers through what it holds.
// README (Security): "a known credential file or folder that is a link, or lies in a linked folder, is covered where
// it leads too (a dotfiles repository's `~/.kube -> ~/dotfiles/kube`…)"; and "a file the command could not read itself
// is never read for this: one its sandbox hides (…, the places your linked home secrets lead to, …), so what the
// review holds tells the command nothing it could not see". When the dotfiles repository is the workspace, the real
// place `kube/config` is inside it: bubblewrap.ts covers it (the command reads it empty), but reviewReadable.ts
// commandCouldRead judges a path inside the workspace by the protected patterns alone (`kube/config` matches none),
// so the review reads it. A command that rewrites the script an existing hook runs (`sh scripts/check.sh`) to run
// `kube/config`, and plants candidate files named after guesses, learns the cluster's host name from which guess the
// review holds (told to the model, with the reason): round 11's oracle, for the linked home secrets' real places
// inside the workspace.
// Control: the command itself reads kube/config empty (covered where ~/.kube leads).
// Fix: give the review the launch's hidden places inside the workspace too (the covered real places of home
// secrets), and judge a path inside the workspace against them as outside (reviewReadable.ts: `hidden` checked for
// every path, not only those outside the workspace).
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SECRET_HOST = 'tenant3.contoso.example';
const HOST_GUESSES = [1, 2, 3, 4, 5].map((n) => `tenant${n}.contoso.example`);

describe("attack: the review reads a linked home secret's real place inside the workspace and answers through what it holds", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture({}, { tempFolder: '/var/tmp' });
    // The workspace is the user's dotfiles repository; ~/.kube is a link to its kube folder.
    await mkdir(join(fixture.root, 'kube'), { recursive: true });
    await writeFile(join(fixture.root, 'kube', 'config'), `clusters:\n- cluster:\n    server: https://${SECRET_HOST}\n`);
    await symlink(join(fixture.root, 'kube'), join(fixture.home, '.kube'));
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec sh scripts/check.sh\n', { mode: 0o755 });
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'echo checking\n');
  });
  after(async () => fixture?.remove());

  test('control: the command reads kube/config empty (covered where ~/.kube leads)', async () => {
    const result = await fixture.run('cat kube/config 2>&1; echo "[end]"');
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /contoso/, `control: the command read the linked home secret: ${result.output}`);
  });

  test('what the review holds says nothing of kube/config', async () => {
    const plant = HOST_GUESSES.map((name) => `echo x > hosts/${name}`).join('; ');
    const result = await fixture.run(`printf 'sh kube/config\\n' > scripts/check.sh; mkdir -p hosts; ${plant}`);
    assert.equal(result.exitCode, 0, result.output);
    const held = HOST_GUESSES.filter((name) => result.review.moved.some((entry) => entry.path === `hosts/${name}` && entry.kept));
    assert.ok(
      held.length === 0 || held.length === HOST_GUESSES.length,
      `the review read kube/config (~/.kube's real place, covered in the sandbox): of the planted guesses it held only ` +
        `${held.join(', ')} (${result.review.moved.find((entry) => entry.path === `hosts/${held[0]}`)?.reason ?? ''}), which is the host name`,
    );
  });
});
