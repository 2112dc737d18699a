/**
 * Which workspace folder a session works in, without VS Code. A session keeps
 * the folder it started in: in a multi-root window, "the first folder" changes
 * when folders are reordered or removed, and Revert would then write one
 * project's old contents into another (and delete its same-named files).
 */

import type { SessionWorktree } from './sessionWorktree';

export interface OpenFolder {
  /** The folder's URI as a string (`Uri.toString()`). */
  uri: string;
  name: string;
}

/** `worktree`: the session works in its own worktree (issue 40), made from the repository at the open folder `uri`. */
export type RootDecision = { ok: true; uri: string; worktree?: SessionWorktree } | { ok: false; message: string };

/** The built-in command behind an "Open Folder" button. */
export const OPEN_FOLDER_COMMAND = 'workbench.action.files.openFolder';

export const NO_FOLDER_MESSAGE = 'Open a folder first: agent sessions work on the files of a workspace folder.';

/** The folder a new session starts in: the first open folder, as before. */
export function rootForNewSession(open: readonly OpenFolder[]): RootDecision {
  return open.length > 0 ? { ok: true, uri: open[0].uri } : { ok: false, message: NO_FOLDER_MESSAGE };
}

/**
 * The folder a saved session goes on working in (Continue, Revert, its tools):
 * the one it recorded, if it is still open. A session saved before folders were
 * recorded worked in the first folder, so it keeps that. `action` names what is
 * refused, e.g. "continue it".
 */
export function rootForSavedSession(savedUri: string | undefined, open: readonly OpenFolder[], action: string, worktree?: SessionWorktree): RootDecision {
  if (worktree?.discardedAt !== undefined) return { ok: false, message: `This session's worktree (${worktree.branch}) was discarded: it cannot ${action}.` };
  if (savedUri === undefined)
    return worktree ? { ok: false, message: `This session's worktree has no folder recorded; it cannot ${action}.` } : rootForNewSession(open);
  if (open.some((folder) => folder.uri === savedUri)) return { ok: true, uri: savedUri, ...(worktree ? { worktree } : {}) };
  return {
    ok: false,
    message: `This session worked in the folder ${describeFolder(savedUri)}, which is not open in this window. Add that folder to the workspace to ${action}.`,
  };
}

/** A folder URI as a user reads it: the path of a local folder, the URI otherwise. */
function describeFolder(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(uri.slice('file://'.length));
  } catch {
    return uri;
  }
}

/** The workspace folders as the host (VS Code) knows them, for the vscode-free services. */
export interface SessionFolders {
  /** The open workspace folders. */
  open(): OpenFolder[];
  /** The local path of the folder at `uri` (its file-system path). */
  pathOf(uri: string): string;
}

/** A session's decided folder: its URI (as recorded) and its local path. */
export interface SessionRoot {
  uri: string;
  path: string;
}

/** The decided folder, or the decision's message as an error (a session without its folder must not run). */
export function decidedRoot(decision: RootDecision, folders: SessionFolders): SessionRoot {
  if (!decision.ok) throw new Error(decision.message);
  const path = folders.pathOf(decision.uri);
  const { worktree } = decision;
  if (!worktree) return { uri: decision.uri, path };
  // The worktree belongs to the open folder the session started from, and to no other repository.
  if (worktree.repoRoot !== path) throw new Error(`This session's worktree was made from ${worktree.repoRoot}, not from the open folder ${path}.`);
  return { uri: fileUriOf(worktree.path), path: worktree.path };
}

/** The `file:` URI of a local absolute path, as VS Code's `Uri.file(path).toString()` reads back. */
export function fileUriOf(path: string): string {
  return `file://${path.split('/').map(encodeURIComponent).join('/')}`;
}
