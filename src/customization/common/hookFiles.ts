/**
 * Finding the hook files: in the workspace Claude Code's settings files, Codex's
 * `.codex/hooks.json` and Copilot's `.github/hooks/*.json`; in the user's home
 * folder the same agents' user-level files (`~/.claude/settings.json`,
 * `~/.codex/hooks.json`, `~/.copilot/hooks/*.json`). Read through the
 * WorkspaceFiles port, so a symlink out of its folder and a protected file
 * are never read (in the home folder a symlink anywhere on the way is
 * refused, as for home skills); a file too large, binary or malformed is one
 * note for the log.
 */
import type { WorkspaceFiles } from '../../base/common';
import { protectingPattern } from '../../base/common';
import { DEFAULT_HOOK_LIMITS, parseClaudeHooks, parseCodexHooks, parseCopilotHooks, type HookLimits, type HookPlatform, type ParsedHooks } from './hookConfig';

export const CLAUDE_SETTINGS_FILES: readonly string[] = ['.claude/settings.json', '.claude/settings.local.json'];
export const CODEX_HOOKS_FILE = '.codex/hooks.json';
export const COPILOT_HOOKS_FOLDER = '.github/hooks';
/** Claude Code's user settings (it reads no settings.local.json in the home folder). */
export const HOME_CLAUDE_SETTINGS_FILE = '.claude/settings.json';
/** Copilot CLI's user-level hook files (`$COPILOT_HOME/hooks` when that is set: not followed here). */
export const HOME_COPILOT_HOOKS_FOLDER = '.copilot/hooks';

/** Where the files are: the workspace, or the user's home folder (named `~/…`, no symlink on the way). */
export type HookPlace = 'workspace' | 'home';

type Parse = (text: string, source: string, limits: HookLimits) => ParsedHooks;

/** Bytes of one hook file: a configuration, not data. */
const MAX_FILE_BYTES = 64 * 1024;
/** Files of `.github/hooks` looked at. */
const MAX_COPILOT_FILES = 16;

export interface FoundHooks extends ParsedHooks {
  /** The files that gave at least one hook (for the session summary). */
  files: string[];
}

/** Where and how hook files are looked for. */
export interface HookSearch {
  protectedFiles: readonly string[];
  /** The system the hooks run on (Node's `process.platform`): a VS Code hook file's line depends on it. */
  platform: HookPlatform;
  /** Default DEFAULT_HOOK_LIMITS. */
  limits?: HookLimits;
  /** Default the workspace. */
  place?: HookPlace;
}

/** Every hook of the hook files of `search.place` (`files` reaches that folder), within `limits.maxHooks` in all. */
export async function findHooks(files: WorkspaceFiles, search: HookSearch, signal: AbortSignal): Promise<FoundHooks> {
  const { protectedFiles, platform, limits = DEFAULT_HOOK_LIMITS, place = 'workspace' } = search;
  const found: FoundHooks = { hooks: [], notes: [], files: [] };
  const home = place === 'home';
  const claudeFiles = home ? [HOME_CLAUDE_SETTINGS_FILE] : CLAUDE_SETTINGS_FILES;
  const copilot: Parse = (text, source, bounds) => parseCopilotHooks(text, source, { platform, limits: bounds });
  const candidates: { path: string; parse: Parse }[] = [
    ...claudeFiles.map((path) => ({ path, parse: parseClaudeHooks })),
    { path: CODEX_HOOKS_FILE, parse: parseCodexHooks },
    ...(await copilotFiles(files, home ? HOME_COPILOT_HOOKS_FOLDER : COPILOT_HOOKS_FOLDER, signal)).map((path) => ({ path, parse: copilot })),
  ];
  for (const { path, parse } of candidates) {
    const name = home ? `~/${path}` : path;
    const text = await readHookFile(files, path, { protectedFiles, noSymlinks: home }, signal);
    if (text === undefined) continue;
    if (typeof text === 'object') {
      found.notes.push(`${name}: ${text.problem}; its hooks are ignored`);
      continue;
    }
    const parsed = parse(text, name, limits);
    found.notes.push(...parsed.notes);
    const room = limits.maxHooks - found.hooks.length;
    if (parsed.hooks.length > room)
      found.notes.push(`${name}: more than ${limits.maxHooks} hooks in the ${place === 'home' ? 'home folder' : 'workspace'}; the rest are ignored`);
    const kept = parsed.hooks.slice(0, Math.max(0, room));
    if (kept.length > 0) found.files.push(name);
    found.hooks.push(...kept);
  }
  return found;
}

/** The `.json` files of a Copilot hooks folder, sorted, bounded. */
async function copilotFiles(files: WorkspaceFiles, folder: string, signal: AbortSignal): Promise<string[]> {
  try {
    const stat = await files.stat(folder, signal);
    if (stat?.type !== 'directory') return [];
    const entries = await files.list(folder, signal);
    return (
      entries
        // Symlinks too: read, they are refused with a note when they lead out (a silent skip would hide a hostile file).
        .filter((entry) => (entry.type === 'file' || entry.type === 'symlink') && entry.name.endsWith('.json'))
        .map((entry) => `${folder}/${entry.name}`)
        .sort()
        .slice(0, MAX_COPILOT_FILES)
    );
  } catch {
    if (signal.aborted) throw signal.reason;
    return [];
  }
}

/** The file's text; undefined when there is none; why it is not read otherwise. */
async function readHookFile(
  files: WorkspaceFiles,
  path: string,
  rules: { protectedFiles: readonly string[]; noSymlinks: boolean },
  signal: AbortSignal,
): Promise<string | { problem: string } | undefined> {
  const { protectedFiles, noSymlinks } = rules;
  if (protectingPattern(path, protectedFiles) !== undefined) return { problem: 'it is a protected file' };
  try {
    const stat = await files.stat(path, signal);
    if (stat === undefined) return undefined;
    if (stat.type !== 'file') return { problem: 'it is not a file' };
    if ((stat.links ?? 1) > 1) return { problem: 'it has more than one name (a hard link)' };
    if (stat.size > MAX_FILE_BYTES) return { problem: `it has ${stat.size} bytes (more than ${MAX_FILE_BYTES})` };
    const real = await files.realPathInside(path, signal);
    if (real === undefined) return { problem: `it leads outside the ${noSymlinks ? 'home folder' : 'workspace'}` };
    if (noSymlinks && real !== path) return { problem: 'it is reached through a symlink' };
    if (protectingPattern(real, protectedFiles) !== undefined) return { problem: 'it leads to a protected file' };
    const text = await files.readText(path, signal);
    return text.includes('\0') ? { problem: 'it is binary' } : text;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { problem: `it could not be read (${error instanceof Error ? error.message.slice(0, 120) : String(error)})` };
  }
}
