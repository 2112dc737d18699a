// Attack (round 17): a session in a worktree of its own reads the workspace folder's protected files.
// README ("Sessions in a worktree of their own"): the worktree is made beside the repository,
// `<parent>/.<folder name>.gateway-worktrees/<session id>`, and "the session's tools, the `auto` sandbox … are rooted
// there". The sandbox covers the protected files it finds under its own root (protectedPathCache.look of
// request.root, bubblewrap.ts launch: `hidden: [...secrets, ...protectedHere, …]`) and the home folder's secrets,
// nothing else; `/` is bound read-only. So where the repository is not under the home folder (a dev container's or
// Codespaces' /workspaces/app, /srv/app, /work/app), the workspace folder the user opened, with its `.env` and its
// keys, sits beside the worktree, readable: `cat ../app/.env`, or through the `node_modules` link the extension
// itself puts in the worktree (gateway.agent.worktreeLinkedFolders), `cat node_modules/../.env`.
// README (Security): "the protected files and the known credential files are covered"; "What auto does not
// protect" names other folders' files outside the home folder, not the workspace folder's protected files.
// Control: the same `.env` in the worktree itself is covered (reads empty).
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeGitWorktrees } from '../../src/agent/node/gitWorktrees';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

const SESSION = 'swtsecrets';
const SECRET = 'API_TOKEN=sk-live-0123456789abcdef';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- main-folder-key';

describe("attack: a worktree session reads the workspace folder's protected files", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let main: string;
  const gitIn = (folder: string, args: string[]) =>
    runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
    });

  before(async () => {
    // /var/tmp: a folder of the machine outside the home folder, as /workspaces/app or /srv/app would be.
    // The window has `app` open: a worktree session runs only while the folder it was made from is open
    // (sessionRoot.ts decidedRoot), and the extension covers the protected files of every folder of the window.
    fixture = await makeFixture({}, { root: join('.app.gateway-worktrees', SESSION), tempFolder: '/var/tmp', windowFolders: ['app'] });
    main = join(fixture.base, 'app');
    await mkdir(join(main, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(main, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await writeFile(join(main, '.gitignore'), 'node_modules/\n.env\nid_ed25519\n');
    await writeFile(join(main, 'README'), 'hello\n');
    assert.equal((await gitIn(main, ['init', '-q', '-b', 'main'])).code, 0);
    assert.equal((await gitIn(main, ['add', '.'])).code, 0);
    assert.equal((await gitIn(main, ['commit', '-q', '-m', 'init'])).code, 0);
    // The user's secrets in the workspace folder: untracked, ignored, protected by the default patterns.
    await writeFile(join(main, '.env'), `${SECRET}\n`);
    await writeFile(join(main, 'id_ed25519'), `${KEY}\n`);
    const made = await new NodeGitWorktrees().create({ repoRoot: main, sessionId: SESSION, linkedFolders: ['node_modules'], signal: never });
    assert.equal(made.worktree.path, fixture.root, 'the fixture works in the worktree the extension made');
    // The same secret where the session's root is: the control.
    await writeFile(join(fixture.root, '.env'), `${SECRET}\n`);
  });
  after(async () => fixture.remove());

  test("control: the worktree's own .env is covered", async () => {
    const result = await fixture.run('cat .env; echo "[end]"');
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /sk-live/, `control: the worktree's .env was read: ${result.output}`);
  });

  test("the workspace folder's .env and key beside the worktree are covered", async () => {
    const result = await fixture.run(`cat ../../app/.env node_modules/../.env ../../app/id_ed25519 2>&1; echo "[end]"`);
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(
      result.output,
      /sk-live|PRIVATE KEY/,
      `a sandboxed command of the worktree session read the workspace folder's protected files: ${result.output}`,
    );
  });
});
