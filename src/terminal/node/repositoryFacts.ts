/**
 * What the repositories and the programs around a change set would run, read for its review (changeLayer.ts):
 * which changed folders are git directories or Python environments by what they hold (not their names), every
 * repository that can see the workspace (its own, the ones in it, the ones above it), what their configs and
 * hooks point at (gitStructure.ts), what the runner configs name (runnerConfigs.ts), followed as far as the hooks'
 * programs go (hookPrograms.ts). Past a bound nothing is known for sure: `incomplete` says why, and the whole
 * change set waits for the user.
 */
import { closeSync, lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { yieldToHost } from '../../base/common';
import type { ChangedEntry, RepositoryFacts } from '../common/changeReview';
import { absentOr, addNamedInside, ConfigTooLarge, gitDirectoryOf, MAX_POINTED_PATHS, pathsConfigPointsAt } from './gitStructure';
import { followPrograms, mentionedBy, noneMentioned } from './hookPrograms';
import { openBeneathSync } from './pinnedPaths';
import { configsAround } from './configsAround';
import { commandCouldRead, unknownIfThere } from './reviewReadable';
import { pathsRunnerConfigsPointAt } from './runnerConfigs';

/** Repositories of the workspace whose configs a review reads at most (a monorepo of vendored checkouts has hundreds). */
const MAX_REPOSITORIES = 2000;
/** Folders probed between two turns of the host's event loop. */
const SLICE = 256;

/** What the look at the workspace before the command found (workspace-relative; see ProtectedPathCache.look). */
export interface KnownStructure {
  repositories: readonly string[];
  gitDirectories: readonly string[];
  runnerConfigs: readonly string[];
  /** Absolute: what the launch's sandbox hides (covered files and folders, emptied folders): never read for the command. */
  hidden?: readonly string[];
  /** Absolute: folders inside a hidden one the sandbox shows again. */
  shown?: readonly string[];
  /** Absolute: the window's other folders, whose configs are read too. */
  windowFolders?: readonly string[];
}

export interface RepositoryFactsOptions {
  root: string;
  /** The command's layer (its writes). */
  upper: string;
  home: string;
  known: KnownStructure;
  protectedPatterns: readonly string[];
  entries: readonly ChangedEntry[];
  signal: AbortSignal;
}

/**
 * Which changed folders are git directories by Git's rules, and what the repositories around the change point at.
 * Past a bound, or where a file or folder could not be read (UnreadablePath), nothing is known for sure: incomplete.
 */
export async function repositoryFacts(options: RepositoryFactsOptions): Promise<RepositoryFacts & { incomplete?: string }> {
  try {
    return await factsOf(options);
  } catch (error) {
    if (error instanceof ConfigTooLarge) return { gitDirectories: new Set(), pointedAt: [], incomplete: error.message };
    throw error;
  }
}

async function factsOf(options: RepositoryFactsOptions): Promise<RepositoryFacts & { incomplete?: string }> {
  const { root, upper, home, known, entries, signal } = options;
  if (known.repositories.length + known.gitDirectories.length > MAX_REPOSITORIES) {
    return {
      gitDirectories: new Set(),
      pointedAt: [],
      incomplete: `the workspace holds more than ${MAX_REPOSITORIES} repositories, too many to read their configs`,
    };
  }
  const gitDirectories = new Set<string>();
  const pythonEnvironments = new Set<string>();
  const repositories = new Map<string, string>();
  let probed = 0;
  for (const entry of entries) {
    signal.throwIfAborted();
    if (entry.kind !== 'directory') continue;
    // Synchronous probes, a slice at a time: a dozen system calls a folder, each a thread-pool round trip when
    // asynchronous (10,000 planted folders took most of the review's 20 s that way).
    if (++probed % SLICE === 0) await yieldToHost();
    // The layer's folder reached one name at a time without following a link (round 10: a folder swapped for a
    // link to ~/x/.git made the review say whether that home path is a repository). Gone or a link now: held
    // as unknown below by its own entry, nothing learned from where it leads.
    const pinned = openBeneathSync(upper, entry.path);
    if (pinned !== undefined)
      try {
        const upperFolder = `/proc/self/fd/${pinned}`;
        const workspaceFolder = join(root, entry.path);
        if (isPythonEnvironmentSync(upperFolder, workspaceFolder)) pythonEnvironments.add(entry.path);
        // The folder as it will be: what the command wrote over what the workspace has.
        if (isMergedGitDirectorySync(upperFolder, undefined) || isMergedGitDirectorySync(upperFolder, workspaceFolder)) gitDirectories.add(entry.path);
      } finally {
        closeSync(pinned);
      }
    const dotGit = join(root, entry.path, '.git');
    if (lstatQuietly(dotGit) === undefined) continue;
    const gitDir = await gitDirectoryOf(dotGit);
    if (gitDir) repositories.set(gitDir, join(root, entry.path));
  }
  // Every repository in the workspace, whether or not the command touched its folder: a config may point anywhere in it.
  for (const folder of known.repositories) {
    signal.throwIfAborted();
    const workTree = folder === '' ? root : join(root, folder);
    const gitDir = await gitDirectoryOf(join(workTree, '.git'));
    if (gitDir) repositories.set(gitDir, workTree);
  }
  // A bare repository kept in the workspace (vendor/upstream.git): Git runs there with the git directory as its place.
  for (const folder of known.gitDirectories) {
    const gitDir = folder === '' ? root : join(root, folder);
    if (!repositories.has(gitDir)) repositories.set(gitDir, gitDir);
  }
  // Git finds a work tree's repository by walking up from it: the workspace's own and its parents'.
  for (let folder = root; ;) {
    const gitDir = await gitDirectoryOf(join(folder, '.git'));
    if (gitDir) repositories.set(gitDir, folder);
    const parent = join(folder, '..');
    if (parent === folder) break;
    folder = parent;
  }
  // Git takes a folder with HEAD, objects and refs for a bare repository when it runs there: the workspace's top too.
  const rootIsGitDirectory = isMergedGitDirectorySync(upper, root);
  const rootIsPythonEnvironment = isPythonEnvironmentSync(upper, root);
  const pointedAt = new Set<string>();
  const mentioned = noneMentioned(home);
  for (const [gitDir, workTree] of repositories) {
    signal.throwIfAborted();
    try {
      for (const path of await pathsConfigPointsAt({
        gitDir,
        workTree,
        root: root,
        home: home,
        hooks: mentioned,
        commandLine: (text, places) => mentionedBy(text, mentioned, places),
      }))
        pointedAt.add(path);
    } catch (error) {
      if (error instanceof ConfigTooLarge) return { gitDirectories, pointedAt: [], incomplete: error.message };
      throw error;
    }
  }
  // What the command could read itself, by what its sandbox hides: nothing else is read for it.
  const readable = { root, home, protectedPatterns: options.protectedPatterns, hidden: known.hidden, shown: known.shown };
  try {
    // The configs above the workspace and at the window's other folders' tops, each read from its own folder.
    const around = await configsAround(root, known.windowFolders ?? [], signal);
    for (const path of await pathsRunnerConfigsPointAt({
      root: root,
      upper: upper,
      configs: [...known.runnerConfigs, ...around.map((config) => config.path)],
      tops: new Map(around.map((config) => [config.path, config.top])),
      mentioned,
    })) {
      pointedAt.add(path);
    }
    await followPrograms({
      root: root,
      upper: upper,
      mentioned,
      add: (path) => addNamedInside(pointedAt, root, path),
      readable: (path) => commandCouldRead(path, readable),
      // What the sandbox hides outside the workspace (the home folder, another folder's covered files): not read, so unknown.
      unknownIfThere: (path) => unknownIfThere(path, readable),
    });
  } catch (error) {
    if (error instanceof ConfigTooLarge) return { gitDirectories, pointedAt: [], incomplete: error.message };
    throw error;
  }
  if (pointedAt.size > MAX_POINTED_PATHS) {
    return { gitDirectories, pointedAt: [], incomplete: `the configs and hooks name more than ${MAX_POINTED_PATHS} paths, too many to check` };
  }
  return {
    gitDirectories,
    pointedAt: [...pointedAt],
    mentionedNames: mentioned.names,
    hooksRunScripts: mentioned.packageScripts,
    rootIsGitDirectory,
    rootIsPythonEnvironment,
    pythonEnvironments,
  };
}

/** lstat without following a final link; undefined when there is nothing there, UnreadablePath when it cannot be looked at. */
function lstatQuietly(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return absentOr(error, path);
  }
}

/** A Python environment's marker (a venv's `pyvenv.cfg`, a conda environment's `conda-meta`) in the layer or the workspace: a command that deletes the marker inside the sandbox does not make the workspace's environment an ordinary folder. */
function isPythonEnvironmentSync(upperFolder: string, workspaceFolder: string): boolean {
  for (const marker of ['pyvenv.cfg', 'conda-meta']) {
    const above = lstatQuietly(join(upperFolder, marker));
    if (above && !(above.isCharacterDevice() && above.rdev === 0)) return true;
    // Removed inside the sandbox only: the workspace's environment is one still.
    if (lstatQuietly(join(workspaceFolder, marker)) !== undefined) return true;
  }
  return false;
}

/**
 * Whether a folder of the layer is a git directory by Git's rules (HEAD, and objects and refs or a commondir):
 * alone (`workspaceFolder` undefined: any entry counts, a removal's mark included), or over the workspace's
 * folder (a removal's mark gives way to the workspace's entry), as isGitDirectory and isMergedGitDirectory judge.
 */
function isMergedGitDirectorySync(upperFolder: string, workspaceFolder: string | undefined): boolean {
  const has = (name: string, folder: boolean): boolean => {
    if (workspaceFolder === undefined) {
      const info = lstatQuietly(join(upperFolder, name));
      return info !== undefined && (folder ? info.isDirectory() : !info.isDirectory());
    }
    for (const base of [upperFolder, workspaceFolder]) {
      const info = lstatQuietly(join(base, name));
      if (info && !(info.isCharacterDevice() && info.rdev === 0)) return folder ? info.isDirectory() : !info.isDirectory();
    }
    return false;
  };
  if (!has('HEAD', false)) return false;
  return has('commondir', false) || (has('objects', true) && has('refs', true));
}
