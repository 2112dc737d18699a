/**
 * The paths a restore journal lists, checked before start-up recovery replays
 * it (issue 21, finding 12). The journal is a file on disk that anything could
 * have edited, and recovery runs with nobody asked: every path must be a plain
 * workspace path, inside the workspace lexically and through symlinks, neither
 * protected nor a control file (which a recovery never changes unasked).
 */
import type { WorkspaceFiles } from '../../base/common';
import { isControlPath } from '../../terminal/common';
import { protectingPattern } from '../../base/common';
import { resolveWorkspacePath } from '../../tools/common';

/** The most refused paths a message names (a journal may list thousands). */
const MAX_NAMED = 5;
/** The most characters of one refused path a message shows. */
const MAX_PATH_CHARS = 200;

export interface RecoveryWorkspace {
  files: WorkspaceFiles;
  protectedFiles: readonly string[];
}

/** A restore journal lists a path recovery may not touch: nothing was replayed, and the journal was removed. */
export class RestoreJournalRefused extends Error {
  constructor(readonly refused: readonly { path: string; reason: string }[]) {
    const named = refused.slice(0, MAX_NAMED).map(({ path, reason }) => `${JSON.stringify(path.slice(0, MAX_PATH_CHARS))} (${reason})`);
    const more = refused.length > MAX_NAMED ? ` and ${refused.length - MAX_NAMED} more` : '';
    super(`The restore journal was refused and removed, nothing in it was replayed: it lists ${named.join(', ')}${more}.`);
    this.name = 'RestoreJournalRefused';
  }
}

/** Why recovery may not touch `path`, or undefined when it may. */
export async function journalPathRefusal(path: string, workspace: RecoveryWorkspace, signal: AbortSignal): Promise<string | undefined> {
  const checked = await resolveWorkspacePath(path, workspace, signal);
  if (!checked.ok) return checked.reason;
  if (checked.path !== path || path === '.') return 'not a plain workspace path';
  const real = await workspace.files.realPathInside(path, signal);
  if (real === undefined) return 'leads outside the workspace through a symbolic link';
  if (protectingPattern(real, workspace.protectedFiles) !== undefined) return `leads to the protected file "${real}"`;
  if (isControlPath(path) || isControlPath(real)) return 'a control file (.git, .vscode, .husky, *.code-workspace), never changed unasked';
  return undefined;
}

/** Every path's refusal, all checked before the first is touched. */
export async function refusedJournalPaths(
  paths: readonly string[],
  workspace: RecoveryWorkspace,
  signal: AbortSignal,
): Promise<{ path: string; reason: string }[]> {
  const refused: { path: string; reason: string }[] = [];
  for (const path of new Set(paths)) {
    const reason = await journalPathRefusal(path, workspace, signal).catch((error: unknown) => `could not be checked: ${String(error)}`);
    if (reason !== undefined) refused.push({ path, reason });
  }
  return refused;
}
