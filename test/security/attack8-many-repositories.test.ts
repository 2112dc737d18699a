// Attack (round 8): past the review's bound on repositories, configs are not read and nothing says so.
// ChangeLayer.knowRepositories keeps the first 2,000 folders holding a `.git` (MAX_REPOSITORIES); the configs of
// the others are never read, and unlike the bounds on entries, bytes and time, passing this one does not hold the
// change set. In a workspace of more than 2,000 checkouts (a `repo`/gclient tree, a folder of vendored clones),
// the file a later repository's config includes (outside its own folder: `include.path = ../../../team-config/r7.gitconfig`) lands when a sandboxed command rewrites it, and git runs it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const REPOSITORIES = 2050;

describe('attack: more repositories than the review reads', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'team-config'));
    for (let index = 0; index < REPOSITORIES; index++) {
      const tree = join(fixture.root, 'checkouts', `r${index}`);
      // A minimal repository as Git takes it (HEAD, objects, refs, config), including a shared file of the workspace.
      await mkdir(join(tree, '.git', 'objects'), { recursive: true });
      await mkdir(join(tree, '.git', 'refs'));
      await writeFile(join(tree, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      await writeFile(
        join(tree, '.git', 'config'),
        `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[include]\n\tpath = ../../../team-config/r${index}.gitconfig\n`,
      );
      await writeFile(join(fixture.root, 'team-config', `r${index}.gitconfig`), '[pull]\n\trebase = true\n');
    }
  });
  after(async () => fixture.remove());

  test("every repository's included shared config is held", async () => {
    const result = await fixture.run(`for f in team-config/*.gitconfig; do printf '[core]\\n\\tfsmonitor = "touch /tmp/pwned; false"\\n' > "$f"; done`, {
      timeoutMs: 60_000,
    });
    assert.equal(result.exitCode, 0, result.output);
    // Held whole or file by file: what counts is that no rewritten file reached the workspace.
    const held = new Set(result.review.moved.map((entry) => entry.path));
    const landed = [];
    for (let index = 0; index < REPOSITORIES; index++) {
      if ((await readFile(join(fixture.root, 'team-config', `r${index}.gitconfig`), 'utf8')).includes('fsmonitor')) landed.push(`r${index}`);
    }
    const env = { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
    const sample = landed[0]
      ? execFileSync('git', ['-C', join(fixture.root, 'checkouts', landed[0]), 'config', '--get', 'core.fsmonitor'], { env })
          .toString()
          .trim()
      : '';
    assert.deepEqual(
      landed,
      [],
      `${landed.length} included team-config/rN.gitconfig file(s) landed unreviewed (${landed.slice(0, 3).join(', ')}…): git in checkouts/${landed[0]} now has core.fsmonitor = ${JSON.stringify(sample)}; ` +
        `${held.size} were held; incomplete: ${result.review.incomplete ?? 'no'}`,
    );
    assert.match(result.review.incomplete ?? '', /more than 2000 repositories/);
  });
});
