/** The baseline: every file the session touched, as it was before the session changed it (what Revert puts back). */
import type { CheckpointFolder } from './checkpointPorts';
import { normalizeWorkspacePath } from '../../tools/common';
import type { OriginalFile } from '../../sessionModel/common';
import type { Index } from './checkpointIndex';

/**
 * The text an older saved session kept of its originals joins the baseline (the first one listed
 * for a path wins). Plain workspace paths only. True when the baseline changed.
 */
export async function adoptIntoBaseline(folder: CheckpointFolder, index: Index, originals: readonly OriginalFile[], signal: AbortSignal): Promise<boolean> {
  const seen = new Set<string>();
  let changed = false;
  for (const { path, existed, before } of originals) {
    if (seen.has(path) || !isPlainPath(path)) continue;
    seen.add(path);
    if (before === undefined && (existed || index.baseline.has(path))) continue;
    const version = before === undefined ? null : (await folder.putBlob(before, signal)).hash;
    if (index.baseline.get(path) === version) continue;
    index.baseline.set(path, version);
    changed = true;
  }
  return changed;
}

/** A path as the tools would write it (relative, normalized): only such a path joins the baseline. */
function isPlainPath(path: string): boolean {
  const normalized = normalizeWorkspacePath(path);
  return normalized.ok && normalized.path === path;
}
