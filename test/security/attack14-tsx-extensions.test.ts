// Attack (round 14): a hook runs a TypeScript entry by its name without extension (`npx tsx scripts/check`), and the
// file tsx loads is `check.tsx` (or `.jsx`), an extension the review never tries.
// hookPrograms.ts holds "what an interpreter makes of a name" by adding namedFiles.ts SCRIPT_EXTENSIONS to a name
// without one (addNameAndVariants: the names held wherever they are) and by listing `check.<ext>` for those extensions
// (textsOf): `.js .mjs .cjs .ts .mts .cts .py .sh .bash .rb .pl`. tsx (and bun) resolve an entry without extension
// through `.tsx` and `.jsx` too: `tsx ./check` runs check.tsx when that is the file there (checked on this machine with
// the project's own tsx). So `scripts/check.tsx` is neither a program nor a held name to the review. The README promises
// "what an interpreter makes of a name, `node scripts/check` → `check.js`" and "a bare word that is a file where the text
// runs … `node check` → `./check.js`".
// Control: `npx tsx scripts/lint` with scripts/lint.ts holds lint.ts.
// Impact: scripts/check.tsx (and ./fmt.jsx of `tsx fmt`) land rewritten and run outside the sandbox at the next commit.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

describe('attack: a hook runs an entry tsx completes with .tsx/.jsx', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\nnpx tsx scripts/lint || exit 1\nnpx tsx scripts/check || exit 1\nnpx tsx fmt || exit 1\n');
    await chmod(hook, 0o755);
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'lint.ts'), 'console.log("lint")\n');
    await writeFile(join(fixture.root, 'scripts', 'check.tsx'), 'console.log("check")\n');
    await writeFile(join(fixture.root, 'fmt.jsx'), 'console.log("fmt")\n');
  });
  after(async () => fixture.remove());

  test('control: scripts/lint.ts (`npx tsx scripts/lint`) rewritten is held', async () => {
    const result = await fixture.run(`echo 'console.log(1)' > scripts/lint.ts`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'scripts', 'lint.ts'), 'utf8'), 'console.log("lint")\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('scripts/check.tsx (`npx tsx scripts/check`) and fmt.jsx (`npx tsx fmt`) rewritten are held', async () => {
    const payload = `require("child_process").execSync("id > /tmp/owned")`;
    const result = await fixture.run(`echo '${payload}' > scripts/check.tsx && echo '${payload}' > fmt.jsx`);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(
      {
        check: await readFile(join(fixture.root, 'scripts', 'check.tsx'), 'utf8'),
        fmt: await readFile(join(fixture.root, 'fmt.jsx'), 'utf8'),
      },
      { check: 'console.log("check")\n', fmt: 'console.log("fmt")\n' },
      `what the hook's tsx runs landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
