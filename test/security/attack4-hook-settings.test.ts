// Attack (round 4): Git hook settings the review does not know by name or key.
// 1. package.json: the `pre-commit` npm package (observing/pre-commit, `this.json['pre-commit'] || this.json.precommit`)
//    also reads the `precommit` key: the list of npm scripts its installed .git/hooks/pre-commit runs. The review
//    compares only `husky`, `gitHooks`, `simple-git-hooks`, `lint-staged` and `pre-commit`, so a new `precommit`
//    key lands, and the next `git commit` outside runs what it names.
// 2. Hook managers whose config files are not held: CaptainHook (PHP, `captainhook.json`: the actions its
//    installed hooks run, shell commands included) and rusty-hook (Rust, `.rusty-hook.toml`: `[hooks] pre-commit = "…"`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: Git hook settings by a key or a name the review does not know', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    execFileSync('git', ['init', '-q', fixture.root]);
    await writeFile(
      join(fixture.root, 'package.json'),
      JSON.stringify({ name: 'x', scripts: { lint: 'eslint .' }, devDependencies: { 'pre-commit': '^1.2.2' } }, null, 2),
    );
  });
  after(async () => fixture.remove());

  test("package.json's `precommit` key (the pre-commit package's other spelling) is held when it changes", async () => {
    const result = await fixture.run(
      `node -e 'const f="package.json";const p=JSON.parse(require("fs").readFileSync(f,"utf8"));p.scripts.pwn="echo PWNED-PRECOMMIT";p.precommit=["pwn"];require("fs").writeFileSync(f,JSON.stringify(p,null,2))'`,
    );
    assert.equal(result.exitCode, 0, result.output);
    const now = JSON.parse(await readFile(join(fixture.root, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(
      now.precommit,
      undefined,
      `ESCAPED: package.json's new "precommit" hook list landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
    );
  });

  for (const [name, body] of [
    ['captainhook.json', '{"pre-commit":{"enabled":true,"actions":[{"action":"echo PWNED-CAPTAINHOOK"}]}}'],
    ['.rusty-hook.toml', '[hooks]\npre-commit = "echo PWNED-RUSTY-HOOK"\n'],
  ] as const) {
    test(`${name} (a Git hook manager's config) is held`, async () => {
      const result = await fixture.run(`printf '%s' '${body}' > ${name}`);
      assert.equal(result.exitCode, 0, result.output);
      const landed = await readFile(join(fixture.root, name), 'utf8').catch(() => '');
      assert.ok(!landed.includes('PWNED'), `ESCAPED: ${name} landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`);
    });
  }
});
