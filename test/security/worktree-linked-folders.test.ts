// Issue 40: a session's own worktree as the sandbox's workspace. The worktree is made as the extension makes it
// (NodeGitWorktrees, beside the repository), its `node_modules` a symbolic link to the main folder's
// (gateway.agent.worktreeLinkedFolders). A sandboxed command rooted at the worktree writes there only, and through the
// link it changes nothing of the main folder: the link's target is outside the workspace, so the sandbox shows it
// read-only (a repository elsewhere on the machine: / is bound read-only) or not at all (a repository under the home
// folder, which the sandbox replaces with an empty scratch folder; under /tmp likewise, the session's own /tmp), and
// the change review never follows the link when it lands what the command changed. Re-pointing the link is held
// (a link is never landed unasked); replacing it with a folder lands a folder in the worktree, the main folder's
// node_modules untouched.
import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeGitWorktrees } from '../../src/agent/node/gitWorktrees';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

const SESSION = 'swtlinked';
const INDEX = 'module.exports = 1;\n';

for (const layout of [
  {
    name: 'under the home folder',
    main: join('home', 'projects', 'app'),
    worktree: join('home', 'projects', '.app.gateway-worktrees', SESSION),
    tempFolder: undefined,
    seen: false,
  },
  // /var/tmp: a folder of the machine the sandbox leaves as it is (read-only), as /work/app or /srv/app would be.
  { name: 'elsewhere on the machine', main: 'app', worktree: join('.app.gateway-worktrees', SESSION), tempFolder: '/var/tmp', seen: true },
]) {
  describe(`a sandboxed command in a session's worktree (the repository ${layout.name})`, async () => {
    if (!(await sandboxHere())) return;
    let fixture: Fixture;
    let main: string;
    const gitIn = (folder: string, args: string[]) =>
      runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
        env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
      });
    /** The main folder's node_modules: every path and file content, to compare before and after. */
    const mainModules = async (): Promise<string> => {
      const seen: string[] = [];
      const walk = async (folder: string, shown: string): Promise<void> => {
        for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) {
            seen.push(`${shown}${entry.name}/`);
            await walk(path, `${shown}${entry.name}/`);
          } else seen.push(`${shown}${entry.name}: ${entry.isFile() ? await readFile(path, 'utf8') : 'not a file'}`);
        }
      };
      await walk(join(main, 'node_modules'), '');
      return seen.join('\n');
    };
    let before_: string;

    before(async () => {
      // The workspace folder is the worktree; it must not exist before git makes it (the fixture makes it empty, which git takes).
      fixture = await makeFixture({}, { root: layout.worktree, ...(layout.tempFolder ? { tempFolder: layout.tempFolder } : {}) });
      main = join(fixture.base, layout.main);
      await mkdir(join(main, 'node_modules', 'dep'), { recursive: true });
      await writeFile(join(main, 'node_modules', 'dep', 'index.js'), INDEX);
      await writeFile(join(main, '.gitignore'), 'node_modules/\n');
      await writeFile(join(main, 'README'), 'hello\n');
      assert.equal((await gitIn(main, ['init', '-q', '-b', 'main'])).code, 0);
      assert.equal((await gitIn(main, ['add', '.'])).code, 0);
      assert.equal((await gitIn(main, ['commit', '-q', '-m', 'init'])).code, 0);
      const made = await new NodeGitWorktrees().create({ repoRoot: main, sessionId: SESSION, linkedFolders: ['node_modules'], signal: never });
      assert.equal(made.worktree.path, fixture.root, 'the fixture works in the worktree the extension made');
      assert.deepEqual(made.linked, ['node_modules']);
      assert.equal(await readlink(join(fixture.root, 'node_modules')), join(main, 'node_modules'));
      before_ = await mainModules();
    });
    after(async () => fixture.remove());

    test('what the command writes lands in the worktree only', async () => {
      const result = await fixture.run('echo made > made.txt && cat README');
      assert.equal(result.exitCode, 0, result.output);
      assert.match(result.output, /hello/, 'the worktree is the workspace: its checked-out files are there');
      assert.equal(await readFile(join(fixture.root, 'made.txt'), 'utf8'), 'made\n');
      assert.equal(await lstat(join(main, 'made.txt')).catch(() => undefined), undefined, 'nothing in the main folder');
    });

    test(`writes through the linked node_modules do not reach the main folder (${layout.seen ? 'read-only' : 'not there'} in the sandbox), nothing held`, async () => {
      const result = await fixture.run(
        [
          'cat node_modules/dep/index.js',
          'echo evil > node_modules/dep/evil.txt || echo refused-new-file',
          'echo changed >> node_modules/dep/index.js || echo refused-append',
          'mkdir node_modules/newpkg || echo refused-mkdir',
          'rm node_modules/dep/index.js || echo refused-rm',
          'touch node_modules/dep/index.js || echo refused-touch',
        ].join('; '),
      );
      // Elsewhere on the machine the linked folder reads and refuses writes; under the home folder it is not there.
      if (layout.seen) {
        assert.match(result.output, /^module\.exports = 1;/, `the linked folder reads: ${result.output}`);
        assert.match(result.output, /Read-only file system/, `writes are refused: ${result.output}`);
      } else assert.match(result.output, /^cat: node_modules\/dep\/index\.js: No such file or directory/, `not there: ${result.output}`);
      for (const refused of ['refused-new-file', 'refused-append', 'refused-mkdir', 'refused-rm', 'refused-touch'])
        assert.match(result.output, new RegExp(refused), `${refused}: ${result.output}`);
      assert.equal(await mainModules(), before_, "the main folder's node_modules is as it was");
      assert.equal(await readlink(join(fixture.root, 'node_modules')), join(main, 'node_modules'), 'the link is as it was');
      assert.deepEqual(result.review.moved, [], 'nothing to hold: nothing of it was written');
    });

    test('the link re-pointed is held, never landed; replaced by a folder, the folder lands in the worktree only', async () => {
      const repointed = await fixture.run(`ln -sfn ${join(fixture.home, '.ssh')} node_modules && echo repointed`);
      assert.match(repointed.output, /repointed/);
      assert.ok(
        repointed.review.moved.some((held) => held.path === 'node_modules' && held.kind === 'symlink'),
        `the new link waits for the user: ${JSON.stringify(repointed.review)}`,
      );
      assert.equal(await readlink(join(fixture.root, 'node_modules')), join(main, 'node_modules'), 'the link is as it was');
      await fixture.held.at(-1)?.discard(never);

      const replaced = await fixture.run('rm node_modules && mkdir -p node_modules/dep && echo replaced > node_modules/dep/index.js && echo replaced');
      assert.equal(replaced.exitCode, 0, replaced.output);
      assert.equal(await mainModules(), before_, "the main folder's node_modules is as it was");
      const now = await lstat(join(fixture.root, 'node_modules'));
      if (now.isSymbolicLink()) assert.equal(await readlink(join(fixture.root, 'node_modules')), join(main, 'node_modules'), 'held: the link stays');
      else assert.equal(await readFile(join(fixture.root, 'node_modules', 'dep', 'index.js'), 'utf8'), 'replaced\n', "the worktree's own folder now");
    });
  });
}
