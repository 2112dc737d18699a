/**
 * What a sandboxed command changed, judged before any of it reaches the
 * workspace. Under `auto` a command writes to a copy-on-write layer over the
 * workspace (src/terminal/node/changeLayer.ts); when it ends, the layer's
 * change set (and nothing else: no walk of the workspace) is read, and each
 * entry is classified by what it is, not by its name alone:
 * - anything Git would take for a repository or a git directory by Git's own
 *   rules (a `HEAD` beside `objects`/`refs` or a `commondir`: the bare layout,
 *   whatever the folder is called), a `.git` entry, Mercurial's `.hg` and
 *   Sapling's `.sl` (what their configs' hooks and extensions name too), a file that points Git at
 *   a repository (`gitdir: …`), and whatever an existing repository's config
 *   points at (`include.path`, `core.hooksPath`, `core.worktree`, a filter's or
 *   fsmonitor's program…);
 * - the files that make VS Code, other editors and agents, and Git's hook
 *   managers run code (`.vscode`, `*.code-workspace`, `.github/hooks`, `.clinerules/hooks`, `.cline/hooks`,
 *   `.husky`, `.envrc`, `.gitmodules`, `.claude`, `.codex`, `.cursor`,
 *   `.mcp.json`, `.devcontainer(.json)`, `.pre-commit-config.yaml`, mise's
 *   configs…): those programs find them by name, so here the name is the
 *   structure; and what the runner configs among them name (`.envrc`'s
 *   sourced files and flake, the scripts husky's hooks run: node/runnerConfigs.ts);
 * - whatever its name, a JSON, YAML, TOML or `…rc` file in a dot-folder or at the
 *   workspace's top that names hooks or MCP or language servers as a word anywhere
 *   (`hooks`, `mcpServers`, `mcp_servers`…): an agent's config (node/agentConfigs.ts);
 * - a Python environment (a venv's `pyvenv.cfg`, a conda environment's
 *   `conda-meta`) in the workspace or the layer: its activate scripts run;
 * - links, hard links, devices and other special files, setuid/setgid bits, an
 *   executable bit a file did not have, a file or folder writable by every user,
 *   a file or folder whose owner's read (and a folder's search) was taken away,
 *   the protected files;
 * - a path someone else changed while the command ran (landing would overwrite it).
 * Ordinary files and folders land; the rest is held back for the user (Apply /
 * Discard) and the model is told. A held folder is held whole.
 */
import { protectingPattern } from '../../base/common';
import { isEditorOrAgentPath, REPOSITORY_NAMES } from './heldNames';

export {
  isEditorOrAgentPath,
  isHeldByName,
  isHeldConfigFile,
  isOtherRepositoryConfig,
  isProgramConfigPath,
  isReviewedConfig,
  isRunnerConfigName,
  otherRepositoryConfigIn,
} from './heldNames';

export type ChangeKind = 'file' | 'directory' | 'symlink' | 'deleted' | 'special';

/** One entry of a command's change set, workspace-relative. */
export interface ChangedEntry {
  /** `/`-separated, relative to the workspace folder. */
  path: string;
  kind: ChangeKind;
  /** A directory that replaces what was at its path (whatever was in it before is gone). */
  opaque?: boolean;
  /** The permission bits with setuid, setgid and sticky (file and directory). */
  mode: number;
  /** A file with more than one name in the change set (a hard link). */
  hardLinked?: boolean;
  /** The workspace had an entry at this path when the review ran. */
  existed: boolean;
  /** The workspace's entry was an executable file. */
  wasExecutable?: boolean;
  /** The workspace's entry changed after the command started: someone else wrote it meanwhile. */
  changedOutside?: boolean;
  /** A small file whose text begins `gitdir:` (it points Git at a repository wherever it lies). */
  gitLink?: boolean;
  /**
   * Landing it removes the folder the workspace has at its path: a deletion of a folder, an opaque folder, or a
   * file, link or special file put where a folder was (overlayfs leaves no whiteout then). Judged by what the
   * workspace has there, whatever the entry's own kind.
   */
  removesFolder?: boolean;
  /** The folder it removes (removesFolder) holds a repository, or a tree too large to look through. */
  removesRepository?: boolean;
  /** A package.json whose Git hook settings changed (husky 4's `husky`, yorkie's `gitHooks`, `simple-git-hooks`, `lint-staged`…). */
  hookSettingsChanged?: boolean;
  /** A package.json whose `scripts` changed (held when a hook runs npm, yarn, pnpm or bun). */
  scriptsChanged?: boolean;
  /** A config file naming an agent's hooks or servers as a word, or too large or not text to read (node/agentConfigs.ts). */
  namesPrograms?: boolean;
}

/** What the host found of the repositories around the change set. */
export interface RepositoryFacts {
  /** Workspace-relative folders that are git directories by Git's rules, before or after the change. */
  gitDirectories: ReadonlySet<string>;
  /** Workspace-relative paths an existing repository's config points at (a changed one is held, and all below it). */
  pointedAt: readonly string[];
  /** The workspace folder itself is a git directory after the change (the bare layout at its top): its git entries are held. */
  rootIsGitDirectory?: boolean;
  /** The workspace folder itself is a Python environment (a `pyvenv.cfg` at its top): its environment's entries are held. */
  rootIsPythonEnvironment?: boolean;
  /** Lower-case file names the repositories' hooks and hook managers name, however they spell the path: a changed file of one is held. */
  mentionedNames?: ReadonlySet<string>;
  /** A hook runs npm, yarn, pnpm or bun: a package.json whose scripts changed is held. */
  hooksRunScripts?: boolean;
  /** Workspace-relative folders that are Python environments after the change (a `pyvenv.cfg`): VS Code's Python extension runs their activate script in every new terminal. */
  pythonEnvironments?: ReadonlySet<string>;
}

/** What a Python environment holds at its top (activate scripts, site-packages and its .pth files, the config). */
const PYTHON_ENVIRONMENT_ENTRIES = new Set(['pyvenv.cfg', 'bin', 'scripts', 'lib', 'lib64', 'include', 'share', 'etc']);

/** The entries Git reads in a git directory: at the workspace's top, when that is one, each is held. */
const GIT_DIRECTORY_ENTRIES = new Set([
  'head',
  'config',
  'config.worktree',
  'objects',
  'refs',
  'packed-refs',
  'commondir',
  'gitdir',
  'hooks',
  'info',
  'worktrees',
  'modules',
  'index',
  'logs',
  'shallow',
  'branches',
  'remotes',
  'fetch_head',
  'orig_head',
  'merge_head',
]);

export type HoldReason =
  | 'repository'
  | 'git-link'
  | 'repository-config'
  | 'python-environment'
  | 'editor-or-agent'
  | 'agent-config'
  | 'symlink'
  | 'hard-link'
  | 'special'
  | 'setuid'
  | 'executable'
  | 'protected'
  | 'changed-outside'
  | 'removes-repository'
  | 'world-writable'
  | 'owner-unreadable'
  | 'unchecked';

export interface HeldEntry {
  entry: ChangedEntry;
  reason: HoldReason;
}

export interface ChangeVerdict {
  /** In the order they must be applied: a folder before what it holds. */
  land: ChangedEntry[];
  /** Each held path once, shallowest first; what lies below a held path is held with it. */
  held: HeldEntry[];
}

/** Whether `path` is `prefix` or lies below it. */
export function isAtOrBelow(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/** Why `entry` may not land on its own, or undefined when it is an ordinary file or folder. */
export function holdReason(entry: ChangedEntry, facts: RepositoryFacts, protectedPatterns: readonly string[]): HoldReason | undefined {
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1).toLowerCase();
  if (REPOSITORY_NAMES.has(name) || facts.gitDirectories.has(entry.path)) return 'repository';
  if (facts.rootIsGitDirectory && !entry.path.includes('/') && GIT_DIRECTORY_ENTRIES.has(name)) return 'repository';
  if (entry.gitLink) return 'git-link';
  if (facts.pythonEnvironments?.has(entry.path)) return 'python-environment';
  if (facts.rootIsPythonEnvironment && PYTHON_ENVIRONMENT_ENTRIES.has(entry.path.split('/')[0].toLowerCase())) return 'python-environment';
  if (pointedAtBy(facts.pointedAt).covers(entry)) return 'repository-config';
  if (entry.kind === 'file' && (facts.mentionedNames?.has(name) || (facts.hooksRunScripts && entry.scriptsChanged))) return 'repository-config';
  if (isEditorOrAgentPath(entry.path) || entry.hookSettingsChanged) return 'editor-or-agent';
  if (entry.namesPrograms) return 'agent-config';
  if (protectingPattern(entry.path, protectedPatterns) !== undefined) return 'protected';
  if (entry.changedOutside) return 'changed-outside';
  if (entry.removesRepository) return 'removes-repository';
  if (entry.kind === 'symlink') return 'symlink';
  if (entry.kind === 'special') return 'special';
  if (entry.hardLinked) return 'hard-link';
  if ((entry.mode & 0o6000) !== 0) return 'setuid';
  if (entry.kind === 'file' && (entry.mode & 0o111) !== 0 && !entry.wasExecutable) return 'executable';
  // Writable by every account of the machine: another user could then put code where this one runs it.
  if ((entry.kind === 'file' || entry.kind === 'directory') && (entry.mode & 0o002) !== 0) return 'world-writable';
  // The owner's own read (a folder's read and search) taken away: the host could no longer look into it, so the next
  // command's review and the look for protected files would be blind there (round 12).
  if ((entry.kind === 'directory' && (entry.mode & 0o500) !== 0o500) || (entry.kind === 'file' && (entry.mode & 0o400) === 0)) return 'owner-unreadable';
  return undefined;
}

/**
 * The pointed-at paths as a set and a sorted list, made once per list: an entry is checked by its own folders
 * (a lookup each) and a deletion by a binary search for what lies below it, never against every path in turn
 * (round 9: 2,000 entries against a few hundred thousand named paths held the host for 40 s).
 */
const pointedIndexes = new WeakMap<readonly string[], { covers(entry: ChangedEntry): boolean }>();
function pointedAtBy(pointedAt: readonly string[]): { covers(entry: ChangedEntry): boolean } {
  let index = pointedIndexes.get(pointedAt);
  if (index) return index;
  const paths = new Set(pointedAt);
  const sorted = [...paths].sort();
  const anyBelow = (folder: string) => {
    if (folder === '') return sorted.length > 0;
    const prefix = `${folder}/`;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle] < prefix) low = middle + 1;
      else high = middle;
    }
    return low < sorted.length && sorted[low].startsWith(prefix);
  };
  index = {
    covers: (entry) => {
      if (paths.has('') || paths.has(entry.path) || hasHeldFolder(entry.path, paths)) return true;
      // What a landing removes is judged by what lies below it: a deletion, or an entry that replaces a folder.
      return (entry.kind === 'deleted' || entry.removesFolder === true) && anyBelow(entry.path);
    },
  };
  pointedIndexes.set(pointedAt, index);
  return index;
}

/**
 * Splits a change set into what lands and what is held. `incomplete`: the
 * change set could not be read whole (past a bound of size or time), so
 * nothing lands on its own: every entry waits for the user.
 */
export function judgeChanges(
  entries: readonly ChangedEntry[],
  facts: RepositoryFacts,
  options: { protectedPatterns: readonly string[]; incomplete?: boolean },
): ChangeVerdict {
  const ordered = [...entries].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const land: ChangedEntry[] = [];
  const held: HeldEntry[] = [];
  // Held paths by name: an entry is below one when one of its folders is in the set (a lookup per folder, not per held path).
  const heldPaths = new Set<string>();
  for (const entry of ordered) {
    if (hasHeldFolder(entry.path, heldPaths)) continue;
    const reason = options.incomplete ? 'unchecked' : holdReason(entry, facts, options.protectedPatterns);
    if (reason === undefined) {
      land.push(entry);
      continue;
    }
    held.push({ entry, reason });
    heldPaths.add(entry.path);
  }
  return { land, held };
}

/** Whether `path` or one of the folders it lies in is in `held`. */
function hasHeldFolder(path: string, held: ReadonlySet<string>): boolean {
  if (held.size === 0) return false;
  for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
    if (held.has(path.slice(0, end))) return true;
  }
  return false;
}

function depth(path: string): number {
  let count = 0;
  for (let index = 0; index < path.length; index++) if (path.charCodeAt(index) === 47) count++;
  return count;
}

/** A held entry as the user and the model read it. */
export function describeHold(held: HeldEntry): string {
  switch (held.reason) {
    case 'repository':
      return 'a Git repository or git directory (Git would open it and run its config)';
    case 'git-link':
      return 'a file that points Git at a repository (gitdir:)';
    case 'repository-config':
      return "a file a repository's Git config or hooks point at (an include, hooks folder, worktree, program or script)";
    case 'python-environment':
      return "a Python environment (VS Code's Python extension runs its activate script in new terminals)";
    case 'editor-or-agent':
      return 'settings, tasks or hooks that VS Code or another agent runs';
    case 'agent-config':
      return "an agent's config that names programs to run (hooks, MCP or language servers), or one too large to read";
    case 'symlink':
      return 'a symbolic link';
    case 'hard-link':
      return 'a hard link';
    case 'special':
      return 'a device, pipe or socket';
    case 'setuid':
      return 'a setuid or setgid file';
    case 'executable':
      return 'a new executable file';
    case 'protected':
      return 'a protected file';
    case 'changed-outside':
      return 'a file changed outside the sandbox while the command ran';
    case 'removes-repository':
      return 'a deletion of a folder that holds a repository (or too large to check)';
    case 'world-writable':
      return 'a file or folder made writable by every user of the machine';
    case 'owner-unreadable':
      return 'a file or folder its owner can no longer read (the review could not look into it)';
    case 'unchecked':
      return 'part of a change set the review could not check whole';
  }
}
