// Attack (round 19a, low): bash's older arithmetic expansion `$[…]` completing a hook's program name.
//
// bash still reads `$[expression]` as `$((expression))` (deprecated, but kept, and common in old scripts: `i=$[i+1]`).
// The review reads a name that an expansion completes (`sh "scripts/$c.sh"`, `tools/ch$(…)eck.sh`, `$((…))`) as
// unknown and holds its folder whole (README: "a name completed from a variable or a command's output … holds its
// folder whole"). The lexer (shellLexer.ts) knows `$name`, `${…}`, `$(…)`, `$((…))` and backquotes, but takes `$[`
// as a literal `$`, so `scripts/step$[1]` is read as that literal name, which names no file, and `scripts/` is not
// held: a sandboxed command rewrites scripts/step1, it lands, and the next `git commit` runs it.
// Control (passes on the current code): the same hook with `$((1))`, whose folder is held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: `$[…]` arithmetic in a hook completes a program name the review reads as a literal', async () => {
  if (!(await sandboxHere())) return;
  for (const [line, control] of [
    ['n=0; sh "scripts/step$[n+1]"', false],
    ['n=0; sh "scripts/step$((n+1))"', true],
  ] as const) {
    describe(line, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/bash\n${line}\n`);
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, 'scripts'));
        await writeFile(join(fixture.root, 'scripts', 'step1'), 'echo step one\n');
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten scripts/step1 (what bash runs) is held`, async () => {
        assert.equal(execFileSync('bash', ['-c', line], { cwd: fixture.root }).toString(), 'step one\n', 'bash runs scripts/step1');
        const result = await fixture.run(`echo 'echo PWNED-19A' > scripts/step1`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'scripts', 'step1'), 'utf8');
        assert.ok(
          !now.includes('PWNED-19A'),
          `ESCAPED: scripts/step1, which the pre-commit hook's \`${line}\` runs, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
