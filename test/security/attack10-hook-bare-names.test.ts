// Attack (round 10): a hook's script without an extension, in the spellings round 9 fixed for `check.sh`.
// Round 9's fix (gitStructure.mentionedBy) holds every file name *with an extension* a hook's text names, because
// `"$(git rev-parse --show-toplevel)/scripts/check.sh"`, `"$(dirname "$0")/../../…"` and `cd scripts && ./check.sh`
// leave pathLikeWords a word that resolves outside the workspace or at the wrong folder. A script without an
// extension (GitHub's "scripts to rule them all": `script/test`, `script/lint`, `bin/check`) is neither resolved
// nor named: the mention regex wants `name.ext`. The command rewrites the (already executable) script, it lands,
// and the user's next commit runs it outside the sandbox.
import assert from 'node:assert/strict';
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SPELLINGS = [
  { name: 'rev-parse --show-toplevel', hook: 'exec "$(git rev-parse --show-toplevel)/script/test"' },
  { name: 'dirname "$0"/..', hook: 'exec "$(dirname "$0")/../../script/test"' },
  { name: '$PWD', hook: 'exec "$PWD/script/test"' },
  { name: 'cd first', hook: 'cd script && ./test' },
];

describe('attack: the extension-less script a hook runs, in the shell spellings hooks use', async () => {
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
    await mkdir(join(fixture.root, 'script'));
  });
  after(async () => fixture.remove());

  for (const [index, { name, hook }] of SPELLINGS.entries()) {
    test(`a hook saying ${name}: its script/test is held`, async () => {
      await writeFile(join(fixture.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
      await chmod(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
      await writeFile(join(fixture.root, 'script', 'test'), '#!/bin/sh\nexit 0\n');
      await chmod(join(fixture.root, 'script', 'test'), 0o755);
      const marker = join(fixture.base, `bare-${index}`);
      const result = await fixture.run(`printf '#!/bin/sh\\ntouch ${marker}\\n' > script/test`);
      assert.equal(result.exitCode, 0, result.output);
      await writeFile(join(fixture.root, `f${index}`), 'x\n');
      await git(['add', `f${index}`]);
      await git(['commit', '-q', '-m', `c${index}`]);
      const ran = await access(marker).then(
        () => true,
        () => false,
      );
      assert.ok(
        !ran,
        `script/test (run by the hook \`${hook}\`) landed rewritten, unapplied, and git commit ran it outside the sandbox; ` +
          `review: ${JSON.stringify(result.review)}`,
      );
    });
  }
});
