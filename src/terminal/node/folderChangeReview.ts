/**
 * A change set made elsewhere (a session's own worktree) judged against the folder it is to land in, as that
 * folder is now, by the sandbox review's own rules (changeReview.ts holdReason, repositoryFacts.ts): the
 * folder's repositories and what their configs point at, its runner configs (an ignored `.envrc` and what it
 * sources), its editors' and agents' configs, the names and shapes held. A worktree is a fresh checkout without
 * the folder's untracked and ignored files, so its own review cannot see what they run (round 19b): a script only
 * the folder's `.envrc` sources is an ordinary file in the worktree and one direnv runs in the folder.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeHold, judgeChanges, type ChangedEntry, type HoldReason } from '../common/changeReview';
import { isAgentConfigCandidate, namesProgramsAt } from './agentConfigs';
import { startsAsGitLink } from './gitStructure';
import { hookSettingsChanged, scriptsChanged } from './packageHooks';
import { ProtectedPathCache, UnreadableName, WorkspaceTooLarge } from './protectedPathCache';
import { repositoryFacts } from './repositoryFacts';

/** One changed file as Git gives it: its path (`/`-separated, from the top of both folders), deleted or its new mode. */
export interface FolderChange {
  path: string;
  deleted: boolean;
  /** Git's mode 100755: Apply writes it executable. */
  executable?: boolean;
}

/** A changed path the review would hold in the folder, and why in the user's words. */
export interface FolderHold {
  path: string;
  reason: HoldReason;
  why: string;
}

export interface FolderJudgement {
  held: FolderHold[];
  /** The folder could not be looked at whole (too large, a name or folder not readable): every path is held, this says why. */
  incomplete?: string;
}

/**
 * Which of `changes` the sandbox's review would hold were they a command's writes in `root`: `source` is the folder
 * that has the changed files (the worktree), read as the command's layer is (both versions of a config are read,
 * so what is held only grows). Every changed path is judged, the held ones listed with their reason.
 */
export async function heldInFolder(options: {
  root: string;
  source: string;
  changes: readonly FolderChange[];
  home: string;
  protectedPatterns: readonly string[];
  signal: AbortSignal;
}): Promise<FolderJudgement> {
  const { root, source, changes, home, protectedPatterns, signal } = options;
  if (changes.length === 0) return { held: [] };
  const entries = await Promise.all(changes.map((change) => entryOf(root, source, change)));
  let look;
  try {
    // The same look the sandbox makes before a command: the folder's repositories, bare git directories and runner
    // configs, found on disk (ignored and untracked files too: they are what Git's checkout of the worktree lacks).
    look = await new ProtectedPathCache({ maxWorkspaces: 1 }).look(root, protectedPatterns, signal);
  } catch (error) {
    if (!(error instanceof WorkspaceTooLarge) && !(error instanceof UnreadableName)) throw error;
    return everythingHeld(entries, error.message);
  }
  const facts = await repositoryFacts({
    root,
    upper: source,
    home,
    known: { repositories: look.repositories, gitDirectories: look.gitDirectories, runnerConfigs: look.runnerConfigs },
    protectedPatterns,
    entries,
    signal,
  });
  if (facts.incomplete !== undefined) return everythingHeld(entries, facts.incomplete);
  const verdict = judgeChanges(entries, facts, { protectedPatterns });
  return { held: verdict.held.map((held) => ({ path: held.entry.path, reason: held.reason, why: describeHold(held) })) };
}

function everythingHeld(entries: readonly ChangedEntry[], incomplete: string): FolderJudgement {
  const verdict = judgeChanges(entries, { gitDirectories: new Set(), pointedAt: [] }, { protectedPatterns: [], incomplete: true });
  return { held: verdict.held.map((held) => ({ path: held.entry.path, reason: held.reason, why: describeHold(held) })), incomplete };
}

/**
 * A change as the review's entry: the mode Git will write (0644 or 0755: a patch carries nothing else), what the
 * folder has at the path now, and the file's shape read from `source` as the layer's file is read.
 */
async function entryOf(root: string, source: string, change: FolderChange): Promise<ChangedEntry> {
  const there = await lstat(join(root, change.path)).catch(() => undefined);
  const entry: ChangedEntry = {
    path: change.path,
    kind: change.deleted ? 'deleted' : 'file',
    mode: change.deleted ? 0 : change.executable ? 0o755 : 0o644,
    existed: there !== undefined,
    ...(there ? { wasExecutable: there.isFile() && (there.mode & 0o111) !== 0 } : {}),
    ...(there?.isDirectory() ? { removesFolder: true } : {}),
  };
  if (change.deleted) return entry;
  const file = join(source, change.path);
  const info = await lstat(file).catch(() => undefined);
  // Gone or not a file in the worktree since Git listed it: what would be written cannot be told, so it is held.
  if (!info?.isFile()) return { ...entry, kind: 'special' };
  entry.gitLink = startsAsGitLink(file, info.size);
  if (change.path === 'package.json' || change.path.endsWith('/package.json')) {
    entry.hookSettingsChanged = await hookSettingsChanged(file, join(root, change.path));
    entry.scriptsChanged = await scriptsChanged(file, join(root, change.path));
  }
  if (isAgentConfigCandidate(change.path)) entry.namesPrograms = namesProgramsAt(file, change.path);
  return entry;
}
