/**
 * The workspace's skills (the open SKILL.md format: a folder with a SKILL.md
 * whose front matter names the skill and says when to use it, and optional
 * scripts and resources), from the folders the other agents read.
 *
 * Only the name and description of each reach the model, in a bounded list:
 * it reads a skill's body and files with read_file when a task calls for it,
 * and runs a script a skill names with run_command, under the same approval
 * and sandbox as any other call. Skills are read through the WorkspaceFiles
 * port, so a symlink out of the workspace and a protected file are never read.
 * The user's home folders (~/.claude/skills …) are not read: the agent's
 * file tools reach only the workspace, and a skill it could not open is
 * worth less than keeping that boundary (see the report of issue 26).
 */
import type { Logger, WorkspaceFiles } from '../../base/common';
import { headBytes, utf8Length } from '../../base/common';
import { protectingPattern } from '../../base/common';
import { parseSkillFrontMatter } from './skillFrontMatter';
import { groupedNotes, logOnce } from './logOnce';

/** Where Copilot, Claude Code, Codex (both its old and new folder) and Cline keep a repository's skills, in order of precedence. */
export const SKILL_FOLDERS: readonly string[] = ['.github/skills', '.claude/skills', '.agents/skills', '.codex/skills', '.cline/skills'];
export const SKILL_FILE = 'SKILL.md';

export interface SkillLimits {
  /** Skills looked at across all folders (a repository can hold hundreds). */
  maxSkills: number;
  /** A SKILL.md larger than this is skipped with a note: its front matter is read from the file's head only. */
  maxFileBytes: number;
  /** Bytes of the list sent to the model: every name is listed, descriptions are shortened to fit. */
  maxListingBytes: number;
}

export const DEFAULT_SKILL_LIMITS: SkillLimits = { maxSkills: 64, maxFileBytes: 256 * 1024, maxListingBytes: 8 * 1024 };

export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md, workspace-relative. */
  path: string;
}

export interface FoundSkills {
  skills: Skill[];
  /** Whether the folders hold more skills than were read (past `maxSkills`). */
  more?: boolean;
  /** Why a SKILL.md found was left out, one line each, for the log. */
  notes: string[];
}

/** Where skills are looked for: other folders than the workspace's (the home folder's), and whether a symlink anywhere is refused. */
export interface SkillSearch {
  folders?: readonly string[];
  noSymlinks?: boolean;
}

/** The skills of the workspace's skill folders; a folder or file that cannot be read is a note, never an error. */
export async function findSkills(
  files: WorkspaceFiles,
  protectedFiles: readonly string[],
  signal: AbortSignal,
  limits: SkillLimits = DEFAULT_SKILL_LIMITS,
  where: SkillSearch = {},
): Promise<FoundSkills> {
  const found: FoundSkills = { skills: [], notes: [] };
  let looked = 0;
  for (const folder of where.folders ?? SKILL_FOLDERS) {
    const entries = await skillFiles(files, folder, signal);
    for (const link of entries.links) found.notes.push(`${link}: skipped, it is a symlinked folder (only real folders are read)`);
    for (const path of entries.paths) {
      if (looked++ >= limits.maxSkills) {
        found.notes.push(`${path}: skipped, past the first ${limits.maxSkills} skills`);
        found.more = true;
        return found;
      }
      const read = await readSkill(files, path, protectedFiles, signal, { ...limits, noSymlinks: where.noSymlinks === true });
      // A folder without a SKILL.md is a skill's helper or a work in progress, not a mistake to report.
      if (read === undefined) continue;
      if (typeof read === 'string') found.notes.push(`${path}: skipped, ${read}`);
      else if (found.skills.some((skill) => skill.name === read.name)) found.notes.push(`${path}: skipped, a skill named "${read.name}" came first`);
      else found.skills.push(read);
    }
  }
  return found;
}

/** The SKILL.md paths of one folder's skill folders (real folders only: a symlinked skill could lead anywhere), and its symlinked ones. */
async function skillFiles(files: WorkspaceFiles, folder: string, signal: AbortSignal): Promise<{ paths: string[]; links: string[] }> {
  try {
    const stat = await files.stat(folder, signal);
    if (stat?.type !== 'directory') return { paths: [], links: [] };
    const entries = await files.list(folder, signal);
    const named = (type: string) =>
      entries
        .filter((entry) => entry.type === type)
        .map((entry) => `${folder}/${entry.name}`)
        .sort();
    return { paths: named('directory').map((path) => `${path}/${SKILL_FILE}`), links: named('symlink') };
  } catch {
    if (signal.aborted) throw signal.reason;
    return { paths: [], links: [] };
  }
}

/** The skill a SKILL.md describes, why it is left out, or undefined when there is none. */
async function readSkill(
  files: WorkspaceFiles,
  path: string,
  protectedFiles: readonly string[],
  signal: AbortSignal,
  limits: SkillLimits & { noSymlinks: boolean },
): Promise<Skill | string | undefined> {
  if (protectingPattern(path, protectedFiles) !== undefined) return 'it is a protected file';
  try {
    const stat = await files.stat(path, signal);
    if (stat === undefined) return undefined;
    if (stat.type !== 'file') return 'it is not a file';
    if ((stat.links ?? 1) > 1) return 'it has more than one name (a hard link)';
    if (stat.size > limits.maxFileBytes) return `it has ${stat.size} bytes (more than ${limits.maxFileBytes})`;
    const real = await files.realPathInside(path, signal);
    if (real === undefined) return 'it leads outside the workspace';
    if (limits.noSymlinks && real !== path) return 'it is reached through a symlink';
    if (protectingPattern(real, protectedFiles) !== undefined) return 'it leads to a protected file';
    const parsed = parseSkillFrontMatter(await files.readText(path, signal));
    return parsed.ok ? { name: parsed.name, description: parsed.description, path } : parsed.problem;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return `it could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** A listing that fits its bound: every name, descriptions cut to a length all of them share (`shortenedTo`), if need be. */
export interface FittedListing {
  text: string;
  /** The items listed, in order: all of them unless even their names and paths do not fit. */
  count: number;
  /** The characters each description was cut to, when one was. */
  shortenedTo?: number;
}

/**
 * `header`, then one line per item, within `maxBytes`: the whole descriptions when they fit, else every
 * description cut to the longest length at which all lines fit (found by halving), else as many bare
 * names as fit and a count of the rest. Names are never dropped while they fit: a skill not listed is
 * a skill the model never uses.
 */
export function fitListing(header: string, items: readonly { name: string; description: string; after?: string }[], maxBytes: number): FittedListing {
  const line = (item: (typeof items)[number], room: number) => {
    const cut = item.description.length > room;
    const description = room <= 0 ? '' : `: ${cut ? `${item.description.slice(0, room).trimEnd()}…` : item.description}`;
    return `- ${item.name}${description}${item.after ?? ''}`;
  };
  const bytesAt = (room: number) => items.reduce((sum, item) => sum + utf8Length(line(item, room)) + 1, utf8Length(header));
  const longest = Math.max(0, ...items.map((item) => item.description.length));
  if (bytesAt(longest) <= maxBytes) return { text: [header, ...items.map((item) => line(item, longest))].join('\n'), count: items.length };
  let low = 0;
  let high = longest;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (bytesAt(middle) <= maxBytes) low = middle;
    else high = middle - 1;
  }
  if (bytesAt(low) <= maxBytes) return { text: [header, ...items.map((item) => line(item, low))].join('\n'), count: items.length, shortenedTo: low };
  // Not even the names fit (hostile folder names): as many as fit, the rest counted.
  const lines: string[] = [];
  let bytes = utf8Length(header);
  for (const item of items) {
    const bare = headBytes(line(item, 0), maxBytes);
    if (bytes + utf8Length(bare) + 1 > maxBytes) break;
    bytes += utf8Length(bare) + 1;
    lines.push(bare);
  }
  return { text: [header, ...lines].join('\n'), count: lines.length, shortenedTo: 0 };
}

/** The line for the log when descriptions were cut to list every skill. */
export function shortenedNote(fitted: FittedListing, total: number, maxBytes: number): string[] {
  if (fitted.shortenedTo === undefined) return [];
  const listed = fitted.count === total ? `all ${total} skills are listed` : `${fitted.count} of ${total} skills are listed`;
  return [
    `Skills: descriptions shortened to ${fitted.shortenedTo} characters so that ${listed} within ${maxBytes / 1024} KB (each SKILL.md has the whole of it).`,
  ];
}

/** The list for the model: one line per skill, every name within the byte bound; skills left out (only past it) are counted. */
export function skillListing(
  skills: readonly Skill[],
  limits: SkillLimits = DEFAULT_SKILL_LIMITS,
  /** The folders hold more skills than were read: the model is told where to find them. */
  moreInFolders = false,
): { text: string; listed: Skill[]; notes: string[] } | undefined {
  if (skills.length === 0) return undefined;
  const header =
    'Skills in this workspace (name: when to use it, then its SKILL.md). When a task matches a skill, read its SKILL.md with read_file ' +
    'before you start and follow it; read the other files of its folder only when it points to them. Run a script it names with run_command.';
  const items = skills.map((skill) => ({ name: skill.name, description: skill.description, after: ` (${skill.path})` }));
  const fitted = fitListing(header, items, limits.maxListingBytes);
  const left = skills.length - fitted.count;
  const more =
    left > 0
      ? `\n(${left} more skills are not listed: look in ${SKILL_FOLDERS.join(', ')})`
      : moreInFolders
        ? `\n(More skills than the ${limits.maxSkills} listed are in ${SKILL_FOLDERS.join(', ')}: list a folder with list_files and read a SKILL.md with read_file.)`
        : '';
  return { text: `${fitted.text}${more}`, listed: skills.slice(0, fitted.count), notes: shortenedNote(fitted, skills.length, limits.maxListingBytes) };
}

/** The listing of the skills not sent yet (`sent`: files already listed in this chain), with each left-out file noted in the log. */
export async function newSkillListing(
  input: { files: WorkspaceFiles; protectedFiles: readonly string[]; sent: ReadonlySet<string>; logger?: Logger; limits?: SkillLimits },
  signal: AbortSignal,
): Promise<{ text: string; listed: Skill[] } | undefined> {
  const found = await findSkills(input.files, input.protectedFiles, signal, input.limits);
  logOnce(input.logger, groupedNotes({ one: 'Skill', many: 'Skills' }, found.notes));
  const listing = skillListing(
    found.skills.filter((skill) => !input.sent.has(skill.path)),
    input.limits,
    found.more === true,
  );
  logOnce(input.logger, listing?.notes ?? []);
  return listing;
}
