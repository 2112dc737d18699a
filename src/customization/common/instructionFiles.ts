/**
 * Copilot's instructions files: `.github/instructions/**\/*.instructions.md`, whose front matter's `applyTo`
 * names the files they apply to (comma-separated globs, or a list). Read as VS Code's Copilot reads them:
 * `*`, `**` and `**\/*` apply always; a glob not starting with `**\/` or `/` matches at any depth (`src/**`
 * is `**\/src/**`); a leading `/` anchors it at the workspace root; matching ignores case. A file without
 * `applyTo` is applied only when attached by hand in Copilot, which this extension has no way to do: it is
 * left out with a note.
 *
 * The files are workspace content: bounded in number, folders and size, the globs in count and length, and
 * compiled by base's compileGlob (a linear-time engine where a glob could backtrack). What is left out is
 * noted once per kind (a count and a few names), not once per file.
 */
import type { WorkspaceFiles } from '../../base/common';
import { compileGlob } from '../../base/common';
import { protectingPattern } from '../../base/common';

import { INSTRUCTIONS_FOLDER, INSTRUCTIONS_SUFFIX } from './instructionsFolder';

export interface InstructionFileLimits {
  /** Files looked at (a collection can hold hundreds). */
  maxFiles: number;
  /** Folders under INSTRUCTIONS_FOLDER looked into, the folder itself included. */
  maxFolders: number;
  /** Folder levels below INSTRUCTIONS_FOLDER. */
  maxDepth: number;
  /** A larger file is left out: its front matter is read from the whole file. */
  maxFileBytes: number;
  /** Globs of one applyTo. */
  maxGlobs: number;
}

export const DEFAULT_INSTRUCTION_FILE_LIMITS: InstructionFileLimits = { maxFiles: 64, maxFolders: 16, maxDepth: 3, maxFileBytes: 256 * 1024, maxGlobs: 32 };

export interface InstructionFile {
  /** Workspace-relative. */
  path: string;
  /** The applyTo as written (globs joined with `, `), for the model and the log. */
  applyTo: string;
  /** `*`, `**` or `**\/*`: applies whatever the session works on. */
  always: boolean;
  /** Whether a workspace-relative path matches one of its globs (compiled once, when the file is found). */
  matches: (path: string) => boolean;
}

export type ApplyTo = { ok: true; always: boolean; written: string; matches: (path: string) => boolean } | { ok: false; problem: string };

const ALWAYS: ReadonlySet<string> = new Set(['*', '**', '**/*']);
/**
 * Characters of one applyTo: its globs are compiled, each file's once per run. Real files go past 1,024 (microsoft/hve-core's
 * untrusted-content-boundary: 28 globs, 1,300 characters), and Copilot reads them whole.
 */
const MAX_APPLY_TO_CHARS = 2048;

/** An applyTo value (a comma-separated text, or a list of such texts) as globs to match. */
export function readApplyTo(value: string | readonly string[], maxGlobs = DEFAULT_INSTRUCTION_FILE_LIMITS.maxGlobs): ApplyTo {
  const items = typeof value === 'string' ? [value] : value;
  if (items.reduce((sum, item) => sum + item.length, 0) > MAX_APPLY_TO_CHARS)
    return { ok: false, problem: `its applyTo is longer than ${MAX_APPLY_TO_CHARS} characters` };
  const written = items
    .flatMap(splitOutsideBraces)
    .map((glob) => glob.trim())
    .filter((glob) => glob !== '');
  if (written.length === 0) return { ok: false, problem: 'its applyTo is empty' };
  if (written.length > maxGlobs) return { ok: false, problem: `its applyTo has more than ${maxGlobs} globs` };
  if (written.some((glob) => ALWAYS.has(glob))) return { ok: true, always: true, written: written.join(', '), matches: () => true };
  const matchers: ((path: string) => boolean)[] = [];
  for (const glob of written.map((glob) => (glob.startsWith('/') ? glob.slice(1) : glob.startsWith('**/') ? glob : `**/${glob}`))) {
    const compiled = compileGlob(glob, { ignoreCase: true });
    if (!compiled.ok) return { ok: false, problem: `its applyTo glob ${JSON.stringify(glob.slice(0, 80))} cannot be used (${compiled.reason})` };
    matchers.push(compiled.matches);
  }
  return { ok: true, always: false, written: written.join(', '), matches: (path) => matchers.some((matches) => matches(path)) };
}

/** `a, b{c,d}` → `a`, ` b{c,d}`: commas inside braces or a class belong to the glob. Linear, no regular expression. */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export interface FoundInstructionFiles {
  files: InstructionFile[];
  /** What was left out, one line per kind of reason: a count and a few names. */
  notes: string[];
}

/** Names shown in a note; the rest are counted. */
const NOTE_NAMES = 5;

/** The workspace's instructions files, sorted by path; one that cannot be used is noted, never an error. */
export async function findInstructionFiles(
  files: WorkspaceFiles,
  protectedFiles: readonly string[],
  signal: AbortSignal,
  limits: InstructionFileLimits = DEFAULT_INSTRUCTION_FILE_LIMITS,
): Promise<FoundInstructionFiles> {
  const left = new Map<string, string[]>();
  const leaveOut = (reason: string, path: string) => left.set(reason, [...(left.get(reason) ?? []), path]);
  const paths = await instructionPaths(files, signal, limits, leaveOut);
  const found: InstructionFile[] = [];
  for (const [index, path] of paths.entries()) {
    if (index >= limits.maxFiles) {
      leaveOut(`past the first ${limits.maxFiles}`, path);
      continue;
    }
    const read = await readInstructionFile(files, path, protectedFiles, signal, limits);
    if (typeof read === 'string') leaveOut(read, path);
    else found.push(read);
  }
  const notes = [...left].map(([reason, names]) => {
    const shown = names.slice(0, NOTE_NAMES).join(', ');
    const more = names.length > NOTE_NAMES ? ` and ${names.length - NOTE_NAMES} more` : '';
    return `Instructions files: ${names.length} left out, ${reason}: ${shown}${more}.`;
  });
  return { files: found, notes };
}

/** The `*.instructions.md` paths under the folder, sorted, bounded in folders and depth (real folders only). */
async function instructionPaths(
  files: WorkspaceFiles,
  signal: AbortSignal,
  limits: InstructionFileLimits,
  leaveOut: (reason: string, path: string) => void,
): Promise<string[]> {
  const paths: string[] = [];
  const folders: { path: string; depth: number }[] = [{ path: INSTRUCTIONS_FOLDER, depth: 0 }];
  for (let looked = 0; looked < folders.length; looked++) {
    const folder = folders[looked];
    if (looked >= limits.maxFolders) {
      leaveOut(`past the first ${limits.maxFolders} folders`, `${folder.path}/`);
      continue;
    }
    let entries;
    try {
      const stat = await files.stat(folder.path, signal);
      if (stat?.type !== 'directory') continue;
      entries = await files.list(folder.path, signal);
    } catch {
      if (signal.aborted) throw signal.reason;
      continue;
    }
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = `${folder.path}/${entry.name}`;
      if (entry.type === 'directory' && folder.depth < limits.maxDepth) folders.push({ path, depth: folder.depth + 1 });
      else if (entry.name.endsWith(INSTRUCTIONS_SUFFIX)) {
        if (entry.type === 'file') paths.push(path);
        else if (entry.type === 'symlink') leaveOut('a symlink (only plain files are read)', path);
      }
    }
  }
  return paths;
}

/** The file's applyTo, or why it is left out. */
async function readInstructionFile(
  files: WorkspaceFiles,
  path: string,
  protectedFiles: readonly string[],
  signal: AbortSignal,
  limits: InstructionFileLimits,
): Promise<InstructionFile | string> {
  if (protectingPattern(path, protectedFiles) !== undefined) return 'a protected file';
  try {
    const stat = await files.stat(path, signal);
    if (stat?.type !== 'file') return 'not a plain file';
    if ((stat.links ?? 1) > 1) return 'more than one name (a hard link)';
    if (stat.size > limits.maxFileBytes) return `larger than ${limits.maxFileBytes / 1024} KB`;
    const real = await files.realPathInside(path, signal);
    if (real !== path) return 'a symlink (only plain files are read)';
    const value = applyToOf(await files.readText(path, signal));
    if (value === undefined) return 'no applyTo (Copilot applies such a file only when it is attached by hand)';
    const applyTo = readApplyTo(value, limits.maxGlobs);
    if (!applyTo.ok) return 'an applyTo that cannot be used (too long, too many globs, or a glob that cannot be read)';
    return { path, applyTo: applyTo.written, always: applyTo.always, matches: applyTo.matches };
  } catch {
    if (signal.aborted) throw signal.reason;
    return 'unreadable';
  }
}

/** Lines of front matter looked through. */
const MAX_FRONT_MATTER_LINES = 200;

/**
 * The applyTo of a file's front matter: a plain or quoted text (`**\/*.ts` unquoted too, as VS Code takes it,
 * though YAML would read `*` as an alias), a flow list (`['*']`) or a block list (`- '*.ts'` lines). Only this
 * key is read, line by line, with no regular expression that could backtrack over a long line.
 */
export function applyToOf(text: string): string | string[] | undefined {
  const lines = text.replace(/^\uFEFF/, '').split('\n', MAX_FRONT_MATTER_LINES + 2);
  if (lines[0]?.trim() !== '---') return undefined;
  for (let i = 1; i < lines.length && lines[i].trim() !== '---'; i++) {
    const line = lines[i];
    if (!line.startsWith('applyTo')) continue;
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice('applyTo'.length, colon).trim() !== '') continue;
    const value = line.slice(colon + 1).trim();
    if (value.startsWith('[') && value.endsWith(']')) return splitOutsideBraces(value.slice(1, -1)).map(unquoted);
    if (value !== '') return unquoted(value);
    const items: string[] = [];
    for (let next = i + 1; next < lines.length && lines[next].trimStart().startsWith('- '); next++) items.push(unquoted(lines[next].trim().slice(2)));
    return items.length > 0 ? items : undefined;
  }
  return undefined;
}

function unquoted(text: string): string {
  const value = text.trim();
  const quote = value[0];
  return value.length >= 2 && (quote === "'" || quote === '"') && value.endsWith(quote) ? value.slice(1, -1) : value;
}
