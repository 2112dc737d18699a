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
  /** Git's mode 100755: Apply writes it executable. */
  executable?: boolean;
}

/** A changed path the sandbox's review would hold in the workspace folder as it is now, and why in the user's words. */
export interface HeldOnApply {
  path: string;
  why: string;
}

/**
 * Apply to Workspace: applied (whole, or without the held paths when the caller chose `leaveHeld`: `left` lists
 * them, still in the worktree), or refused whole with why (nothing of the workspace changed); `held` when the
 * refusal is that some paths would be held in the workspace folder (the caller may ask the user and call again).
 */
export type WorktreeApply = { ok: true; files: string[]; left?: HeldOnApply[] } | { ok: false; reason: string; files: string[]; held?: HeldOnApply[] };

export interface WorktreeApplyOptions {
  /** Sees the files first and may refuse them (unsaved editors). */
  refuse?: (files: readonly string[]) => string | undefined;
  /** Held paths the user chose to apply anyway: exactly those they were shown. A path held now and not among them refuses the whole. */
  approved?: readonly string[];
  /** Applies the rest and leaves every held path in the worktree (the user's choice, or a caller's explicit one). */
  leaveHeld?: boolean;
}

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
   * A changed path the sandbox's review would hold in that folder as it is now (what its untracked
   * `.envrc` sources, its hooks, its editors' configs…) refuses the whole too, unless `options`
   * approves it or leaves it out.
   */
  apply(worktree: SessionWorktree, signal: AbortSignal, options?: WorktreeApplyOptions): Promise<WorktreeApply>;
  /** Removes the worktree and its branch (only ours: the folder and branch the session's id gives). */
  discard(worktree: SessionWorktree, signal: AbortSignal): Promise<void>;
  /** Our worktrees and branches in the repository whose session is not in `known`. */
  findStale(repoRoot: string, known: ReadonlySet<string>, signal: AbortSignal): Promise<StaleWorktree[]>;
  /** Removes one stale worktree and its branch (again only ours). */
  removeStale(repoRoot: string, stale: StaleWorktree, signal: AbortSignal): Promise<void>;
}
