/**
 * Issue 40: a session's own worktree over real Git in temp folders: made beside the
 * repository from HEAD, isolated from another session's, applied clean or refused on
 * a conflict (nothing written), discarded with its branch, stale ones found; a saved
 * session's worktree is checked as hostile input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeGitWorktrees, isLinkableFolder } from '../../../src/agent/node/gitWorktrees';
import { parseSavedSession } from '../../../src/sessionModel/common';
import { worktreePathFor } from '../../../src/sessionModel/common';

const signal = new AbortController().signal;

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

function repo(t: { after(fn: () => void): void }): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'gw-wt-')));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = join(parent, 'project');
  mkdirSync(root);
  gitIn(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'first');
  return root;
}

test('two sessions get their own worktrees beside the repository, from HEAD, each blind to the other', async (t) => {
  const root = repo(t);
  const worktrees = new NodeGitWorktrees();
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\nuncommitted\n');
  const [first, second] = await Promise.all([
    worktrees.create({ repoRoot: root, sessionId: 'sone', linkedFolders: ['node_modules', '../x', '/etc'], signal }),
    worktrees.create({ repoRoot: root, sessionId: 'stwo', linkedFolders: ['node_modules'], signal }),
  ]);
  assert.equal(first.worktree.path, join(root, '..', '.project.gateway-worktrees', 'sone'));
  assert.equal(first.worktree.branch, 'gateway/sone');
  assert.equal(first.worktree.baseCommit, gitIn(root, 'rev-parse', 'HEAD').trim());
  assert.deepEqual(first.uncommitted, ['a.txt'], 'the uncommitted change is reported, not carried');
  assert.equal(readFileSync(join(first.worktree.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  assert.deepEqual(first.linked, ['node_modules']);
  assert.ok(lstatSync(join(first.worktree.path, 'node_modules')).isSymbolicLink());
  gitIn(root, 'checkout', '-q', '--', 'a.txt');

  writeFileSync(join(first.worktree.path, 'a.txt'), 'one\nFIRST\nthree\n');
  writeFileSync(join(second.worktree.path, 'a.txt'), 'one\nSECOND\nthree\n');
  writeFileSync(join(first.worktree.path, 'new.txt'), 'new\n');
  assert.equal(readFileSync(join(second.worktree.path, 'a.txt'), 'utf8'), 'one\nSECOND\nthree\n');
  assert.ok(!existsSync(join(second.worktree.path, 'new.txt')));
  assert.deepEqual(await worktrees.changes(first.worktree, signal), [
    { path: 'a.txt', status: 'modified' },
    { path: 'new.txt', status: 'added' },
  ]);
  assert.equal(new TextDecoder().decode(await worktrees.baseContent(first.worktree, 'a.txt', signal)), 'one\ntwo\nthree\n');

  // The first applies clean; the second then conflicts with it and is refused whole, nothing written.
  assert.deepEqual(await worktrees.apply(first.worktree, signal), { ok: true, files: ['a.txt', 'new.txt'] });
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\nFIRST\nthree\n');
  assert.equal(readFileSync(join(root, 'new.txt'), 'utf8'), 'new\n');
  const refused = await worktrees.apply(second.worktree, signal);
  assert.equal(refused.ok, false);
  assert.match(!refused.ok ? refused.reason : '', /a\.txt/);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\nFIRST\nthree\n');

  // An unsaved editor refuses before anything is written.
  const vetoed = await worktrees.apply(second.worktree, signal, { refuse: (files) => `unsaved: ${files.join(', ')}` });
  assert.deepEqual(vetoed, { ok: false, reason: 'unsaved: a.txt', files: ['a.txt'] });

  // A symbolic link the session made is never written into the workspace.
  symlinkSync('/etc/passwd', join(second.worktree.path, 'innocent.txt'));
  const linked = await worktrees.apply(second.worktree, signal);
  assert.equal(linked.ok, false);
  assert.match(!linked.ok ? linked.reason : '', /innocent\.txt a symbolic link/);
  assert.ok(!existsSync(join(root, 'innocent.txt')));

  // Discard: worktree and branch gone, the linked folder's contents kept.
  await worktrees.discard(second.worktree, signal);
  assert.ok(!existsSync(second.worktree.path));
  assert.equal(gitIn(root, 'branch', '--list', 'gateway/stwo').trim(), '');
  assert.ok(existsSync(join(root, 'node_modules', 'dep', 'index.js')));

  // The first's session was deleted: its worktree and branch are stale; a known one is not.
  assert.deepEqual(await worktrees.findStale(root, new Set(['sone']), signal), []);
  const stale = await worktrees.findStale(root, new Set(), signal);
  assert.deepEqual(stale, [{ sessionId: 'sone', path: first.worktree.path, branch: 'gateway/sone' }]);
  await worktrees.removeStale(root, stale[0], signal);
  assert.ok(!existsSync(first.worktree.path));
  assert.ok(!existsSync(join(root, '..', '.project.gateway-worktrees')));
  assert.equal(gitIn(root, 'branch', '--list', 'gateway/*').trim(), '');
  assert.ok(existsSync(join(root, 'node_modules', 'dep', 'index.js')));
});

test("Apply writes the paths it judged whatever the user's diff settings (diff.noprefix, mnemonicPrefix, an external diff)", async (t) => {
  const root = repo(t);
  for (const [key, value] of [
    ['diff.noprefix', 'true'],
    ['diff.mnemonicPrefix', 'true'],
    ['diff.external', 'false'],
  ]) {
    gitIn(root, 'config', key, value);
  }
  const worktrees = new NodeGitWorktrees();
  const made = await worktrees.create({ repoRoot: root, sessionId: 'snoprefix', linkedFolders: [], signal });
  mkdirSync(join(made.worktree.path, 'x'));
  writeFileSync(join(made.worktree.path, 'x', 'notes.md'), 'in a folder\n');
  writeFileSync(join(made.worktree.path, 'a.txt'), 'one\nTWO\nthree\n');
  const applied = await worktrees.apply(made.worktree, signal);
  assert.deepEqual(applied, { ok: true, files: ['a.txt', 'x/notes.md'] });
  assert.equal(readFileSync(join(root, 'x', 'notes.md'), 'utf8'), 'in a folder\n');
  assert.equal(existsSync(join(root, 'notes.md')), false, 'no folder of the path stripped');
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
});

test('a stale removal refuses what is not ours', async (t) => {
  const root = repo(t);
  const worktrees = new NodeGitWorktrees();
  await assert.rejects(worktrees.removeStale(root, { sessionId: 'x', path: '/tmp/elsewhere' }, signal), /Not a session's worktree/);
  await assert.rejects(worktrees.removeStale(root, { sessionId: 'x', branch: 'main' }, signal), /Not a session's worktree/);
  await assert.rejects(worktrees.removeStale(root, { sessionId: '../x' }, signal), /Not a session's worktree/);
  gitIn(root, 'branch', 'gateway-not-ours');
  assert.deepEqual(await worktrees.findStale(root, new Set(), signal), []);
});

test('a folder that is not the top of a repository, or has no commit, gets no worktree', async (t) => {
  const root = repo(t);
  mkdirSync(join(root, 'sub'));
  const worktrees = new NodeGitWorktrees();
  await assert.rejects(worktrees.create({ repoRoot: join(root, 'sub'), sessionId: 's1', linkedFolders: [], signal }), /top folder/);
  const empty = join(root, '..', 'empty');
  mkdirSync(empty);
  gitIn(empty, 'init', '-q');
  await assert.rejects(worktrees.create({ repoRoot: empty, sessionId: 's1', linkedFolders: [], signal }), /no commit/);

  // Why not, as the choice (Plan first's Start in a New Worktree) tells it before anything is made.
  const plain = join(root, '..', 'plain');
  mkdirSync(plain);
  assert.match((await worktrees.whyNot(plain, signal)) ?? '', /plain is not in a Git repository: a session can work in a worktree only of a Git repository\./);
  assert.match((await worktrees.whyNot(join(root, 'sub'), signal)) ?? '', /is not the top folder of its Git repository/);
  assert.match((await worktrees.whyNot(empty, signal)) ?? '', /no commit yet/);
  assert.match((await worktrees.whyNot(join(root, '..', 'gone'), signal)) ?? '', /is not in a Git repository/, 'a folder that is not there');
  assert.match((await worktrees.whyNot('relative/folder', signal)) ?? '', /needs a local folder/);
  assert.equal(await worktrees.whyNot(root, signal), undefined, 'the top of a repository with a commit');
  await assert.rejects(worktrees.create({ repoRoot: plain, sessionId: 's1', linkedFolders: [], signal }), /not in a Git repository/);
});

test('linked folders are plain names at the top of the repository', () => {
  for (const good of ['node_modules', '.venv', 'target']) assert.ok(isLinkableFolder(good), good);
  for (const bad of ['', '.', '..', '../x', '/etc', 'a/b', '.git', 'a\\b']) assert.ok(!isLinkableFolder(bad), bad);
});

test('a saved session keeps only the worktree its id gives', () => {
  const base = { id: 'sabc', status: 'paused', rootUri: 'file:///home/u/project' };
  const worktree = { repoRoot: '/home/u/project', path: worktreePathFor('/home/u/project', 'sabc'), branch: 'gateway/sabc', baseCommit: 'a'.repeat(40) };
  assert.deepEqual(parseSavedSession({ ...base, worktree })?.worktree, worktree);
  for (const hostile of [
    { ...worktree, path: '/home/u/.ssh' },
    { ...worktree, path: worktreePathFor('/home/u/project', 'other') },
    { ...worktree, branch: 'main' },
    { ...worktree, repoRoot: '/home/u/../u/project' },
    { ...worktree, repoRoot: 'relative' },
    { ...worktree, baseCommit: 'HEAD' },
    { ...worktree, path: 7 },
  ])
    assert.equal(parseSavedSession({ ...base, worktree: hostile })?.worktree, undefined, JSON.stringify(hostile));
});
