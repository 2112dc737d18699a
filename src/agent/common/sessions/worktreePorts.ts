/**
 * Issue 40: the sessions' own Git worktrees, as the vscode-free services and the
 * VS Code side ask for them (implemented on Node by agent/node/gitWorktrees.ts).
 */
import type { SessionWorktree } from '../../../sessionModel/common';

/** A worktree made for a session. */
export interface WorktreeMade {
  worktree: SessionWorktree;
  /** The files with changes not committed in the workspace folder: the worktree does not have them (it starts from the commit). */
  uncommitted: string[];
  /** The ignored folders linked in from the repository (e.g. node_modules). */
  linked: string[];
}

export interface WorktreeChange {
  /** Relative to the worktree (and to the repository's top). */
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** What the path is now when it is not a file: a symbolic link or a submodule (Apply refuses both). */
  kind?: 'link' | 'submodule';
}

/** Apply to Workspace: applied whole, or refused whole with what conflicts (nothing of the workspace changed). */
export type WorktreeApply = { ok: true; files: string[] } | { ok: false; reason: string; files: string[] };

/** A worktree (or a branch left without one) of ours whose session is gone. */
export interface StaleWorktree {
  sessionId: string;
  /** Its folder, when there is one. */
  path?: string;
  /** Its branch, when there is one. */
  branch?: string;
}

export interface GitWorktrees {
  /**
   * Why no worktree can be made of the folder (it is not the top of a Git repository with a commit), in words
   * the user is shown; undefined when one can.
   */
  whyNot(repoRoot: string, signal: AbortSignal): Promise<string | undefined>;
  /** A branch `gateway/<id>` and its worktree beside the repository, from HEAD; `linkedFolders` linked in where the repository has them. */
  create(input: { repoRoot: string; sessionId: string; linkedFolders: readonly string[]; signal: AbortSignal }): Promise<WorktreeMade>;
  /** What the session changed against the commit it started from (committed in the worktree or not). */
  changes(worktree: SessionWorktree, signal: AbortSignal): Promise<WorktreeChange[]>;
  /** The file at the base commit, or undefined when it was not there. */
  baseContent(worktree: SessionWorktree, path: string, signal: AbortSignal): Promise<Uint8Array | undefined>;
  /**
   * Applies the session's changes to the repository's working folder, all or nothing: a change
   * that does not apply (the user changed the same lines, a file is in the way) refuses the whole.
   * `refuse` sees the files first and may refuse them (unsaved editors).
   */
  apply(worktree: SessionWorktree, signal: AbortSignal, refuse?: (files: readonly string[]) => string | undefined): Promise<WorktreeApply>;
  /** Removes the worktree and its branch (only ours: the folder and branch the session's id gives). */
  discard(worktree: SessionWorktree, signal: AbortSignal): Promise<void>;
  /** Our worktrees and branches in the repository whose session is not in `known`. */
  findStale(repoRoot: string, known: ReadonlySet<string>, signal: AbortSignal): Promise<StaleWorktree[]>;
  /** Removes one stale worktree and its branch (again only ours). */
  removeStale(repoRoot: string, stale: StaleWorktree, signal: AbortSignal): Promise<void>;
}
