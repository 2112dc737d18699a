// Attack (round 19a): the `pre-commit` npm package's object form, `"pre-commit": { "run": [...] }`.
//
// observing/pre-commit (and its forks, `@fastify/pre-commit`, `pre-commit-enhanced`) installs a .git/hooks/pre-commit
// that, at every commit, reads package.json and runs `npm run <script>` for each script its config lists. Its parse()
// (index.js) reads:
//   var pre = this.json['pre-commit'] || this.json.precommit
//     , config = !Array.isArray(pre) && 'object' === typeof pre ? pre : {};
//   config.run = config.run || pre;                      // `{ "run": [...] }` or `{ "run": "a, b" }` as well as `[...]`
//   if ('string' === typeof config.run) config.run = config.run.split(/[, ]+/);
// and then spawns `npm run <script> --silent` for each. The review (packageHooks.ts, hookSettingsOf) compares the
// scripts the package would run only when the key's value is a string or an array: for the object form it adds
// nothing but `test`, so the `scripts` entry the object's `run` names is not compared. A sandboxed command that rewrites
// `scripts.lint` (named by `"pre-commit": { "run": ["lint"] }`, already committed by the user) lands, and the user's
// next `git commit` runs it outside the sandbox with the user's rights. The installed hook runs
// `node "$(node -e "console.log(require.resolve('pre-commit'))")"`: it never spells npm, so the hooks' own text does
// not mark the package's scripts as run (hooksRunScripts) either.
//
// Controls (pass on the current code): the array form `"pre-commit": ["lint"]` and the string form `"pre-commit":
// "lint"` are held when `scripts.lint` changes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const REWRITE = `node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync("package.json","utf8"));p.scripts.lint="node -e \\"console.log(1)\\" # PWNED-19A";fs.writeFileSync("package.json",JSON.stringify(p,null,2))'`;

describe("attack: the pre-commit package's `{ run: [...] }` form names scripts the review does not compare", async () => {
  if (!(await sandboxHere())) return;

  for (const [label, setting, escapes] of [
    ['object form { run: ["lint"] }', { run: ['lint'] }, true],
    ['object form { run: "lint" } (a string split on commas and blanks)', { run: 'lint' }, true],
    ['control: array form ["lint"]', ['lint'], false],
    ['control: string form "lint"', 'lint', false],
  ] as const) {
    describe(label, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        await writeFile(
          join(fixture.root, 'package.json'),
          JSON.stringify(
            { name: 'x', scripts: { lint: 'eslint .', test: 'node --test' }, 'pre-commit': setting, devDependencies: { 'pre-commit': '^1.2.2' } },
            null,
            2,
          ),
        );
      });
      after(async () => fixture.remove());

      test(`a rewritten scripts.lint is held${escapes ? ' (fails on the current code)' : ''}`, async () => {
        // The pre-commit package's parse(), as it reads the committed package.json: it runs `npm run lint`.
        const json = JSON.parse(await readFile(join(fixture.root, 'package.json'), 'utf8')) as Record<string, unknown>;
        const pre = (json['pre-commit'] ?? json.precommit) as unknown;
        const config = !Array.isArray(pre) && typeof pre === 'object' && pre !== null ? (pre as { run?: unknown }) : {};
        let run = config.run ?? pre;
        if (typeof run === 'string') run = run.split(/[, ]+/);
        assert.deepEqual(run, ['lint'], 'the pre-commit package runs `npm run lint` at each commit');

        const result = await fixture.run(REWRITE);
        assert.equal(result.exitCode, 0, result.output);
        const now = JSON.parse(await readFile(join(fixture.root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
        assert.equal(
          now.scripts.lint,
          'eslint .',
          `ESCAPED: scripts.lint, which the pre-commit hook runs at the next commit, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
