/**
 * The files a session changed, for "Revert session changes": the session lists
 * each one (and whether it existed), its content before the session's first
 * change goes into the checkpoint baseline. A file is keyed by where it really
 * is in the workspace, so the same file reached through a symlink (or in other
 * letter case on a case-insensitive file system) is recorded once, before any change.
 */
import type { WorkspaceFiles } from '../../base/common';
import { resolveWorkspacePath } from '../../tools/common';
import type { AgentSessionState, OriginalFile } from '../../sessionModel/common';

/** A saved session lists a file revert may not write: nothing was reverted. */
export class RevertRefused extends Error {}

/** Keeps a file's content from before the session's first change to it (undefined: no file) where Revert finds it. */
export type KeepOriginal = (path: string, before: string | undefined, signal: AbortSignal) => Promise<void>;

/**
 * Records the file a write just changed, unless the session already lists it:
 * its content `before` is kept first (so a saved session never lists a file
 * whose original is nowhere). True when something was recorded.
 */
export async function recordOriginal(
  state: AgentSessionState,
  changed: { path: string; before: string | undefined },
  files: WorkspaceFiles,
  keep: KeepOriginal | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const path = await realPathOf(changed.path, files, signal);
  if (state.originals.some((original) => original.path === path)) return false;
  await keep?.(path, changed.before, signal);
  state.originals.push({ path, existed: changed.before !== undefined });
  return true;
}

/** The workspace path the write really changed; the path as written when that cannot be found out (the write already happened). */
export async function realPathOf(path: string, files: WorkspaceFiles, signal: AbortSignal): Promise<string> {
  try {
    return (await files.realPathInside(path, signal)) ?? path;
  } catch {
    return path;
  }
}

/**
 * The paths come from a file on disk that anything could have edited, so each
 * one passes the tools' own path check (inside the session's folder, lexically
 * and through symlinks, and not protected), all before the first write: a
 * doctored `../../.bashrc` refuses the whole revert.
 */
export async function checkOriginals(
  originals: readonly OriginalFile[],
  workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] },
  signal: AbortSignal,
): Promise<void> {
  for (const original of originals) {
    const checked = await resolveWorkspacePath(original.path, workspace, signal);
    if (!checked.ok)
      throw new RevertRefused(`Revert refused, nothing was changed: the saved session lists ${JSON.stringify(original.path)}. ${checked.reason}`);
    if (checked.path !== original.path) {
      throw new RevertRefused(`Revert refused, nothing was changed: the saved session lists ${JSON.stringify(original.path)}, not a plain workspace path.`);
    }
  }
}
