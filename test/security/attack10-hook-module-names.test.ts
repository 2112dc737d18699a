// Attack (round 10): a hook that names its script the way its interpreter resolves it.
// The review holds what a hook's text names as a path (pathLikeWords, from the work tree's top) and every
// `name.ext` in it (mentionedBy). Interpreters resolve names the text never spells: `python3 -m tools.lint` runs
// tools/lint.py (the word `tools.lint` is taken as a file of that name), `node scripts/check` runs
// scripts/check.js (the path `scripts/check` is held, not the file node loads). The command rewrites the module,
// it lands, and the user's next commit runs it outside the sandbox.
import assert from 'node:assert/strict';
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const CASES = [
  {
    hook: 'python3 -m tools.lint',
    file: 'tools/lint.py',
    original: 'print("lint ok")\n',
    planted: (marker: string) => `open(${JSON.stringify(marker)}, "w").write("escaped")\n`,
  },
  {
    hook: 'node scripts/check',
    file: 'scripts/check.js',
    original: 'console.log("check ok");\n',
    planted: (marker: string) => `require("fs").writeFileSync(${JSON.stringify(marker)}, "escaped");\n`,
  },
];

describe('attack: the module a hook runs by its interpreter’s name for it', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let env: NodeJS.ProcessEnv;
  const git = (args: string[]) => runOutside('git', ['-C', fixture.root, ...args], { env });
  before(async () => {
    fixture = await makeFixture();
    env = {
      ...process.env,
      HOME: fixture.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    await git(['init', '-q']);
    await mkdir(join(fixture.root, 'tools'));
    await mkdir(join(fixture.root, 'scripts'));
  });
  after(async () => fixture.remove());

  for (const [index, { hook, file, original, planted }] of CASES.entries()) {
    test(`a hook saying \`${hook}\`: ${file} is held`, async () => {
      await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
      await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
      await writeFile(join(fixture.root, file), original);
      const marker = join(fixture.base, `module-${index}`);
      const text = planted(marker);
      const result = await fixture.run(`printf '%s' '${text}' > ${file}`);
      assert.equal(result.exitCode, 0, result.output);
      await writeFile(join(fixture.root, `f${index}`), 'x\n');
      await git(['add', `f${index}`]);
      const committed = await git(['commit', '-q', '-m', `c${index}`]);
      const ran = await access(marker).then(
        () => true,
        () => false,
      );
      assert.ok(
        !ran,
        `${file} (run by the hook \`${hook}\`) landed rewritten, unapplied, and git commit ran it outside the sandbox; ` +
          `review: ${JSON.stringify(result.review)}; commit: ${committed.stderr.slice(0, 200)}`,
      );
    });
  }
});
