// Attack (round 19b): a worktree session's change to a file the workspace folder's own untracked runner config runs
// reaches that folder through Apply to Workspace, never held.
// README (Security, "What a command changed is reviewed before it lands"): the files an `.envrc` sources are held
// ("the files an `.envrc` sources, however it spells them"), since direnv runs them by itself at the next `cd`, with
// the user's rights. A session in a worktree of its own ("Sessions in a worktree of their own") is reviewed against
// its worktree only: the worktree is a fresh checkout of the last commit, so the workspace folder's untracked and
// ignored files are not in it. An `.envrc` is often ignored (direnv's own advice for personal settings; as are
// `.vscode/settings.json`, `mise.local.toml`, `.claude/settings.local.json`): in the worktree nothing sources
// `scripts/dev-env.sh`, so a sandboxed command's rewrite of it is an ordinary file and lands there
// (changeLayer.ts review: repositoryFacts reads the worktree's runner configs, and runnerConfigsAbove the folders above
// the worktree, `<parent>/.app.gateway-worktrees` and `<parent>`, never `<parent>/app`). Apply to Workspace
// (gitWorktrees.ts apply: `git diff --cached` of the worktree, `git apply` in the workspace folder) then writes it
// into the workspace folder, where its `.envrc` sources it: direnv runs the command's text outside the sandbox at
// the next `cd` into the folder (or VS Code's direnv extension, at once). Nothing along the way says that the file
// is one the sandbox holds in that folder: the Apply refuses only files open with unsaved changes.
// Control: the same rewrite by a session working in the workspace folder itself is held (repository-config).
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeGitWorktrees } from '../../src/agent/node/gitWorktrees';
import type { SessionWorktree } from '../../src/sessionModel/common';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

const SESSION = 'swtapplyenvrc';
const ORIGINAL = 'export APP_MODE=dev\n';

describe("attack: a worktree session's change to what the workspace folder's ignored .envrc sources lands there through Apply", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let inFolder: Fixture;
  let main: string;
  let worktree: SessionWorktree;
  let marker: string;
  const gitIn = (folder: string, home: string, args: string[]) =>
    runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  /** A repository whose ignored, untracked `.envrc` sources the tracked `scripts/dev-env.sh`. */
  const makeRepository = async (folder: string, home: string) => {
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'scripts', 'dev-env.sh'), ORIGINAL);
    await writeFile(join(folder, '.gitignore'), '.envrc\n');
    await writeFile(join(folder, 'README'), 'hello\n');
    assert.equal((await gitIn(folder, home, ['init', '-q', '-b', 'main'])).code, 0);
    assert.equal((await gitIn(folder, home, ['add', '.'])).code, 0);
    assert.equal((await gitIn(folder, home, ['commit', '-q', '-m', 'init'])).code, 0);
    // The user's own direnv settings: untracked, ignored.
    await writeFile(join(folder, '.envrc'), 'source scripts/dev-env.sh\n');
  };
  const payload = () => `printf 'echo ran-outside > ${marker}\\n' >> scripts/dev-env.sh`;

  before(async () => {
    fixture = await makeFixture({}, { root: join('.app.gateway-worktrees', SESSION), tempFolder: '/var/tmp', windowFolders: ['app'] });
    main = join(fixture.base, 'app');
    marker = join(fixture.base, 'direnv-ran');
    await makeRepository(main, fixture.home);
    const made = await new NodeGitWorktrees().create({ repoRoot: main, sessionId: SESSION, linkedFolders: [], signal: never });
    assert.equal(made.worktree.path, fixture.root, 'the fixture works in the worktree the extension made');
    worktree = made.worktree;
    // The control: a session in the workspace folder itself.
    inFolder = await makeFixture({}, { root: 'app', tempFolder: '/var/tmp' });
    await makeRepository(inFolder.root, inFolder.home);
  });
  after(async () => {
    await fixture?.remove();
    await inFolder?.remove();
  });

  test('control: in the workspace folder itself, the rewrite of what its .envrc sources is held', async () => {
    const result = await inFolder.run(payload());
    assert.equal(result.exitCode, 0, result.output);
    assert.ok(
      result.review.moved.some((entry) => entry.path === 'scripts/dev-env.sh'),
      `control: the rewrite was not held: ${JSON.stringify(result.review)}`,
    );
    assert.equal(await readFile(join(inFolder.root, 'scripts', 'dev-env.sh'), 'utf8'), ORIGINAL);
  });

  test("the worktree session's rewrite does not reach the workspace folder's sourced script unasked", async () => {
    const result = await fixture.run(payload());
    assert.equal(result.exitCode, 0, result.output);
    // The user takes the session's work: Apply to Workspace.
    const applied = await new NodeGitWorktrees().apply(worktree, never);
    const script = await readFile(join(main, 'scripts', 'dev-env.sh'), 'utf8');
    // direnv at the user's next `cd` into the folder: it sources .envrc, which sources the script.
    await runOutside('bash', ['-c', `cd '${main}' && source .envrc`]);
    const ran = await access(marker).then(
      () => true,
      () => false,
    );
    assert.ok(
      script === ORIGINAL && !ran,
      `the worktree session's rewrite of scripts/dev-env.sh (sourced by the workspace folder's .envrc) landed in the worktree ` +
        `(held there: ${JSON.stringify(result.review.moved.map((entry) => entry.path))}) and Apply to Workspace ` +
        `(ok: ${String(applied.ok)}) wrote it into the workspace folder; direnv ran it outside the sandbox: ${String(ran)}\n${script}`,
    );
  });
});
