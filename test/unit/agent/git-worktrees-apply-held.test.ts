/**
 * Round 19b: Apply to Workspace judges a worktree session's changes against the workspace folder as it is, by the
 * sandbox review's rules. The folder's ignored `.envrc` sources `scripts/dev-env.sh`; the worktree (a fresh checkout
 * without that `.envrc`) changes the script: Apply refuses the whole unasked, applies the rest when told to leave the
 * held paths, everything when exactly those paths are approved; the worktree keeps what was left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeGitWorktrees } from '../../../src/agent/node/gitWorktrees';

const signal = new AbortController().signal;
const SCRIPT = 'export APP_MODE=dev\n';

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

/** A repository whose ignored `.envrc` sources the tracked script, and a worktree session that changed the script and a.txt. */
async function changedWorktree(t: { after(fn: () => void): void }, sessionId: string) {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'gw-wt-held-')));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = join(parent, 'app');
  mkdirSync(join(root, 'scripts'), { recursive: true });
  writeFileSync(join(root, 'scripts', 'dev-env.sh'), SCRIPT);
  writeFileSync(join(root, 'a.txt'), 'one\n');
  writeFileSync(join(root, '.gitignore'), '.envrc\n');
  gitIn(root, 'init', '-q', '-b', 'main');
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'first');
  writeFileSync(join(root, '.envrc'), 'source scripts/dev-env.sh\n');
  const worktrees = new NodeGitWorktrees({ home: parent, protectedFiles: () => [] });
  const { worktree } = await worktrees.create({ repoRoot: root, sessionId, linkedFolders: [], signal });
  writeFileSync(join(worktree.path, 'scripts', 'dev-env.sh'), `${SCRIPT}touch /tmp/ran\n`);
  writeFileSync(join(worktree.path, 'a.txt'), 'one\ntwo\n');
  return { root, worktree, worktrees };
}

test("a change to what the folder's ignored .envrc sources is not applied unasked: the whole is refused, with why", async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'sheld');
  const refused = await worktrees.apply(worktree, signal);
  assert.equal(refused.ok, false);
  assert.deepEqual(!refused.ok && refused.held?.map((entry) => entry.path), ['scripts/dev-env.sh']);
  assert.match(!refused.ok ? refused.reason : '', /scripts\/dev-env\.sh: a file a repository's Git config or hooks point at/);
  assert.equal(readFileSync(join(root, 'scripts', 'dev-env.sh'), 'utf8'), SCRIPT, 'the script is untouched');
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\n', 'nothing else is written either');

  // An approval that does not name the held path is no approval.
  const wrongApproval = await worktrees.apply(worktree, signal, { approved: ['a.txt'] });
  assert.equal(wrongApproval.ok, false);
  assert.equal(readFileSync(join(root, 'scripts', 'dev-env.sh'), 'utf8'), SCRIPT);

  // Apply without them: the rest lands, the script stays in the worktree.
  const rest = await worktrees.apply(worktree, signal, { leaveHeld: true });
  assert.equal(rest.ok, true);
  assert.deepEqual(rest.ok && rest.files, ['a.txt']);
  assert.deepEqual(rest.ok && rest.left?.map((entry) => entry.path), ['scripts/dev-env.sh']);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\ntwo\n');
  assert.equal(readFileSync(join(root, 'scripts', 'dev-env.sh'), 'utf8'), SCRIPT);
  assert.match(readFileSync(join(worktree.path, 'scripts', 'dev-env.sh'), 'utf8'), /touch \/tmp\/ran/, 'the worktree keeps it');
});

test('the user approves exactly the held paths: everything is applied', async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'sapproved');
  const applied = await worktrees.apply(worktree, signal, { approved: ['scripts/dev-env.sh'] });
  assert.deepEqual(applied, { ok: true, files: ['a.txt', 'scripts/dev-env.sh'] });
  assert.match(readFileSync(join(root, 'scripts', 'dev-env.sh'), 'utf8'), /touch \/tmp\/ran/);
});

test('without the .envrc in the folder the script is an ordinary file: applied as before', async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'splain');
  rmSync(join(root, '.envrc'));
  assert.deepEqual(await worktrees.apply(worktree, signal), { ok: true, files: ['a.txt', 'scripts/dev-env.sh'] });
});

test('a file the session made executable, not executable in the folder, is held; a deletion of a sourced script too', async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'smodes');
  writeFileSync(join(worktree.path, 'a.txt'), 'one\n');
  writeFileSync(join(worktree.path, 'tool.sh'), 'echo hi\n', { mode: 0o755 });
  rmSync(join(worktree.path, 'scripts', 'dev-env.sh'));
  const refused = await worktrees.apply(worktree, signal);
  assert.equal(refused.ok, false);
  assert.deepEqual(!refused.ok && refused.held?.map((entry) => `${entry.path}: ${entry.why}`).sort(), [
    "scripts/dev-env.sh: a file a repository's Git config or hooks point at (an include, hooks folder, worktree, program or script)",
    'tool.sh: a new executable file',
  ]);
  assert.equal(readFileSync(join(root, 'scripts', 'dev-env.sh'), 'utf8'), SCRIPT);
});

test("a change to a script the folder's ignored agent settings run as a hook is held", async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'sagent');
  rmSync(join(root, '.envrc'));
  mkdirSync(join(root, '.claude'));
  writeFileSync(join(root, '.gitignore'), '.envrc\n.claude/\n');
  writeFileSync(
    join(root, '.claude', 'settings.local.json'),
    JSON.stringify({ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'sh scripts/dev-env.sh' }] }] } }),
  );
  const refused = await worktrees.apply(worktree, signal);
  assert.deepEqual(!refused.ok && refused.held?.map((entry) => entry.path), ['scripts/dev-env.sh']);
});

test("a change to a script the folder's untracked core.hooksPath hooks run is held", async (t) => {
  const { root, worktree, worktrees } = await changedWorktree(t, 'shooks');
  rmSync(join(root, '.envrc'));
  mkdirSync(join(root, '.hooks-local'));
  writeFileSync(join(root, '.gitignore'), '.envrc\n.hooks-local/\n');
  writeFileSync(join(root, '.hooks-local', 'pre-commit'), '#!/bin/sh\nsh scripts/dev-env.sh\n', { mode: 0o755 });
  gitIn(root, 'config', 'core.hooksPath', '.hooks-local');
  const refused = await worktrees.apply(worktree, signal);
  assert.deepEqual(!refused.ok && refused.held?.map((entry) => entry.path), ['scripts/dev-env.sh']);
});
