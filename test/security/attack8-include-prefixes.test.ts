// Attack (round 8): include paths the review resolves differently from Git.
// Git expands an include.path (and every other path-valued key) through interpolate_path: `~/` is the home
// folder, `~user/` is that user's home folder (getpwnam), and `%(prefix)/` is Git's install prefix. The review
// (gitStructure.ts, expandHome) knows only `~/`: any other value that is not absolute is taken as relative to the
// config's folder. So a repository config that includes a workspace file by such a path
// (`include.path = ~alice/projects/app/team.gitconfig`, `%(prefix)/../srv/app/team.gitconfig`) points the review
// at `.git/~alice/...` instead of the real file: a sandboxed command rewrites the real file, it lands as an
// ordinary file, and the next `git status` (VS Code's git extension runs one at once) runs its core.fsmonitor.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000 })
    .toString()
    .trim();

// `~sys` is /dev and `%(prefix)` is /usr on Debian; `/..` from either is `/`, so `<prefix>/..<root>` is the workspace.
const forms: { name: string; prefix: (root: string) => string }[] = [
  { name: '~user/', prefix: (root) => `~sys/..${root}` },
  { name: '%(prefix)/', prefix: (root) => `%(prefix)/..${root}` },
];

describe('attack: include.path with ~user/ or %(prefix)/', async () => {
  if (!(await sandboxHere())) return;

  for (const form of forms) {
    describe(`include.path = ${form.name}…`, () => {
      let fixture: Fixture;
      let env: NodeJS.ProcessEnv;
      before(async () => {
        fixture = await makeFixture();
        env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
        execFileSync('git', ['init', '-q', fixture.root]);
        await writeFile(join(fixture.root, 'team.gitconfig'), '[pull]\n\trebase = true\n');
        git(fixture.root, env, 'config', 'include.path', `${form.prefix(fixture.root)}/team.gitconfig`);
        // Git itself reads the workspace's team.gitconfig through that include.
        assert.equal(git(fixture.root, env, 'config', '--get', 'pull.rebase'), 'true');
      });
      after(async () => fixture.remove());

      test('the included workspace file is held, not landed', async () => {
        const marker = join(fixture.base, `pwned-${form.name.replace(/\W/g, '')}`);
        const result = await fixture.run(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > team.gitconfig`);
        assert.equal(result.exitCode, 0, result.output);
        const fsmonitor = (() => {
          try {
            return git(fixture.root, env, 'config', '--get', 'core.fsmonitor');
          } catch {
            return '';
          }
        })();
        // What VS Code's git extension does next in this workspace.
        try {
          git(fixture.root, env, 'status', '--porcelain');
        } catch {
          // a failing status still ran the hook
        }
        const ran = await access(marker).then(
          () => true,
          () => false,
        );
        assert.ok(
          result.review.moved.some((entry) => entry.path === 'team.gitconfig'),
          `team.gitconfig (included by "${form.name}…") landed unreviewed: git now has core.fsmonitor = ${JSON.stringify(fsmonitor)}` +
            `${ran ? ', and git status ran it outside the sandbox' : ''}; review: ${JSON.stringify(result.review)}`,
        );
        assert.equal(ran, false, 'git status ran the command the sandboxed command planted');
      });
    });
  }
});
