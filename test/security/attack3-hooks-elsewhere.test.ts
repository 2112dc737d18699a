// Attack (round 3): code Git runs on the user's next commit, from files the review lets land.
// 1. The review reads only the repository's own config for what it points at, never the user's global one
//    (~/.gitconfig, ~/.config/git/config). A relative `core.hooksPath` there (`.githooks`, as teams document
//    it, set once globally) is resolved by Git in every work tree: a command rewrites the existing executable
//    `.githooks/pre-commit` and it lands as an ordinary file; `git commit` outside runs it.
// 2. husky before v5 installs .git/hooks/* that read, at each hook, `.huskyrc`, `.huskyrc.json`, `.huskyrc.js`,
//    `husky.config.js` (or package.json's "husky" key) and run the commands there: none of these names is held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: hook code that lands as ordinary files', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    execFileSync('git', ['init', '-q', fixture.root]);
    await writeFile(join(fixture.home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    await mkdir(join(fixture.root, '.githooks'));
    await writeFile(join(fixture.root, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    await chmod(join(fixture.root, '.githooks', 'pre-commit'), 0o755);
  });
  after(async () => fixture.remove());

  test("a hook the user's global core.hooksPath points at (relative) is held", async () => {
    const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-GLOBAL-HOOKS\\n' > .githooks/pre-commit`);
    const held = result.review.moved.map((entry) => entry.path);
    const now = await readFile(join(fixture.root, '.githooks', 'pre-commit'), 'utf8');
    assert.ok(!now.includes('PWNED-GLOBAL-HOOKS'), `ESCAPED: .githooks/pre-commit (global core.hooksPath) landed unasked (held: ${JSON.stringify(held)})`);
  });

  for (const name of ['.huskyrc', '.huskyrc.json', '.huskyrc.js', 'husky.config.js']) {
    test(`husky v4's ${name} is held`, async () => {
      const body = name.endsWith('.js')
        ? 'module.exports = { hooks: { "pre-commit": "echo PWNED-HUSKY" } };\n'
        : '{ "hooks": { "pre-commit": "echo PWNED-HUSKY" } }\n';
      const result = await fixture.run(`printf '%s' '${body}' > ${name}`);
      const landed = await readFile(join(fixture.root, name), 'utf8').catch(() => '');
      assert.ok(!landed.includes('PWNED-HUSKY'), `ESCAPED: ${name} landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`);
    });
  }
});
