// Attack (round 9): hooks that name their script in the shell's usual spellings.
// Round 8's fix takes a hook's words with a `/`, `.` or `~` as paths from the work tree's top
// (gitStructure.pathLikeWords splits on `$`, `(`, `)`, quotes...). The idioms hooks really use to find the
// repository's scripts come out wrong: `"$(git rev-parse --show-toplevel)/scripts/check.sh"` and
// `"$(dirname "$0")/../../scripts/check.sh"` leave the word `/scripts/check.sh` or `/../../scripts/check.sh`, read
// as an absolute path outside the workspace; `"$PWD/scripts/check.sh"` leaves `PWD/scripts/check.sh`;
// `cd scripts && ./check.sh` leaves `./check.sh` at the top. The script each of them runs lands unreviewed and
// Git runs it at the user's next commit.
import assert from 'node:assert/strict';
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SPELLINGS = [
  { name: 'rev-parse --show-toplevel', hook: 'sh "$(git rev-parse --show-toplevel)/scripts/check.sh"' },
  { name: 'dirname "$0"/..', hook: 'sh "$(dirname "$0")/../../scripts/check.sh"' },
  { name: '$PWD', hook: 'sh "$PWD/scripts/check.sh"' },
  { name: 'cd first', hook: 'cd scripts && sh ./check.sh' },
];

describe('attack: the script a hook runs, in the shell spellings hooks use', async () => {
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
    await mkdir(join(fixture.root, 'scripts'));
    await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'exit 0\n');
  });
  after(async () => fixture.remove());

  for (const [index, { name, hook }] of SPELLINGS.entries()) {
    test(`a hook saying ${name}: its script is held`, async () => {
      // A plain Git hook (the hooks folder of the repository), as a team's setup script installs it.
      await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
      await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
      await writeFile(join(fixture.root, 'scripts', 'check.sh'), 'exit 0\n');
      const marker = join(fixture.base, `pwned-${index}`);
      const result = await fixture.run(`printf 'touch ${marker}\\n' > scripts/check.sh`);
      assert.equal(result.exitCode, 0, result.output);
      await writeFile(join(fixture.root, `f${index}`), 'x\n');
      await git(['add', `f${index}`]);
      await git(['commit', '-q', '-m', `c${index}`]);
      const ran = await access(marker).then(
        () => true,
        () => false,
      );
      assert.ok(
        !ran && result.review.moved.some((entry) => entry.path === 'scripts/check.sh' || entry.path === 'scripts'),
        `scripts/check.sh (run by the hook \`${hook}\`) landed unreviewed${ran ? ' and git commit ran it outside the sandbox' : ''}; ` +
          `review: ${JSON.stringify(result.review)}`,
      );
    });
  }
});
