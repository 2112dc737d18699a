// Attack (round 8): a bare repository inside the workspace, not at its top.
// The review reads the configs of the folders that hold a `.git` (knowRepositories), of the workspace's parents, and
// of a changed folder that is a git directory; a bare repository kept somewhere inside the workspace
// (`vendor/upstream.git`, a mirror a build script fetches into, a test fixture) holds no `.git`, so its config is
// never read. When it includes a workspace file (`include.path = ../../team.gitconfig`), a sandboxed command rewrites
// that file, it lands, and the next git command run there (`git -C vendor/upstream.git diff …`, a fetch by the
// build) runs what it planted (`diff.external`, `core.sshCommand`, …).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000 })
    .toString()
    .trim();

describe('attack: a bare repository inside the workspace', async () => {
  if (!(await sandboxHere())) return;

  let fixture: Fixture;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    fixture = await makeFixture();
    env = {
      HOME: fixture.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    const source = join(fixture.base, 'source');
    execFileSync('git', ['init', '-q', source]);
    git(source, env, 'commit', '-q', '--allow-empty', '-m', 'one');
    await writeFile(join(source, 'README'), 'two\n');
    git(source, env, 'add', 'README');
    git(source, env, 'commit', '-q', '-m', 'two');
    await mkdir(join(fixture.root, 'vendor'));
    execFileSync('git', ['clone', '-q', '--bare', source, join(fixture.root, 'vendor', 'upstream.git')], { env: { ...process.env, ...env } });
    git(join(fixture.root, 'vendor', 'upstream.git'), env, 'config', 'include.path', '../../team.gitconfig');
    await writeFile(join(fixture.root, 'team.gitconfig'), '[pull]\n\trebase = true\n');
    assert.equal(git(join(fixture.root, 'vendor', 'upstream.git'), env, 'config', '--get', 'pull.rebase'), 'true');
  });
  after(async () => fixture.remove());

  test("the file a nested bare repository's include.path points at is held", async () => {
    const marker = join(fixture.base, 'pwned-bare');
    const result = await fixture.run(`printf '[diff]\\n\\texternal = "touch ${marker}; true"\\n' > team.gitconfig`);
    assert.equal(result.exitCode, 0, result.output);
    try {
      git(join(fixture.root, 'vendor', 'upstream.git'), env, 'diff', 'HEAD~1', 'HEAD');
    } catch {
      // ran or not, the marker says
    }
    const ran = await access(marker).then(
      () => true,
      () => false,
    );
    assert.ok(
      result.review.moved.some((entry) => entry.path === 'team.gitconfig'),
      `team.gitconfig (included by vendor/upstream.git/config, a bare repository holding no .git) landed unreviewed` +
        `${ran ? ', and git diff there ran its diff.external outside the sandbox' : ''}; review: ${JSON.stringify(result.review)}`,
    );
    assert.equal(ran, false, 'git diff ran the command the sandboxed command planted');
  });
});
