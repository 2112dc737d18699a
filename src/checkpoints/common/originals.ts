/**
 * The files a session changed, as they were before its first change, for
 * "Revert session changes". A file is keyed by where it really is in the
 * workspace, so the same file reached through a symlink (or in other letter
 * case on a case-insensitive file system) is recorded once, before any change.
 */
import type { FileChanges, WorkspaceFiles } from '../../base/common/ports';
import { resolveWorkspacePath } from '../../tools/common/pathPolicy';
import type { AgentSessionState, OriginalFile } from '../../agent/common/sessionState';

/** A saved session lists a file revert may not write: nothing was reverted. */
export class RevertRefused extends Error {}

/**
 * Records `before` as the original of the file a write just changed, unless the
 * session already holds an earlier version of it. True when something was recorded.
 */
export async function recordOriginal(
  state: AgentSessionState,
  changedPath: string,
  before: string | undefined,
  files: WorkspaceFiles,
  signal: AbortSignal,
): Promise<boolean> {
  const path = await realPathOf(changedPath, files, signal);
  if (state.originals.some((original) => original.path === path)) return false;
  state.originals.push({ path, before });
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
 * Puts every recorded file back as it was: rewrites it, or deletes it when the
 * session created it. Newest first, so that if one file was still recorded
 * twice (a session saved before originals were keyed by real path), the
 * earliest version is the one that stays.
 *
 * The paths come from a file on disk that anything could have edited, so each
 * one passes the tools' own path check first (inside the session's folder,
 * lexically and through symlinks, and not protected), all before the first
 * write: a doctored `../../.bashrc` refuses the whole revert.
 */
export async function revertOriginals(
  originals: readonly OriginalFile[],
  changes: FileChanges,
  signal: AbortSignal,
  workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] },
): Promise<string[]> {
  for (const original of originals) {
    const checked = await resolveWorkspacePath(original.path, workspace, signal);
    if (!checked.ok)
      throw new RevertRefused(`Revert refused, nothing was changed: the saved session lists ${JSON.stringify(original.path)}. ${checked.reason}`);
    if (checked.path !== original.path) {
      throw new RevertRefused(`Revert refused, nothing was changed: the saved session lists ${JSON.stringify(original.path)}, not a plain workspace path.`);
    }
  }
  for (const original of [...originals].reverse()) {
    if (original.before === undefined) await changes.delete(original.path, signal);
    else await changes.write(original.path, original.before, signal);
  }
  return originals.map((original) => original.path);
}
