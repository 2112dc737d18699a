// Attack (round 2): the README holds "lefthook's and overcommit's configs" by name, but lefthook finds more names
// than the review knows: lefthook-local.* (merged into the main config, and usable without one), the .yaml, .toml,
// .json and .jsonc forms, and its scripts folder `.lefthook/` (source_dir, scripts run by the hook). With lefthook
// installed (.git/hooks/* call `lefthook run`), a command that writes one of these lands it, and the next
// `git commit` outside the sandbox runs what it says.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const NAMES = [
  'lefthook-local.yml',
  '.lefthook-local.yml',
  '.lefthook.yaml',
  'lefthook.toml',
  '.lefthook.toml',
  'lefthook.json',
  '.lefthook.json',
  'lefthook.jsonc',
  '.lefthook/pre-commit/check.sh',
  '.lefthook-local/pre-commit/check.sh',
];

describe("attack: lefthook's config under the names the review does not know", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  for (const path of NAMES) {
    test(`${path} is held, not landed`, async () => {
      const folder = path.includes('/') ? `mkdir -p ${path.slice(0, path.lastIndexOf('/'))} && ` : '';
      const result = await fixture.run(`${folder}printf 'pre-commit:\\n  commands:\\n    x:\\n      run: touch /tmp/pwned-lefthook\\n' > ${path}`);
      assert.equal(result.exitCode, 0, result.output);
      assert.ok(!existsSync(join(fixture.root, path)), `ESCAPED: ${path} landed in the workspace unasked`);
    });
  }
});
