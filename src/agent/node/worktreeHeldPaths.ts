/**
 * Round 19b: a worktree session's changes judged, before Apply to Workspace, against the workspace folder as it is
 * now. The worktree is a fresh checkout without the folder's untracked and ignored files (an ignored `.envrc`, a
 * `.claude/settings.local.json`), so its own review never saw what they run: a script only the folder's `.envrc`
 * sources was an ordinary file there. The sandbox review's rules decide (terminal/node folderChangeReview.ts).
 */
import type { SessionWorktree } from '../../sessionModel/common';
import { changeReviewParts } from '../../terminal/node';
import type { HeldOnApply, WorktreeChange } from '../common/sessions/worktreePorts';

/** The changed paths the sandbox's review would hold were they a command's writes in the workspace folder. */
export async function heldInFolder(options: {
  worktree: SessionWorktree;
  /** The worktree's folder, checked to be ours. */
  source: string;
  changes: readonly WorktreeChange[];
  home: string;
  protectedPatterns: readonly string[];
  signal: AbortSignal;
}): Promise<HeldOnApply[]> {
  const judged = await changeReviewParts().heldInFolder({
    root: options.worktree.repoRoot,
    source: options.source,
    changes: options.changes.map((change) => ({ path: change.path, deleted: change.status === 'deleted', executable: change.executable })),
    home: options.home,
    protectedPatterns: options.protectedPatterns,
    signal: options.signal,
  });
  // Past the review's bounds every path is held: the user is told why, beside each.
  const incomplete = judged.incomplete === undefined ? '' : ` (the workspace folder could not be checked whole: ${judged.incomplete})`;
  return judged.held.map((entry) => ({ path: entry.path, why: `${entry.why}${incomplete}` }));
}

/** Why Apply stopped at held paths, as the user reads it. */
export function heldText(held: readonly HeldOnApply[]): string {
  const shown = held.slice(0, 10).map((entry) => `${entry.path}: ${entry.why}`);
  const more = held.length > shown.length ? `; and ${held.length - shown.length} more` : '';
  const one = held.length === 1;
  return `In the workspace folder the sandbox would hold ${one ? 'this change' : 'these changes'} for you (programs there run ${one ? 'it' : 'them'} outside the sandbox): ${shown.join('; ')}${more}. They stay in the worktree; nothing in the workspace changed.`;
}
