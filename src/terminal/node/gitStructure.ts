/**
 * What Git itself would see around a change set, by Git's own rules rather
 * than by names (git's setup.c: is_git_directory, read_gitfile; config.c's
 * includes):
 * - a folder is a git directory when it has a `HEAD` and either `objects` and
 *   `refs` or a `commondir` (the bare layout: `core.worktree=..` in its config
 *   makes its parent a work tree, whatever the folder is called);
 * - a repository's config may point at files in the workspace: `include.path`
 *   and `includeIf.*.path` (relative to the config file), `core.hooksPath`,
 *   `core.worktree`, `core.excludesFile`, `core.attributesFile`, and every
 *   word of any value that names a path inside the workspace (Git runs
 *   programs from filters, drivers, fsmonitor, pagers, editors, helpers,
 *   send-email, signing, `!` aliases…: no list of keys keeps up, so every
 *   key counts): a change to any of them is code Git would run.
 * - the hooks themselves (the git directory's `hooks/`, the folder `core.hooksPath` names), which hookPrograms
 *   follows to what they run;
 * - where the links inside a git directory lead (`hooks/pre-commit -> ../../scripts/pre-commit.sh`, a
 *   `config` linked to a tracked file): Git follows them.
 * Paths are read as Git's interpolate_path reads them: `~/`, `~user/` (that user's home), `%(prefix)/` (Git's
 * install prefix), and `:(optional)` before any of them.
 * Bounded: config files are read up to 1 MB each (a larger one throws ConfigTooLarge: nothing is known of it,
 * so the caller holds the whole change set) and 10 includes deep; hooks up to 200 a folder.
 */
import { execFile } from 'node:child_process';
import { withoutBracedExpansions } from '../common/shellWords';
import { configEntries } from './gitConfigText';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { lstat, open, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigTooLarge, ReviewBound } from './reviewBounds';

export { configEntries, configValue } from './gitConfigText';

const CONFIG_BYTES = 1024 * 1024;
const INCLUDE_DEPTH = 10;
/** Hook files taken per folder. */
const HOOK_FILES = 200;
/** Entries of a git directory looked at for links (its top, hooks/ and info/). */
const GIT_DIRECTORY_ENTRIES = new ReviewBound(2000, "a git directory's top, hooks and info folders hold entries");

/** The hooks Git runs (githooks(5)): only a file of one of these names runs, never a `.sample`. */
const GIT_HOOK_NAMES = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);

// A Git config the review cannot read whole (past its size bound, or naming too many paths): what it points at is unknown.
export { ConfigTooLarge } from './reviewBounds';

/**
 * A file or folder the review could not read for another reason than its absence (EACCES, EPERM, EIO…): what it
 * says is unknown, so the whole change set waits (round 12: a folder made unreadable by one command hid the next
 * command's change to what the hook it holds runs).
 */
export class UnreadablePath extends ConfigTooLarge {}

/** Errors that say there is nothing there to read (or no file: a link refused, a socket): anything else is UnreadablePath. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'ENODEV', 'ENAMETOOLONG']);

/** undefined when `error` says `path` is not there; throws UnreadablePath for any other failure to read it. */
export function absentOr(error: unknown, path: string): undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && ABSENT.has(code)) return undefined;
  throw new UnreadablePath(`the review could not read ${basename(path)} (${code ?? String(error)}), so what it says is unknown`);
}

/** Paths the configs and scripts of one review may name; past it nothing is known for sure (ConfigTooLarge). */
export const MAX_POINTED_PATHS = 20_000;
/** Keys whose values are data, never a command: who the user is, where branches and remotes lead. */
const DATA_KEYS = /^(user\.|author\.|committer\.|branch\.|init\.)|\.(url|pushurl|fetch|push|merge|remote)$/;
/** Keys whose value is a path (resolved against the work tree, or the config file for includes). */
const PATH_KEYS = new Set(['core.hookspath', 'core.excludesfile', 'core.attributesfile', 'commit.template', 'core.fsmonitor']);

/** A folder (absolute) is a git directory by Git's rules: HEAD, and objects+refs or a commondir. */
export async function isGitDirectory(folder: string): Promise<boolean> {
  const head = await lstat(join(folder, 'HEAD')).catch((error: unknown) => absentOr(error, join(folder, 'HEAD')));
  if (!head || head.isDirectory()) return false;
  if (await exists(join(folder, 'commondir'))) return true;
  return (await isFolder(join(folder, 'objects'))) && (await isFolder(join(folder, 'refs')));
}

/**
 * The git directory a `.git` entry (absolute path) leads to: itself when a folder, its `gitdir:` target when a
 * file; a link is followed first, as Git follows it (a `.git` linked to the git directory is a repository).
 */
export async function gitDirectoryOf(dotGit: string): Promise<string | undefined> {
  const info = await stat(dotGit).catch((error: unknown) => absentOr(error, dotGit));
  if (!info) return undefined;
  if (info.isDirectory()) return dotGit;
  if (!info.isFile() || info.size > 4096) return undefined;
  const text = (await readFile(dotGit, 'utf8').catch((error: unknown) => absentOr(error, dotGit))) ?? '';
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match ? resolve(dirname(dotGit), match[1]) : undefined;
}

/** Whether a small file's text begins as a gitfile does (`gitdir: …`); synchronous: a few microseconds, for every file of a change set. */
export function startsAsGitLink(path: string, size: number): boolean {
  if (size > 4096 || size < 8) return false;
  let descriptor: number;
  try {
    // Never a link followed, never a pipe waited on: a running command may swap either in after the lstat.
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(descriptor).isFile()) return false;
    const buffer = Buffer.alloc(16);
    const bytesRead = readSync(descriptor, buffer, 0, 16, 0);
    return /^\s*gitdir:/i.test(buffer.subarray(0, bytesRead).toString('latin1'));
  } catch {
    return false;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The workspace paths (workspace-relative) that the config of the repository
 * whose git directory is `gitDir` and whose work tree is `workTree` points at.
 */
export async function pathsConfigPointsAt(options: {
  gitDir: string;
  workTree: string;
  root: string;
  home: string;
  /** The system's and the user's config files; default /etc/gitconfig, $XDG_CONFIG_HOME/git/config, ~/.gitconfig. */
  globalConfigs?: readonly string[];
  /** Collects the hook files and the work trees they run in. */
  hooks?: HookStarts;
  /** Reads a config value as a command line run from `places` (the work trees), as a hook's text is read (hookPrograms' mentionedBy). */
  commandLine?: (text: string, places: readonly string[]) => void;
}): Promise<string[]> {
  const { gitDir, workTree, root, home } = options;
  const found = new Set<string>();
  // The user's and the system's configs too: a relative core.hooksPath or include there resolves in this work tree.
  const configs = [...(options.globalConfigs ?? globalConfigsOf(home)), join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  // A linked worktree's git directory names the main one in `commondir`: Git takes the config, hooks/ and info/
  // (path.c's common_list: config, hooks, info, packed-refs, refs, objects…) from there, not from its own folder.
  const commonDir = await commonDirectoryOf(gitDir);
  if (commonDir !== gitDir) configs.push(join(commonDir, 'config'));
  const seen = new Set<string>();
  // Every entry first (includes followed), then what they name: a core.worktree anywhere moves the work tree.
  const entries: { key: string; value: string }[] = [];
  const readConfig = async (file: string, level: number): Promise<void> => {
    if (level > INCLUDE_DEPTH || seen.has(file)) return;
    seen.add(file);
    const text = await readBounded(file);
    if (text !== undefined) await readText(text, dirname(file), level);
  };
  /** One config's text; its includes are relative to `folder` (the file's own). */
  const readText = async (text: string, folder: string, level: number): Promise<void> => {
    for (const entry of configEntries(text)) {
      const { key, value } = entry;
      if (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) {
        const target = await interpolatePath(value, home);
        const included = isAbsolute(target) ? target : resolve(folder, target);
        addInside(found, root, included);
        await readConfig(included, level + 1);
        continue;
      }
      entries.push(entry);
    }
  };
  for (const file of configs) await readConfig(file, 0);
  if (options.globalConfigs === undefined) await readText(environmentConfig(), workTree, 0);
  // Git takes a relative core.worktree from the git directory, and runs hooks, filters and fsmonitor there.
  const moved = entries.filter((entry) => entry.key === 'core.worktree').pop();
  const workTrees = moved ? [workTree, resolve(gitDir, await interpolatePath(moved.value, home))] : [workTree];
  const hookFolders = [...new Set([join(commonDir, 'hooks'), join(gitDir, 'hooks')])];
  for (const { key, value } of entries) {
    for (const tree of workTrees) {
      if (PATH_KEYS.has(key)) addInside(found, root, resolve(tree, await interpolatePath(value, home)));
      if (key === 'core.hookspath') hookFolders.push(resolve(tree, await interpolatePath(value, home)));
      // Git runs programs from more keys than any list keeps up with (pagers, send-email, signing, refs…): every
      // word of every value that names a path inside the workspace counts, whatever the key.
      for (const word of pathLikeWords(value.replace(/^!/, ''))) addInside(found, root, resolve(tree, await interpolatePath(word, home)));
    }
  }
  // What the hooks run is followed from the hook files themselves (hookPrograms), from the work trees' tops.
  if (options.hooks) {
    for (const tree of workTrees) options.hooks.tops.add(tree);
    for (const folder of hookFolders) {
      for (const hook of await hookFiles(folder)) {
        options.hooks.programs.add(hook);
        options.hooks.hooks.add(hook);
      }
    }
    // The programs config values run (a clean filter's `sh tools/clean.sh`): followed as a hook's are.
    for (const { key, value } of entries) {
      for (const word of pathLikeWords(value.replace(/^!/, ''))) for (const tree of workTrees) options.hooks.programs.add(resolve(tree, word));
      // And read as the command line it may be (`python3 -m tools.nbclean`, `make -s normalize`, `npm run x`), as a
      // hook's text is: Git runs it with the shell from the work tree's top. Who one is and where a branch goes run nothing.
      if (options.commandLine && !DATA_KEYS.test(key)) options.commandLine(value.replace(/^!/, ''), workTrees);
    }
  }
  for (const folder of new Set([gitDir, commonDir])) for (const target of await linkTargetsIn(folder)) addInside(found, root, target);
  return [...found];
}

/** The common git directory of `gitDir` (its `commondir`, relative to it), or `gitDir` itself when it has none. */
export async function commonDirectoryOf(gitDir: string): Promise<string> {
  const common = await readStart(join(gitDir, 'commondir'), 4096);
  const line = common?.split('\n')[0].trim();
  return line ? resolve(gitDir, line) : gitDir;
}

/** Where the hooks are and where they run: what hookPrograms follows from them. */
export interface HookStarts {
  /** The hook files and the programs a config names (absolute), to read and follow. */
  programs: Set<string>;
  /** The hook files among them. */
  hooks: Set<string>;
  /** The work trees' tops, where Git runs hooks. */
  tops: Set<string>;
}

/**
 * The words of a value or script that look like paths (a `/` or `.` in them, no URL scheme), as the shell joins
 * them: quotes are not breaks (`"$PWD"/tools/env` is one word), the working folder's spellings (`$PWD`, `${PWD}`,
 * `$(pwd)`) are `.`, another braced expansion a break, and a flake reference is its folder (`path:./nix#dev` is `./nix`).
 */
export function pathLikeWords(text: string): string[] {
  // Any other braced expansion (`${ROOT}/x`, `${0%/*}/../x`) is a break: its `{` or `*` is no glob of the path after it.
  const joined = withoutBracedExpansions(text.replace(/\$\{PWD\}|\$PWD\b|\$\(pwd\)/g, '.'), '$').replace(/["']/g, '');
  return (
    joined
      .split(/[\s;&|()<>`=,$]+/)
      // Only a flake reference has a query to cut; elsewhere `?` is a glob the shell expands (round 16: `tools/l?nt.sh`); `#` starts a comment.
      .map((word) => (/^(?:path|file|git\+file):(?!\/\/)/i.test(word) ? word.replace(/^[^:]+:/, '').replace(/[#?].*$/, '') : word.replace(/#.*$/, '')))
      .filter((word) => word !== '' && /[/.~]/.test(word) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(word))
  );
}

/**
 * The hooks of a hooks folder (bounded: 200), by Git's hook names, and the files of those names in the folder above:
 * a hooks folder of wrappers runs them (husky 9's `.husky/_/pre-commit` runs `.husky/pre-commit`).
 */
async function hookFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const place of [folder, dirname(folder)]) {
    const names = ((await readdir(place).catch((error: unknown) => absentOr(error, place))) ?? [])
      .filter((name) => GIT_HOOK_NAMES.has(name))
      .slice(0, HOOK_FILES);
    for (const name of names) files.push(join(place, name));
  }
  return files;
}

/**
 * The first `bytes` of a regular file (a pipe never waited on; links followed unless refused, as for what a command
 * wrote, whose link could lead to a device); undefined for anything else.
 */
export async function readStart(
  path: string,
  bytes: number,
  links: 'follow' | 'refuse' = 'follow',
  /** Past `bytes`, throw this rather than read the start: what the rest says matters. */
  whole?: (size: number) => Error,
): Promise<string | undefined> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (links === 'refuse' ? constants.O_NOFOLLOW : 0);
  const handle = await open(path, flags).catch((error: unknown) => absentOr(error, path));
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (whole && info.size > bytes) throw whole(info.size);
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Where the links in a git directory lead (its top, hooks/ and info/): Git follows them, so a hook or a config
 * linked to a workspace file runs or reads that file. Both the link's own target and where it ends up.
 */
async function linkTargetsIn(gitDir: string): Promise<string[]> {
  const targets: string[] = [];
  let seen = 0;
  for (const folder of [gitDir, join(gitDir, 'hooks'), join(gitDir, 'info')]) {
    for (const entry of (await readdir(folder, { withFileTypes: true }).catch((error: unknown) => absentOr(error, folder))) ?? []) {
      // Past the bound a link unread could lead to what runs: the whole change set waits (reviewBounds.ts).
      GIT_DIRECTORY_ENTRIES.check(++seen);
      if (!entry.isSymbolicLink()) continue;
      const link = join(folder, entry.name);
      const target = await readlink(link).catch(() => undefined);
      if (target !== undefined) targets.push(resolve(folder, target));
      const real = await realpath(link).catch((error: unknown) => absentOr(error, link));
      if (real !== undefined) targets.push(real);
    }
  }
  return targets;
}

/**
 * Where Git reads the system's and the user's config, as the environment Git would be started with says
 * (GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL: VS Code's git runs with the extension host's).
 */
function globalConfigsOf(home: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM || '/etc/gitconfig'];
  if (env.GIT_CONFIG_GLOBAL) return [...system, env.GIT_CONFIG_GLOBAL];
  const xdg = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return [...system, join(xdg, 'git', 'config'), join(home, '.gitconfig')];
}

/** The `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` settings of the environment, as config text. */
function environmentConfig(env: NodeJS.ProcessEnv = process.env): string {
  const count = Math.min(Number(env.GIT_CONFIG_COUNT) || 0, 1000);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const key = env[`GIT_CONFIG_KEY_${index}`];
    const dot = key?.lastIndexOf('.') ?? -1;
    if (!key || dot <= 0) continue;
    lines.push(`[${key.slice(0, dot)}]`, `${key.slice(dot + 1)} = ${JSON.stringify(env[`GIT_CONFIG_VALUE_${index}`] ?? '')}`);
  }
  return lines.join('\n');
}

/** `path` as workspace-relative, added when it lies inside `root` (the root itself counts as ''). */
function addInside(found: Set<string>, root: string, path: string): void {
  const inside = relative(root, path);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) found.add(inside.split(sep).join('/'));
  if (found.size > MAX_POINTED_PATHS)
    throw new ConfigTooLarge(`the repositories' configs and hooks name more than ${MAX_POINTED_PATHS} paths, too many to check`);
}

/** As addInside, the workspace itself left out: a script's `.` or `$PWD/` names no file of its own. */
export function addNamedInside(found: Set<string>, root: string, path: string): void {
  if (relative(root, path) !== '') addInside(found, root, path);
}

/**
 * A path-valued config value as Git's interpolate_path reads it: `:(optional)` dropped, `~` and `~/` the home
 * folder, `~user/` that user's (the password file's), `%(prefix)/` Git's install prefix. Anything else as it is.
 */
export async function interpolatePath(value: string, home: string): Promise<string> {
  const path = value.startsWith(':(optional)') ? value.slice(':(optional)'.length) : value;
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(2));
  if (path.startsWith('%(prefix)/')) return join(await gitPrefix(), path.slice('%(prefix)/'.length));
  const user = /^~([^/]+)(\/.*)?$/.exec(path);
  if (user) {
    const userHome = (await passwordHomes()).get(user[1]);
    // An unknown user: Git cannot expand it either (the include is an error), so nothing is pointed at.
    return userHome === undefined ? path : join(userHome, user[2] ?? '');
  }
  return path;
}

let prefix: Promise<string> | undefined;
/** Git's install prefix: its exec path's folder two up (`/usr/lib/git-core` → `/usr`); `/usr` when Git does not answer. */
function gitPrefix(): Promise<string> {
  prefix ??= new Promise((done) => {
    execFile('git', ['--exec-path'], { timeout: 5000, maxBuffer: 64 * 1024 }, (error, stdout) => {
      const execPath = error ? '' : stdout.trim();
      done(isAbsolute(execPath) ? dirname(dirname(execPath)) : '/usr');
    });
  });
  return prefix;
}

let homes: Promise<Map<string, string>> | undefined;
/** The users' home folders as the password file names them (bounded: its first 1 MB). */
function passwordHomes(): Promise<Map<string, string>> {
  homes ??= readStart('/etc/passwd', 1024 * 1024).then((text) => {
    const found = new Map<string, string>();
    for (const line of (text ?? '').split('\n')) {
      const fields = line.split(':');
      if (fields.length >= 6 && fields[0] !== '' && fields[5].startsWith('/')) found.set(fields[0], fields[5]);
    }
    return found;
  });
  return homes;
}

async function readBounded(file: string): Promise<string | undefined> {
  // Followed like Git follows it: a config kept in a dotfiles folder and linked into place is read there.
  const info = await stat(file).catch((error: unknown) => absentOr(error, file));
  if (!info?.isFile()) return undefined;
  if (info.size > CONFIG_BYTES) throw new ConfigTooLarge(`the Git config ${file} is larger than ${CONFIG_BYTES / 1024 / 1024} MB, too large to check`);
  return readFile(file, 'utf8').catch((error: unknown) => absentOr(error, file));
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch((error: unknown) => absentOr(error, path))) !== undefined;
}

async function isFolder(path: string): Promise<boolean> {
  return (await lstat(path).catch((error: unknown) => absentOr(error, path)))?.isDirectory() ?? false;
}
