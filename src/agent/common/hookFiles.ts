/**
 * Finding the workspace's hook files: Claude Code's settings files and
 * Copilot's `.github/hooks/*.json`. Read through the WorkspaceFiles port, so a
 * symlink out of the workspace and a protected file are never read; a file
 * too large, binary or malformed is one note for the log.
 */
import type { WorkspaceFiles } from '../../base/common';
import { protectingPattern } from '../../tools/common';
import { DEFAULT_HOOK_LIMITS, parseClaudeHooks, parseCopilotHooks, type HookLimits, type ParsedHooks } from './hookConfig';

export const CLAUDE_SETTINGS_FILES: readonly string[] = ['.claude/settings.json', '.claude/settings.local.json'];
export const COPILOT_HOOKS_FOLDER = '.github/hooks';

/** Bytes of one hook file: a configuration, not data. */
const MAX_FILE_BYTES = 64 * 1024;
/** Files of `.github/hooks` looked at. */
const MAX_COPILOT_FILES = 16;

export interface FoundHooks extends ParsedHooks {
  /** The files that gave at least one hook (for the session summary). */
  files: string[];
}

/** Every hook of the workspace's hook files, within `limits.maxHooks` in all. */
export async function findHooks(
  files: WorkspaceFiles,
  protectedFiles: readonly string[],
  signal: AbortSignal,
  limits: HookLimits = DEFAULT_HOOK_LIMITS,
): Promise<FoundHooks> {
  const found: FoundHooks = { hooks: [], notes: [], files: [] };
  const candidates: { path: string; parse: typeof parseClaudeHooks }[] = [
    ...CLAUDE_SETTINGS_FILES.map((path) => ({ path, parse: parseClaudeHooks })),
    ...(await copilotFiles(files, signal)).map((path) => ({ path, parse: parseCopilotHooks })),
  ];
  for (const { path, parse } of candidates) {
    const text = await readHookFile(files, path, protectedFiles, signal);
    if (text === undefined) continue;
    if (typeof text === 'object') {
      found.notes.push(`${path}: ${text.problem}; its hooks are ignored`);
      continue;
    }
    const parsed = parse(text, path, limits);
    found.notes.push(...parsed.notes);
    const room = limits.maxHooks - found.hooks.length;
    if (parsed.hooks.length > room) found.notes.push(`${path}: more than ${limits.maxHooks} hooks in the workspace; the rest are ignored`);
    const kept = parsed.hooks.slice(0, Math.max(0, room));
    if (kept.length > 0) found.files.push(path);
    found.hooks.push(...kept);
  }
  return found;
}

/** The `.json` files of `.github/hooks`, sorted, bounded. */
async function copilotFiles(files: WorkspaceFiles, signal: AbortSignal): Promise<string[]> {
  try {
    const stat = await files.stat(COPILOT_HOOKS_FOLDER, signal);
    if (stat?.type !== 'directory') return [];
    const entries = await files.list(COPILOT_HOOKS_FOLDER, signal);
    return (
      entries
        // Symlinks too: read, they are refused with a note when they lead out (a silent skip would hide a hostile file).
        .filter((entry) => (entry.type === 'file' || entry.type === 'symlink') && entry.name.endsWith('.json'))
        .map((entry) => `${COPILOT_HOOKS_FOLDER}/${entry.name}`)
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
  protectedFiles: readonly string[],
  signal: AbortSignal,
): Promise<string | { problem: string } | undefined> {
  if (protectingPattern(path, protectedFiles) !== undefined) return { problem: 'it is a protected file' };
  try {
    const stat = await files.stat(path, signal);
    if (stat === undefined) return undefined;
    if (stat.type !== 'file') return { problem: 'it is not a file' };
    if ((stat.links ?? 1) > 1) return { problem: 'it has more than one name (a hard link)' };
    if (stat.size > MAX_FILE_BYTES) return { problem: `it has ${stat.size} bytes (more than ${MAX_FILE_BYTES})` };
    const real = await files.realPathInside(path, signal);
    if (real === undefined) return { problem: 'it leads outside the workspace' };
    if (protectingPattern(real, protectedFiles) !== undefined) return { problem: 'it leads to a protected file' };
    const text = await files.readText(path, signal);
    return text.includes('\0') ? { problem: 'it is binary' } : text;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { problem: `it could not be read (${error instanceof Error ? error.message.slice(0, 120) : String(error)})` };
  }
}
