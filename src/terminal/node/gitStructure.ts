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
 * Bounded: config files are read up to 1 MB each and 10 includes deep.
 */
import { constants } from 'node:fs';
import { lstat, open, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const CONFIG_BYTES = 1024 * 1024;
const INCLUDE_DEPTH = 10;
/** Keys whose value is a path (resolved against the work tree, or the config file for includes). */
const PATH_KEYS = new Set(['core.hookspath', 'core.excludesfile', 'core.attributesfile', 'commit.template', 'core.fsmonitor']);

/** A folder (absolute) is a git directory by Git's rules: HEAD, and objects+refs or a commondir. */
export async function isGitDirectory(folder: string): Promise<boolean> {
  const head = await lstat(join(folder, 'HEAD')).catch(() => undefined);
  if (!head || head.isDirectory()) return false;
  if (await exists(join(folder, 'commondir'))) return true;
  return (await isFolder(join(folder, 'objects'))) && (await isFolder(join(folder, 'refs')));
}

/** The git directory a `.git` entry (absolute path) leads to: itself when a folder, its `gitdir:` target when a file. */
export async function gitDirectoryOf(dotGit: string): Promise<string | undefined> {
  const info = await lstat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return dotGit;
  if (!info.isFile() || info.size > 4096) return undefined;
  const text = await readFile(dotGit, 'utf8').catch(() => '');
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match ? resolve(dirname(dotGit), match[1]) : undefined;
}

/** Whether a small file's text begins as a gitfile does (`gitdir: …`). */
export async function startsAsGitLink(path: string, size: number): Promise<boolean> {
  if (size > 4096 || size < 8) return false;
  // Never a link followed, never a pipe waited on: a running command may swap either in after the lstat.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return false;
  try {
    if (!(await handle.stat()).isFile()) return false;
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buffer, 0, 16, 0);
    return /^\s*gitdir:/i.test(buffer.subarray(0, bytesRead).toString('latin1'));
  } finally {
    await handle.close();
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
}): Promise<string[]> {
  const { gitDir, workTree, root, home } = options;
  const found = new Set<string>();
  // The user's and the system's configs too: a relative core.hooksPath or include there resolves in this work tree.
  const configs = [...(options.globalConfigs ?? globalConfigsOf(home)), join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  if (common !== undefined) configs.push(join(resolve(gitDir, common.trim()), 'config'));
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
        const target = expandHome(value, home);
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
  const workTrees = moved ? [workTree, resolve(gitDir, expandHome(moved.value, home))] : [workTree];
  for (const { key, value } of entries) {
    for (const tree of workTrees) {
      if (PATH_KEYS.has(key)) addInside(found, root, resolve(tree, expandHome(value, home)));
      // Git runs programs from more keys than any list keeps up with (pagers, send-email, signing, refs…): every
      // word of every value that names a path inside the workspace counts, whatever the key.
      for (const word of value.replace(/^!/, '').split(/[\s;&|()<>"'`=,]+/)) {
        if (word === '' || !/[/.~]/.test(word) || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) continue;
        addInside(found, root, resolve(tree, expandHome(word, home)));
      }
    }
  }
  return [...found];
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
}

function expandHome(value: string, home: string): string {
  return value.startsWith('~/') ? join(home, value.slice(2)) : value;
}

/** The `section[.subsection].key = value` pairs of a Git config file, keys lower-cased (subsections keep their case). */
export function configEntries(text: string): { key: string; value: string }[] {
  const entries: { key: string; value: string }[] = [];
  let section = '';
  // A line ending in a backslash goes on on the next one, as Git reads it.
  for (const raw of text.replace(/\\\r?\n/g, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      const [name, ...dotted] = header[1].split('.');
      const sub = header[2] ?? (dotted.length > 0 ? dotted.join('.') : undefined);
      section = sub === undefined ? name.toLowerCase() : `${name.toLowerCase()}.${sub}`;
      // `[section] key = value` on the header's own line.
      const rest = header[3].trim();
      if (rest !== '') pushEntry(entries, section, rest);
      continue;
    }
    if (section !== '') pushEntry(entries, section, line);
  }
  return entries;
}

function pushEntry(entries: { key: string; value: string }[], section: string, line: string): void {
  const match = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
  if (!match) return;
  const value = match[2] === undefined ? 'true' : configValue(match[2]);
  entries.push({ key: `${section}.${match[1].toLowerCase()}`.replace(/^([^.]+)\./, (whole) => whole.toLowerCase()), value });
}

/**
 * A value as Git reads it: quotes removed, `\"`, `\\`, `\n`, `\t` unescaped, and a `#` or `;` ending it only
 * outside quotes (inside them it is part of the value: an alias's shell code).
 */
export function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  let pendingSpace = '';
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index];
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[++index];
      value += pendingSpace + (next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '' : next);
      pendingSpace = '';
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else if (!quoted && /\s/.test(char)) pendingSpace += value === '' ? '' : char;
    else {
      value += pendingSpace + char;
      pendingSpace = '';
    }
  }
  return value;
}

async function readBounded(file: string): Promise<string | undefined> {
  // Followed like Git follows it: a config kept in a dotfiles folder and linked into place is read there.
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > CONFIG_BYTES) return undefined;
  return readFile(file, 'utf8').catch(() => undefined);
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

async function isFolder(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isDirectory() ?? false;
}
