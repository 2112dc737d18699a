/**
 * Issue 40: a session's own Git worktree on this machine. Git runs as `git` with
 * an argument array (execFile, no shell), bounded in time and output, under the
 * caller's signal. Only our worktrees and branches are ever removed: the folder
 * and branch a session's id gives (sessionModel/common/sessionWorktree.ts).
 */
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readlink, readdir, realpath, rm, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  WORKTREE_BRANCH_PREFIX,
  isPlainAbsolutePath,
  worktreeBranchFor,
  worktreePathFor,
  worktreesFolderFor,
  type SessionWorktree,
} from '../../sessionModel/common';
import { defaultProtectedFiles } from '../../settings/common';
import type { GitWorktrees, StaleWorktree, WorktreeApply, WorktreeApplyOptions, WorktreeChange, WorktreeMade } from '../common/sessions/worktreePorts';
import { heldInFolder, heldText } from './worktreeHeldPaths';
import { numstatPaths, PATCH_MISMATCH, PLAIN_PATCH, samePaths } from './worktreePatch';

const GIT_TIMEOUT_MS = 60_000;
const GIT_MAX_OUTPUT = 64 * 1024 * 1024;

interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs git in `cwd`; resolves with its exit code (a non-zero exit is not thrown: the caller says what it means). */
function git(cwd: string, args: readonly string[], signal: AbortSignal): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        signal,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_OUTPUT,
        encoding: 'buffer',
        // Never a prompt (credentials, an editor): the command fails instead.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? -1 : 0;
        if (error && code === -1) return reject(signal.aborted ? signal.reason : new Error(`git ${args[0]} failed: ${error.message}`));
        resolve({ code, stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}

async function gitOk(cwd: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  const result = await git(cwd, args, signal);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout.toString('utf8');
}

/** A linked folder's name as the setting gives it: one plain folder name at the repository's top (not `.`, `..`, `.git`, no slash). */
export function isLinkableFolder(name: string): boolean {
  return /^[^/\\\0]+$/.test(name) && name !== '.' && name !== '..' && name !== '.git';
}

export class NodeGitWorktrees implements GitWorktrees {
  constructor(
    private readonly options: {
      /** The user's home folder (`~/` in a Git config the review reads); default `os.homedir()`. */
      home?: string;
      /** `gateway.agent.protectedFiles` now; default its default. */
      protectedFiles?: () => readonly string[];
    } = {},
  ) {}

  async whyNot(repoRoot: string, signal: AbortSignal): Promise<string | undefined> {
    if (!isPlainAbsolutePath(repoRoot)) return `A worktree needs a local folder: ${repoRoot}`;
    // A folder git cannot run in (gone, not readable) is no repository either.
    const top = await git(repoRoot, ['rev-parse', '--show-toplevel'], signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
    if (top?.code !== 0) return `${repoRoot} is not in a Git repository: a session can work in a worktree only of a Git repository.`;
    if ((await realpath(top.stdout.toString('utf8').trim()).catch(() => '')) !== (await realpath(repoRoot).catch(() => undefined)))
      return `${repoRoot} is not the top folder of its Git repository: open the repository's top folder to start a session in a worktree.`;
    if ((await git(repoRoot, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], signal)).code !== 0)
      return 'The repository has no commit yet: a worktree starts from the current commit.';
    return undefined;
  }

  async create({ repoRoot, sessionId, linkedFolders, signal }: Parameters<GitWorktrees['create']>[0]): Promise<WorktreeMade> {
    // The same reasons the choice shows before a session starts (Plan first's Start in a New Worktree).
    const why = await this.whyNot(repoRoot, signal);
    if (why !== undefined) throw new Error(why);
    const head = await git(repoRoot, ['rev-parse', '--verify', 'HEAD^{commit}'], signal);
    if (head.code !== 0) throw new Error('The repository has no commit yet: a worktree starts from the current commit.');
    const baseCommit = head.stdout.toString('utf8').trim();
    const status = await gitOk(repoRoot, ['status', '--porcelain=v1', '-z', '--untracked-files=all'], signal);
    const uncommitted = status
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3));
    const path = worktreePathFor(repoRoot, sessionId);
    const branch = worktreeBranchFor(sessionId);
    await mkdir(worktreesFolderFor(repoRoot), { recursive: true });
    await gitOk(repoRoot, ['worktree', 'add', '--quiet', '-b', branch, path, baseCommit], signal);
    const linked: string[] = [];
    for (const name of linkedFolders) {
      if (!isLinkableFolder(name)) continue;
      const source = join(repoRoot, name);
      const target = join(path, name);
      const stat = await lstat(source).catch(() => undefined);
      // Only a real folder of the repository that the worktree does not have (an ignored one: Git did not check it out).
      if (!stat?.isDirectory() || (await lstat(target).catch(() => undefined))) continue;
      await mkdir(join(target, '..'), { recursive: true });
      await symlink(source, target, 'dir');
      linked.push(name);
    }
    return { worktree: { repoRoot, path, branch, baseCommit }, uncommitted, linked };
  }

  async changes(worktree: SessionWorktree, signal: AbortSignal): Promise<WorktreeChange[]> {
    const path = await this.ours(worktree);
    const excluded = await linkedIn(worktree);
    await gitOk(path, ['add', '-A', '--', '.', ...excluded.map((name) => `:(exclude,literal)${name}`)], signal);
    const listing = await gitOk(path, ['diff', '--cached', '--no-renames', '--raw', '-z', worktree.baseCommit, '--'], signal);
    const fields = listing.split('\0').filter((field) => field !== '');
    const changes: WorktreeChange[] = [];
    // `:<old mode> <new mode> <old id> <new id> <letter>` then the path.
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [, newMode = '', , , letter = ''] = fields[i].slice(1).split(' ');
      const status = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
      const kind = newMode === '120000' ? 'link' : newMode === '160000' ? 'submodule' : undefined;
      changes.push({ path: fields[i + 1], status, ...(kind ? { kind } : {}), ...(newMode === '100755' ? { executable: true } : {}) });
    }
    return changes;
  }

  async baseContent(worktree: SessionWorktree, path: string, signal: AbortSignal): Promise<Uint8Array | undefined> {
    const folder = await this.ours(worktree);
    const result = await git(folder, ['show', `${worktree.baseCommit}:${path}`], signal);
    return result.code === 0 ? new Uint8Array(result.stdout) : undefined;
  }

  async apply(worktree: SessionWorktree, signal: AbortSignal, options: WorktreeApplyOptions = {}): Promise<WorktreeApply> {
    const changes = await this.changes(worktree, signal);
    const files = changes.map((change) => change.path);
    if (files.length === 0) return { ok: true, files };
    // A link (it could point anywhere on the disk) or a submodule is never written into the workspace by Apply.
    const special = changes.filter((change) => change.kind !== undefined);
    if (special.length > 0)
      return {
        ok: false,
        reason: `The session made ${special.map((change) => `${change.path} a ${change.kind === 'link' ? 'symbolic link' : 'submodule'}`).join(', ')}: Apply does not write links or submodules into the workspace. Open the worktree to take the changes by hand.`,
        files,
      };
    const refused = options.refuse?.(files);
    if (refused !== undefined) return { ok: false, reason: refused, files };
    // Judged against the folder as it is now (round 19b): the worktree's own review never saw the folder's untracked
    // configs, so what they run was an ordinary file there.
    const held = await heldInFolder({
      worktree,
      source: await this.ours(worktree),
      changes,
      home: this.options.home ?? homedir(),
      protectedPatterns: this.options.protectedFiles?.() ?? defaultProtectedFiles,
      signal,
    });
    const approved = new Set(options.approved ?? []);
    const unapproved = held.filter((entry) => !approved.has(entry.path));
    if (unapproved.length > 0 && !options.leaveHeld) return { ok: false, reason: heldText(unapproved), files, held: unapproved };
    const left = new Set(unapproved.map((entry) => entry.path));
    const applied = files.filter((path) => !left.has(path));
    if (applied.length === 0) return { ok: true, files: [], left: unapproved };
    // The paths left out, each named literally: none of them reaches the patch (a short list: the held ones).
    const pathspecs = [...left].map((path) => `:(exclude,literal)${path}`);
    const diff = await git(await this.ours(worktree), [...PLAIN_PATCH, worktree.baseCommit, '--', ...pathspecs], signal);
    if (diff.code !== 0) throw new Error(`git diff failed: ${diff.stderr.trim() || `exit ${diff.code}`}`);
    const folder = await mkdtemp(join(tmpdir(), 'gateway-apply-'));
    try {
      const patchFile = join(folder, 'session.patch');
      await writeFile(patchFile, diff.stdout);
      // The paths the patch writes, as `git apply` reads them, must be exactly the judged ones (round 20b).
      const written = numstatPaths(await gitOk(worktree.repoRoot, ['apply', '--numstat', '-z', patchFile], signal));
      if (!samePaths(written, applied)) return { ok: false, reason: PATCH_MISMATCH, files };
      // Checked first, whole: nothing is written unless every change applies to the folder as it is now.
      const check = await git(worktree.repoRoot, ['apply', '--check', '--whitespace=nowarn', patchFile], signal);
      if (check.code !== 0) return { ok: false, reason: conflictText(check.stderr), files };
      await gitOk(worktree.repoRoot, ['apply', '--whitespace=nowarn', patchFile], signal);
      return { ok: true, files: applied, ...(left.size > 0 ? { left: unapproved } : {}) };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  async discard(worktree: SessionWorktree, signal: AbortSignal): Promise<void> {
    const sessionId = worktree.path.slice(worktree.path.lastIndexOf('/') + 1);
    await this.removeStale(worktree.repoRoot, { sessionId, path: worktree.path, branch: worktree.branch }, signal);
  }

  async findStale(repoRoot: string, known: ReadonlySet<string>, signal: AbortSignal): Promise<StaleWorktree[]> {
    const folder = worktreesFolderFor(repoRoot);
    const stale = new Map<string, StaleWorktree>();
    const listing = await gitOk(repoRoot, ['worktree', 'list', '--porcelain', '-z'], signal);
    for (const block of listing.split('\0\0')) {
      const lines = block.split('\0');
      const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
      if (!path?.startsWith(`${folder}/`)) continue;
      const sessionId = path.slice(folder.length + 1);
      if (sessionId.includes('/') || known.has(sessionId) || path !== safePath(repoRoot, sessionId)) continue;
      stale.set(sessionId, { sessionId, path });
    }
    const branches = await gitOk(repoRoot, ['for-each-ref', '--format=%(refname:strip=2)', `refs/heads/${WORKTREE_BRANCH_PREFIX}`], signal);
    for (const branch of branches.split('\n').filter((line) => line !== '')) {
      const sessionId = branch.slice(WORKTREE_BRANCH_PREFIX.length);
      if (known.has(sessionId) || branch !== safeBranch(sessionId)) continue;
      stale.set(sessionId, { ...stale.get(sessionId), sessionId, branch });
    }
    // A folder of ours Git no longer lists (its metadata pruned, a crash midway).
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!known.has(name) && !stale.has(name) && safePath(repoRoot, name)) stale.set(name, { sessionId: name, path: join(folder, name) });
    }
    return [...stale.values()].sort((a, b) => a.sessionId.localeCompare(b.sessionId));
  }

  async removeStale(repoRoot: string, stale: StaleWorktree, signal: AbortSignal): Promise<void> {
    const path = safePath(repoRoot, stale.sessionId);
    const branch = safeBranch(stale.sessionId);
    if (!path || !branch || (stale.path !== undefined && stale.path !== path) || (stale.branch !== undefined && stale.branch !== branch))
      throw new Error(`Not a session's worktree: ${stale.path ?? stale.branch ?? stale.sessionId}`);
    if (await lstat(path).catch(() => undefined)) {
      // The linked folders go first, as links: nothing of the repository's own folders is followed.
      for (const name of await linkedIn({ repoRoot, path })) await unlink(join(path, name));
      const removed = await git(repoRoot, ['worktree', 'remove', '--force', '--force', path], signal);
      if (removed.code !== 0) await rm(path, { recursive: true, force: true });
    }
    await git(repoRoot, ['worktree', 'prune'], signal);
    const hasBranch = await git(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], signal);
    if (hasBranch.code === 0) await gitOk(repoRoot, ['branch', '-D', '--', branch], signal);
    await rmdir(worktreesFolderFor(repoRoot)).catch(() => undefined);
  }

  /** The worktree's folder, when it is the one the session's id gives and it is there. */
  private async ours(worktree: SessionWorktree): Promise<string> {
    const sessionId = worktree.path.slice(worktree.path.lastIndexOf('/') + 1);
    if (safePath(worktree.repoRoot, sessionId) !== worktree.path || safeBranch(sessionId) !== worktree.branch)
      throw new Error(`Not a session's worktree: ${worktree.path}`);
    if (!(await lstat(worktree.path).catch(() => undefined))?.isDirectory()) throw new Error(`The session's worktree ${worktree.path} is gone.`);
    return worktree.path;
  }
}

function safePath(repoRoot: string, sessionId: string): string | undefined {
  try {
    return worktreePathFor(repoRoot, sessionId);
  } catch {
    return undefined;
  }
}

function safeBranch(sessionId: string): string | undefined {
  try {
    return worktreeBranchFor(sessionId);
  } catch {
    return undefined;
  }
}

/** The worktree's top entries that are links we made: a symbolic link to the same name in the repository. */
async function linkedIn(worktree: Pick<SessionWorktree, 'repoRoot' | 'path'>): Promise<string[]> {
  const names: string[] = [];
  for (const name of await readdir(worktree.path).catch(() => [] as string[])) {
    const target = await readlink(join(worktree.path, name)).catch(() => undefined);
    if (target === join(worktree.repoRoot, name)) names.push(name);
  }
  return names;
}

/** What `git apply --check` said, as the user reads it. */
function conflictText(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^error: /, '').trim())
    .filter((line) => line !== '');
  return lines.slice(0, 20).join('\n') || 'The changes do not apply to the workspace folder as it is now.';
}
