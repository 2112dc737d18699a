/**
 * Reading the workspace's agent files (prompt files, custom agents) with the
 * same care as skills (skills.ts): through the WorkspaceFiles port, so a
 * symlink out of the workspace and a protected file are never read; bounded
 * in count and size; a file with a second name (a hard link) refused, as the
 * file tools refuse it. Each file left out is one line for the log, never a
 * failed session.
 */
import type { WorkspaceFiles } from '../../base/common';
import { protectingPattern } from '../../base/common';

export interface AgentFileLimits {
  /** Files looked at per folder. */
  maxFiles: number;
  /** A file larger than this is skipped with a note. */
  maxFileBytes: number;
}

export const DEFAULT_AGENT_FILE_LIMITS: AgentFileLimits = { maxFiles: 64, maxFileBytes: 64 * 1024 };

/** A folder of agent files and the ending that marks one (`.prompt.md`, `.agent.md`, `.md`). */
export interface AgentFileFolder {
  folder: string;
  suffix: string;
}

/** The text of each file found, or why it was left out. */
export type AgentFileRead = { path: string; text: string } | { path: string; problem: string };

/** The files of `folders` that end in their suffix, in name order, each read or refused; past the bound, a note. */
export async function readAgentFiles(
  input: { files: WorkspaceFiles; folders: readonly AgentFileFolder[]; protectedFiles: readonly string[]; limits?: AgentFileLimits },
  signal: AbortSignal,
): Promise<AgentFileRead[]> {
  const limits = input.limits ?? DEFAULT_AGENT_FILE_LIMITS;
  const reads: AgentFileRead[] = [];
  for (const { folder, suffix } of input.folders) {
    const paths = await filesOf(input.files, folder, suffix, signal);
    for (const [index, path] of paths.entries()) {
      if (index >= limits.maxFiles) {
        reads.push({ path, problem: `skipped, past the first ${limits.maxFiles} files of ${folder}` });
        break;
      }
      const text = await readGuarded(input.files, path, input.protectedFiles, limits, signal);
      reads.push(text.ok ? { path, text: text.text } : { path, problem: `skipped, ${text.problem}` });
    }
  }
  return reads;
}

/** The paths of a folder's entries with the suffix (files and symlinks: a symlink is refused with a note when it leads out). */
async function filesOf(files: WorkspaceFiles, folder: string, suffix: string, signal: AbortSignal): Promise<string[]> {
  try {
    const stat = await files.stat(folder, signal);
    if (stat?.type !== 'directory') return [];
    const entries = await files.list(folder, signal);
    return entries
      .filter((entry) => (entry.type === 'file' || entry.type === 'symlink') && entry.name.endsWith(suffix) && entry.name.length > suffix.length)
      .map((entry) => `${folder}/${entry.name}`)
      .sort();
  } catch {
    if (signal.aborted) throw signal.reason;
    return [];
  }
}

/** A file's text when it is a plain file inside the workspace, not protected, with one name, within the size. */
export async function readGuarded(
  files: WorkspaceFiles,
  path: string,
  protectedFiles: readonly string[],
  limits: Pick<AgentFileLimits, 'maxFileBytes'>,
  signal: AbortSignal,
): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  if (protectingPattern(path, protectedFiles) !== undefined) return { ok: false, problem: 'it is a protected file' };
  try {
    const real = await files.realPathInside(path, signal);
    if (real === undefined) return { ok: false, problem: 'it leads outside the workspace' };
    if (protectingPattern(real, protectedFiles) !== undefined) return { ok: false, problem: 'it leads to a protected file' };
    const stat = await files.stat(path, signal);
    if (stat === undefined) return { ok: false, problem: 'it is gone' };
    if (stat.type !== 'file') return { ok: false, problem: 'it is not a file' };
    if ((stat.links ?? 1) > 1) return { ok: false, problem: 'it has more than one name (a hard link)' };
    if (stat.size > limits.maxFileBytes) return { ok: false, problem: `it has ${stat.size} bytes (more than ${limits.maxFileBytes})` };
    return { ok: true, text: await files.readText(path, signal) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { ok: false, problem: `it could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}
