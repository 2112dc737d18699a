/**
 * Where the tools may look and write: inside the workspace, never in a
 * protected file. Paths are checked twice, as written (lexically) and where
 * they really lead once symlinks are followed, because either alone can be
 * fooled: `a/../../x` needs no symlink, `link/x` needs nothing but one.
 */
import type { ToolContext } from './tool';
import { protectingPattern } from '../../base/common';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

const hint = 'Use a path relative to the workspace root, like "src/index.ts".';

/**
 * The path as the host should see it (`a/b`, or `.` for the root), or why it
 * is refused. Backslashes count as separators, so `..\\x` and `\\\\server\\share`
 * are caught as the escapes they are on Windows.
 */
export function normalizeWorkspacePath(raw: string): PathCheck {
  const shown = JSON.stringify(raw);
  if (raw.trim() === '') return { ok: false, reason: `Refused: the path is empty. ${hint}` };
  if (raw.includes('\0')) return { ok: false, reason: `Refused: ${shown} contains a NUL character. ${hint}` };
  if (raw.startsWith('~')) return { ok: false, reason: `Refused: ${shown} points into a home folder, outside the workspace. ${hint}` };
  const path = raw.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return { ok: false, reason: `Refused: ${shown} is an absolute path; only paths inside the workspace are allowed. ${hint}` };
  }
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return { ok: false, reason: `Refused: ${shown} leads outside the workspace. ${hint}` };
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return { ok: true, path: segments.length > 0 ? segments.join('/') : '.' };
}

/**
 * The checked, normalized path for a tool argument, or why it is refused:
 * outside the workspace (lexically or through a symlink), or protected
 * (directly or as a symlink's target).
 */
export async function resolveWorkspacePath(raw: string, ctx: Pick<ToolContext, 'files' | 'protectedFiles'>, signal: AbortSignal): Promise<PathCheck> {
  const lexical = normalizeWorkspacePath(raw);
  if (!lexical.ok) return lexical;
  const shown = JSON.stringify(raw);
  const protectedBy = protectingPattern(lexical.path, ctx.protectedFiles);
  if (protectedBy !== undefined) return { ok: false, reason: protectedReason(shown, protectedBy) };
  const real = await ctx.files.realPathInside(lexical.path, signal);
  if (real === undefined) {
    return { ok: false, reason: `Refused: ${shown} leads outside the workspace through a symbolic link. ${hint}` };
  }
  const realProtectedBy = protectingPattern(real, ctx.protectedFiles);
  if (realProtectedBy !== undefined) return { ok: false, reason: protectedReason(`${shown} (a link to "${real}")`, realProtectedBy) };
  return lexical;
}

function protectedReason(shown: string, pattern: string): string {
  return `Refused: ${shown} is a protected file (matches "${pattern}" in gateway.agent.protectedFiles); the agent may not read or change it.`;
}

/** Why a file with more than one name (hard link) is neither read nor written. */
export function hardLinkRefusal(path: string, links: number): string {
  return (
    `Refused: "${path}" is a hard link (the same file has ${links} names), so it may be a protected file such as .env or a key ` +
    'under another name; the agent does not read or write hard-linked files.'
  );
}
