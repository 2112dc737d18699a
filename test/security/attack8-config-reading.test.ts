// Attack (round 8): repository configs Git reads whole and the review reads otherwise.
// 1. gitStructure.ts reads a config only up to 1 MB (readBounded: a larger one is skipped as if absent); Git reads
//    any size. A repository whose .git/config grew past 1 MB (thousands of branch.* sections of a long-lived
//    clone, a generated remote list) and that includes a workspace file has that include never seen: a
//    sandboxed command rewrites the included file, it lands, and git runs its core.fsmonitor.
// 2. configEntries joins every line ending in a backslash with the next one before it looks for comments; Git
//    ignores a backslash inside a comment. A comment line ending in `\` (a Windows path in a note) swallows the
//    `[include]` header below it for the review, not for Git.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { access, appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { env: { ...process.env, ...env }, timeout: 20_000, maxBuffer: 64 * 1024 * 1024 })
    .toString()
    .trim();

const configs: { name: string; tail: () => string }[] = [
  {
    name: 'a .git/config past 1 MB',
    tail: () => {
      let branches = '';
      for (let index = 0; branches.length < 1_200_000; index++) {
        branches += `[branch "feature/ticket-${index}"]\n\tremote = origin\n\tmerge = refs/heads/feature/ticket-${index}\n`;
      }
      return `[include]\n\tpath = ../team.gitconfig\n${branches}`;
    },
  },
  {
    name: 'a comment line ending in a backslash above the include',
    tail: () => `# team settings are shared with the Windows build in C:\\build\\\n[include]\n\tpath = ../team.gitconfig\n`,
  },
];

describe('attack: repository configs the review misreads', async () => {
  if (!(await sandboxHere())) return;

  for (const config of configs) {
    describe(config.name, () => {
      let fixture: Fixture;
      let env: NodeJS.ProcessEnv;
      before(async () => {
        fixture = await makeFixture();
        env = { HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' };
        execFileSync('git', ['init', '-q', fixture.root]);
        await writeFile(join(fixture.root, 'team.gitconfig'), '[pull]\n\trebase = true\n');
        await appendFile(join(fixture.root, '.git', 'config'), config.tail());
        // Git itself reads the workspace's team.gitconfig through that include.
        assert.equal(git(fixture.root, env, 'config', '--get', 'pull.rebase'), 'true');
      });
      after(async () => fixture.remove());

      test('the included workspace file is held, not landed', async () => {
        const marker = join(fixture.base, 'pwned-fsmonitor');
        const result = await fixture.run(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > team.gitconfig`);
        assert.equal(result.exitCode, 0, result.output);
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
          `team.gitconfig (included by ${config.name}) landed unreviewed${ran ? ' and git status ran its core.fsmonitor outside the sandbox' : ''}; ` +
            `review: ${JSON.stringify(result.review)}`,
        );
        assert.equal(ran, false, 'git status ran the command the sandboxed command planted');
      });
    });
  }
});
