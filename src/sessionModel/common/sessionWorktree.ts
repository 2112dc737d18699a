/**
 * Issue 40: a session may work in a Git worktree of its own instead of the
 * workspace folder. What the session records of it, and the only place and
 * branch a session's worktree may have: both follow from the repository and
 * the session's id, so a saved session (hostile input: the file may have been
 * edited) can name no other folder to work in, remove, or apply from.
 */

/** Where a session works: the worktree made for it (absent: the workspace folder it started in). */
export interface SessionWorktree {
  /** The repository's top folder (the workspace folder the session started from), a local absolute path. */
  repoRoot: string;
  /** The worktree's folder: `worktreePathFor(repoRoot, id)`. */
  path: string;
  /** The worktree's branch: `worktreeBranchFor(id)`. */
  branch: string;
  /** The commit the worktree was made from (Review Changes and Apply compare with it). */
  baseCommit: string;
  /** When the user discarded the worktree (and its branch): the session can no longer run, only be read. */
  discardedAt?: number;
}

/** Where new sessions work: asked at the start, the workspace folder, or a new worktree (`gateway.agent.sessionPlace`). */
export type SessionPlaceChoice = 'ask' | 'folder' | 'worktree';

/** The prefix of the branches the sessions' worktrees are on: only these are ever deleted. */
export const WORKTREE_BRANCH_PREFIX = 'gateway/';

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The folder of every worktree of the repository at `repoRoot`: beside the repository,
 * not in it (a worktree inside the workspace folder would be searched, watched and
 * listed by Git as untracked files of the main folder; beside it, it is on the same
 * disk and a user finds it), and not in the extension's storage (its path would differ
 * per machine and window, and a worktree there is lost from sight when VS Code goes).
 */
export function worktreesFolderFor(repoRoot: string): string {
  const trimmed = repoRoot.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return `${trimmed.slice(0, slash) || ''}/.${trimmed.slice(slash + 1)}.gateway-worktrees`;
}

/** The worktree folder of session `sessionId`. */
export function worktreePathFor(repoRoot: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`Invalid session id ${sessionId}`);
  return `${worktreesFolderFor(repoRoot)}/${sessionId}`;
}

/** The branch of session `sessionId`'s worktree. */
export function worktreeBranchFor(sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`Invalid session id ${sessionId}`);
  return `${WORKTREE_BRANCH_PREFIX}${sessionId}`;
}

/** A local absolute path without `.`/`..` segments, NUL or a trailing slash (`/` itself refused: it has no parent to hold the worktrees). */
export function isPlainAbsolutePath(path: string): boolean {
  if (!path.startsWith('/') || path.length < 2 || path.endsWith('/') || path.includes('\0')) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A saved session's worktree, checked as hostile input: undefined unless its folder and branch are the ones its id gives. */
export function parseSessionWorktree(value: unknown, sessionId: string): SessionWorktree | undefined {
  if (typeof value !== 'object' || value === null || !SESSION_ID.test(sessionId)) return undefined;
  const record = value as Record<string, unknown>;
  const { repoRoot, path, branch, baseCommit } = record;
  if (typeof repoRoot !== 'string' || typeof path !== 'string' || typeof branch !== 'string' || typeof baseCommit !== 'string') return undefined;
  if (!isPlainAbsolutePath(repoRoot) || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(baseCommit)) return undefined;
  if (path !== worktreePathFor(repoRoot, sessionId) || branch !== worktreeBranchFor(sessionId)) return undefined;
  const discardedAt = typeof record.discardedAt === 'number' && Number.isFinite(record.discardedAt) ? record.discardedAt : undefined;
  return { repoRoot, path, branch, baseCommit, ...(discardedAt !== undefined ? { discardedAt } : {}) };
}

/** What the Sessions view says of where a session works. */
export function describePlace(worktree: SessionWorktree | undefined, folderName: string | undefined): string {
  if (!worktree) return folderName ?? 'folder';
  return worktree.discardedAt !== undefined ? `worktree discarded · ${worktree.branch}` : `worktree · ${worktree.branch}`;
}
