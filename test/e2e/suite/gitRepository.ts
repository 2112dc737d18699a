// The sample workspace made a Git repository for a test, and taken back after it: the worktree tests' setup.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Git in `cwd` with a committer of its own (the machine may have none); its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.com' },
  });
}

/** `dir` as a repository on `main` whose one commit holds what is there; `beforeCommit` runs between init and commit. */
export function makeRepository(dir: string, beforeCommit: () => void = () => undefined): void {
  git(dir, 'init', '-q', '-b', 'main');
  beforeCommit();
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'e2e base');
}

/** The worktrees a test made, then the repository itself: the sample workspace as it was, less the test's own files. */
export function removeRepository(dir: string, worktrees: readonly string[]): void {
  for (const path of worktrees) if (existsSync(path)) git(dir, 'worktree', 'remove', '--force', path);
  rmSync(join(dir, '.git'), { recursive: true, force: true });
}
