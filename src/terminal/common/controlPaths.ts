/**
 * Control paths: files and folders in a workspace that make other software run
 * code later, without anyone running a command: Git's repositories (`.git`, a
 * folder or a gitlink file, at any depth: VS Code's git extension opens a new
 * one by itself and runs its `core.fsmonitor`), VS Code's settings and tasks
 * (`.vscode`, `*.code-workspace`), husky's hooks (`.husky`), agent hooks VS Code
 * reads (`.github/hooks`) and direnv's `.envrc`. The file tools ask before
 * writing one in every mode; a sandboxed command's change to one is held back
 * for the user by the change review (src/terminal/common/changeReview.ts, which
 * knows more of them).
 */
import { visibleText } from '../../base/common';

/** Names that are a control path wherever they are (compared case-insensitively, as macOS and Windows do). */
const CONTROL_NAMES = new Set(['.git', '.vscode', '.husky', '.envrc']);
/** A folder name that makes its parent's entry of that name a control path: `.github/hooks`. */
const CONTROL_CHILDREN = new Map([['.github', 'hooks']]);
const WORKSPACE_FILE_SUFFIX = '.code-workspace';

/** Whether the entry `name`, in a folder named `parentName` ('' for the root), is a control path. */
export function isControlName(name: string, parentName: string): boolean {
  const lower = name.toLowerCase();
  if (CONTROL_NAMES.has(lower) || lower.endsWith(WORKSPACE_FILE_SUFFIX)) return true;
  return CONTROL_CHILDREN.get(parentName.toLowerCase()) === lower;
}

/**
 * The control path a workspace-relative path (`/`-separated) is or lies in:
 * its shortest prefix that is one (`sub/.git/config` → `sub/.git`), or
 * undefined. A watcher event names the deepest path; this names what to move.
 */
export function controlPathOf(path: string): string | undefined {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  for (let index = 0; index < segments.length; index++) {
    if (isControlName(segments[index], index > 0 ? segments[index - 1] : '')) return segments.slice(0, index + 1).join('/');
  }
  return undefined;
}

/** A path as a message shows it: as it is when plain, else quoted with every invisible or line-breaking character spelled out. */
export function shownPath(path: string): string {
  return /^[\w.@+\-/ ]+$/u.test(path) ? path : JSON.stringify(visibleText(path));
}

/** A one-line description of a control path by its name and kind, for the model and the user. */
export function describeControlPath(path: string, kind: ControlPathKind): string {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  if (kind === 'symlink') return 'a symbolic link';
  if (name === '.git') return kind === 'directory' ? 'a Git repository' : 'a Git link file (it points Git at a repository)';
  if (name === '.vscode') return "VS Code's settings and tasks folder";
  if (name === '.husky') return "husky's Git hooks folder";
  if (name === '.envrc') return "direnv's environment file";
  if (name === 'hooks') return 'agent hooks VS Code reads';
  return 'a VS Code workspace file (it holds settings and tasks)';
}

export type ControlPathKind = 'directory' | 'file' | 'symlink' | 'other';

/** One control path a sandboxed command left, and what became of it. */
export interface MovedControlPath {
  /** Workspace-relative, `/`-separated. */
  path: string;
  kind: ControlPathKind;
  /** true: held outside the workspace (the user can apply it); false: applied, discarded, or it could not be kept. */
  kept: boolean;
  /** What it is, in words (why it was held): "a Git repository or git directory …". */
  reason?: string;
}

/** What the guard did after a sandboxed command. */
export interface ControlRollback {
  moved: MovedControlPath[];
  /** Control paths it found but could not move (they are still in the workspace): the user must look. */
  failed: { path: string; reason: string }[];
  /** Set when the check could not look at the whole workspace (too many files, too long): it says how far it got. */
  incomplete?: string;
}

/** Paths named in a message; the rest are counted. */
const NAMED_IN_MESSAGE = 20;

/**
 * What the model reads after a sandboxed command's change set held something
 * back: which entries, why, that the rest landed, and that trying again
 * another way is not the answer: the user decides.
 */
export function rollbackNote(rollback: ControlRollback, stopped: boolean): string {
  // A stop says why even when nothing was held: run_command's output for a stopped command is this note alone.
  if (!stopped && rollback.moved.length === 0 && rollback.failed.length === 0 && rollback.incomplete === undefined) return '';
  const lines: string[] = [];
  if (stopped) lines.push('Stopped: a protected file appeared in the workspace while the command ran, so it was killed at once.');
  if (rollback.incomplete !== undefined) {
    lines.push(`Held back whole: ${rollback.incomplete}, too much to check, so none of what it changed reached the workspace; the user can apply it.`);
  } else if (rollback.moved.length > 0) {
    lines.push(
      'Held back: the command ran on a copy of the workspace; its ordinary changes were applied, but these were not, ' +
        'because they are code that other software (Git, VS Code, hooks, your shell) would run later, or links, or protected:',
    );
    for (const moved of rollback.moved.slice(0, NAMED_IN_MESSAGE)) {
      lines.push(`- ${shownPath(moved.path)} (${moved.reason ?? describeControlPath(moved.path, moved.kind)})`);
    }
    if (rollback.moved.length > NAMED_IN_MESSAGE) lines.push(`- and ${rollback.moved.length - NAMED_IN_MESSAGE} more`);
    lines.push(
      'Do not create them again in another way (another command, a copy, a link, a rename). If the task needs one, ' +
        'say so and let the user decide: they were shown what was held and can apply it, or run the command themselves. ' +
        'If a tool made one as a side effect, use its option not to (for example `cargo new --vcs none`).',
    );
  }
  for (const failed of rollback.failed.slice(0, NAMED_IN_MESSAGE)) lines.push(`Could not apply ${shownPath(failed.path)} to the workspace: ${failed.reason}`);
  return lines.join('\n');
}

/** Whether `path` (workspace-relative, `/`-separated) is or lies in a control path. Case-insensitive. */
export function isControlPath(path: string): boolean {
  return controlPathOf(path) !== undefined;
}
