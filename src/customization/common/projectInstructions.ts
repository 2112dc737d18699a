/**
 * The project's own instructions for agents: `AGENTS.md` at the workspace root
 * and in the folders the session works in, `.github/copilot-instructions.md`,
 * and Copilot's `.github/instructions/*.instructions.md` whose `applyTo` matches
 * a file the session reads or changes (instructionFiles.ts).
 * They are read through the WorkspaceFiles port, never from a protected file,
 * and bounded in size, because they are workspace content (hostile input) and
 * the model pays for every byte.
 *
 * They reach the model as a `developer` input item, sent once: input items stay
 * in the `previous_response_id` chain, while `instructions` would have to be
 * sent again with every request (the bytes bench measures both).
 */
import type { SentInstructions } from '../../sessionModel/common';

import type { Logger, WorkspaceFiles } from '../../base/common';
import { normalizeWorkspacePath } from '../../tools/common';
import { protectingPattern } from '../../base/common';
import { clipLine, headBytes, utf8Length } from '../../base/common';
import type { Skill, SkillLimits } from './skills';
import { customizationParts } from './customizationPartsLoader';
import type { HomeSkills } from './homeSkills';
import type { InstructionFile } from './instructionFiles';
import { INSTRUCTIONS_FOLDER } from './instructionsFolder';

export const AGENTS_FILE = 'AGENTS.md';
export const COPILOT_INSTRUCTIONS_FILE = '.github/copilot-instructions.md';

export interface InstructionLimits {
  /** Bytes of one file that are sent; the rest is cut with a note. */
  maxFileBytes: number;
  /** Bytes of all files of a session together. */
  maxTotalBytes: number;
  /** Folders whose AGENTS.md is looked for, per call (a hostile model can name many). */
  maxFolders: number;
}

export const DEFAULT_INSTRUCTION_LIMITS: InstructionLimits = { maxFileBytes: 8 * 1024, maxTotalBytes: 24 * 1024, maxFolders: 32 };

/** Folder depth looked at: deeper paths are bounded to their first segments. */
const MAX_DEPTH = 12;

/**
 * The instruction files that apply to `workedPaths` (paths the session read,
 * wrote, listed or ran in; folders end without a slash), in the order they are
 * sent: the root's files first, then nearer folders after farther ones.
 */
export function instructionCandidates(workedFolders: readonly string[], limits: InstructionLimits = DEFAULT_INSTRUCTION_LIMITS): string[] {
  const folders = new Set<string>();
  for (const folder of workedFolders) {
    const normalized = normalizeWorkspacePath(folder);
    if (!normalized.ok || normalized.path === '.') continue;
    const segments = normalized.path.split('/').slice(0, MAX_DEPTH);
    for (let length = 1; length <= segments.length; length++) folders.add(segments.slice(0, length).join('/'));
  }
  const nested = [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b)).slice(0, limits.maxFolders);
  return [AGENTS_FILE, COPILOT_INSTRUCTIONS_FILE, ...nested.map((folder) => `${folder}/${AGENTS_FILE}`)];
}

/** The folders a tool call works in, from its arguments (`path` names a file, `folder` and `cwd` a folder). */
export function foldersOfCall(rawArguments: string): string[] {
  return workedOfCall(rawArguments).folders;
}

/** The folders a tool call works in, and the file it reads or changes (its `path`, workspace-relative). */
export function workedOfCall(rawArguments: string): { folders: string[]; file: string | undefined } {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments.length > 64 * 1024 ? '{}' : rawArguments);
  } catch {
    return { folders: [], file: undefined };
  }
  if (typeof args !== 'object' || args === null) return { folders: [], file: undefined };
  const { path, folder, cwd } = args as Record<string, unknown>;
  const folders: string[] = [];
  if (typeof path === 'string' && path.includes('/')) folders.push(path.slice(0, path.lastIndexOf('/')));
  for (const value of [folder, cwd]) if (typeof value === 'string') folders.push(value);
  const normalized = typeof path === 'string' ? normalizeWorkspacePath(path) : undefined;
  return { folders, file: normalized?.ok && normalized.path !== '.' ? normalized.path : undefined };
}

/**
 * Files a look matches instructions files against, and their length: a hostile model can name many, and long, in one
 * step (64 files of 32 globs and 2,048 characters each against 32 paths of 1,024 characters is about two seconds of re2js at worst; real paths
 * take microseconds). No real file's workspace path is longer.
 */
const MAX_FILES_PER_LOOK = 32;
const MAX_MATCHED_PATH_CHARS = 1024;

/**
 * The workspace's instructions files (none without the folder: the readers are loaded only when there is one);
 * what is left out is logged once per kind.
 */
async function workspaceInstructionFiles(
  files: WorkspaceFiles,
  protectedFiles: readonly string[],
  logger: Logger | undefined,
  signal: AbortSignal,
): Promise<InstructionFile[]> {
  try {
    if ((await files.stat(INSTRUCTIONS_FOLDER, signal))?.type !== 'directory') return [];
  } catch {
    if (signal.aborted) throw signal.reason;
    return [];
  }
  const parts = customizationParts();
  const found = await parts.findInstructionFiles(files, protectedFiles, signal);
  parts.logOnce(logger, found.notes);
  return found.files;
}

/** The instructions files that apply: the always-on ones, and those whose applyTo matches one of `worked`. */
function applying(instructionFiles: readonly InstructionFile[], worked: readonly string[]): InstructionFile[] {
  const paths = [...new Set(worked.filter((path) => path.length <= MAX_MATCHED_PATH_CHARS))].slice(0, MAX_FILES_PER_LOOK);
  return instructionFiles.filter((file) => file.always || paths.some((path) => file.matches(path)));
}

export interface FoundInstructions {
  /** The item's text, or undefined when no new file was found. */
  text: string | undefined;
  /** Files read (workspace-relative), in order. */
  used: string[];
  /** Bytes sent of the files (for the session-wide bound). */
  bytes: number;
}

/**
 * Reads the candidates not in `skip` (already sent or already looked at) that
 * exist and are not protected, within what is left of the byte budget.
 * A file that cannot be read is left out: instructions are a help, not a
 * condition for the session to run.
 */
export async function readInstructions(
  files: WorkspaceFiles,
  candidates: readonly string[],
  skip: ReadonlySet<string>,
  protectedFiles: readonly string[],
  usedBytes: number,
  signal: AbortSignal,
  limits: InstructionLimits = DEFAULT_INSTRUCTION_LIMITS,
  /** The instructions files among the candidates, by path: their applyTo heads them, their front matter is not sent. */
  instructionFiles: ReadonlyMap<string, InstructionFile> = new Map(),
): Promise<FoundInstructions> {
  const sections: string[] = [];
  const used: string[] = [];
  let bytes = 0;
  for (const path of candidates) {
    const size = skip.has(path) ? undefined : await readableSize(files, path, protectedFiles, signal);
    if (size === undefined) continue;
    const room = Math.min(limits.maxFileBytes, limits.maxTotalBytes - usedBytes - bytes);
    if (room <= 0) break;
    // Not read whole only to be cut: a file this large is no set of instructions.
    if (size > MAX_READ_BYTES) continue;
    let content: string;
    try {
      content = (await files.readText(path, signal)).trim();
      if (instructionFiles.has(path)) content = withoutFrontMatter(content);
    } catch {
      if (signal.aborted) throw signal.reason;
      continue;
    }
    if (content === '') continue;
    const kept = headBytes(content, room);
    bytes += utf8Length(kept);
    used.push(path);
    const cut = kept.length < content.length ? `\n(cut: ${path} has ${utf8Length(content)} bytes; only the first ${utf8Length(kept)} are shown)` : '';
    sections.push(`## ${path} (${coverage(path, instructionFiles.get(path))})\n${kept}${cut}`);
  }
  if (sections.length === 0) return { text: undefined, used, bytes };
  const header = 'Project instructions from the workspace. Follow them; where they disagree, the file of the nearer folder wins.';
  return { text: `${header}\n\n${sections.join('\n\n')}`, used, bytes };
}

function coverage(path: string, instructionFile: InstructionFile | undefined): string {
  if (instructionFile) return `applies to files matching ${clipLine(instructionFile.applyTo, 200)}`;
  if (path === AGENTS_FILE || path === COPILOT_INSTRUCTIONS_FILE) return 'the whole workspace';
  return `applies in ${path.slice(0, path.length - AGENTS_FILE.length)}`;
}

/** The text after a front matter block (`---` lines), found without a regular expression. */
function withoutFrontMatter(text: string): string {
  if (!text.startsWith('---')) return text;
  const end = text.indexOf('\n---', 3);
  if (end < 0) return text;
  const lineEnd = text.indexOf('\n', end + 4);
  return lineEnd < 0 ? '' : text.slice(lineEnd + 1).trim();
}

/** Files larger than this are skipped, not read. */
const MAX_READ_BYTES = 1024 * 1024;

/**
 * Folders of other people's code: a dependency's AGENTS.md speaks for that
 * package (or for whoever published it), not for this project, even where the
 * folder is committed and no ignore rule names it (a Go or PHP `vendor/`).
 */
const DEPENDENCY_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.pnpm-store',
  '.yarn',
  'vendor',
  'third_party',
  'third-party',
  'site-packages',
  'dist-packages',
  '__pypackages__',
  '.venv',
  'venv',
  '.tox',
  'Pods',
  'Carthage',
  'elm-stuff',
  '.git',
  '.hg',
  '.svn',
]);

/**
 * Whether the folder holding `path` is one whose instructions do not count: a
 * dependency or VCS folder at any depth, or a folder the host's ignore rules
 * (.gitignore, files.exclude) hide. The root's own files always count, even
 * when ignored (a personal AGENTS.md is often kept out of git).
 */
async function inIgnoredFolder(files: WorkspaceFiles, path: string, signal: AbortSignal): Promise<boolean> {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return false;
  const folder = path.slice(0, slash);
  if (folder.split('/').some((segment) => DEPENDENCY_FOLDERS.has(segment))) return true;
  // The project's own Copilot files count even in an ignored .github (a personal setup kept out of git).
  return path !== COPILOT_INSTRUCTIONS_FILE && !path.startsWith(`${INSTRUCTIONS_FOLDER}/`) && (await files.isIgnored(folder, signal));
}

/**
 * The size of a regular file inside the workspace that no protected pattern
 * covers and that is in no ignored or dependency folder (as written or through
 * a symlink); undefined for anything else.
 */
async function readableSize(files: WorkspaceFiles, path: string, protectedFiles: readonly string[], signal: AbortSignal): Promise<number | undefined> {
  if (protectingPattern(path, protectedFiles) !== undefined) return undefined;
  try {
    if (await inIgnoredFolder(files, path, signal)) return undefined;
    const stat = await files.stat(path, signal);
    if (stat?.type !== 'file') return undefined;
    const real = await files.realPathInside(path, signal);
    if (real === undefined || protectingPattern(real, protectedFiles) !== undefined) return undefined;
    return real === path || !(await inIgnoredFolder(files, real, signal)) ? stat.size : undefined;
  } catch {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}

export interface InstructionTrackerOptions {
  files: WorkspaceFiles;
  protectedFiles: readonly string[];
  limits?: InstructionLimits;
  /** Whether AGENTS.md and copilot-instructions.md files are sent (default true; off: only the skills are listed). */
  agentsMd?: boolean;
  /** Whether the workspace's skills are listed with the root's files (skills.ts). */
  skills?: boolean;
  skillLimits?: SkillLimits;
  /** The user's home skills, found with the workspace's (listed after them; a name the workspace has is its). */
  homeSkills?: HomeSkills;
  /** Where a skill left out (malformed, too large, a symlink out) is noted. */
  logger?: Logger;
}

/**
 * Finds, per request, the instruction files that now apply and were not sent
 * yet: the root's before the first request, a folder's once a call works in it.
 * One per run of the engine; what it has looked at is remembered for the run.
 */
export class InstructionTracker {
  private readonly lookedAt = new Set<string>();
  private scanned = 0;
  /** The workspace's instructions files, found at the run's first look. */
  private instructionFiles: InstructionFile[] | undefined;
  /** What the session had sent when last seen: set, then gone, means a new chain. */
  private lastSent: SentInstructions | undefined;

  private readonly files: WorkspaceFiles;
  private readonly protectedFiles: readonly string[];
  private readonly limits: InstructionLimits;

  constructor(private readonly options: InstructionTrackerOptions) {
    this.files = options.files;
    this.protectedFiles = options.protectedFiles;
    this.limits = options.limits ?? DEFAULT_INSTRUCTION_LIMITS;
  }

  /** The text of the item to send next, if a new file applies; records it in `session.projectInstructions`, with the skills read since. */
  async next(
    session: { transcript: readonly { type?: string; name?: string; arguments?: string }[]; projectInstructions?: SentInstructions },
    signal: AbortSignal,
  ): Promise<string | undefined> {
    if (this.lastSent !== undefined && session.projectInstructions === undefined) {
      // A compaction started a new chain without the files sent before: look again, from the start.
      this.lookedAt.clear();
      this.scanned = 0;
    }
    this.lastSent = session.projectInstructions;
    const folders: string[] = [];
    const workedFiles: string[] = [];
    const skillsRead: string[] = [];
    for (; this.scanned < session.transcript.length; this.scanned++) {
      const item = session.transcript[this.scanned];
      if (item.type !== 'function_call' || typeof item.arguments !== 'string') continue;
      const worked = workedOfCall(item.arguments);
      folders.push(...worked.folders);
      if (worked.file !== undefined) workedFiles.push(worked.file);
      const skill = this.skillReadBy(item.name, item.arguments, worked.file);
      if (skill !== undefined) skillsRead.push(skill);
    }
    const sent = this.recordSkillsRead(session, skillsRead);
    const agentsMd = this.options.agentsMd !== false;
    // Found once per run; matched against the files worked on since the last look (the always-on ones at the first).
    this.instructionFiles ??= agentsMd ? await workspaceInstructionFiles(this.files, this.protectedFiles, this.options.logger, signal) : [];
    const matched = applying(
      this.instructionFiles.filter((file) => !this.lookedAt.has(file.path)),
      workedFiles,
    );
    const [root, copilot, ...nested] = instructionCandidates(folders, this.limits);
    const candidates = [root, copilot, ...matched.map((file) => file.path), ...nested].filter((path) => !this.lookedAt.has(path));
    if (candidates.length === 0) return undefined;
    // Skills are listed once per chain, with the root's files (the first look).
    const skills = this.lookedAt.size === 0 ? await this.skillListing(new Set([...sent.files, ...(sent.skills ?? [])]), signal) : undefined;
    const byPath = new Map(matched.map((file) => [file.path, file]));
    const found = !agentsMd
      ? { text: undefined, used: [], bytes: 0 }
      : await readInstructions(this.files, candidates, new Set(sent.files), this.protectedFiles, sent.bytes, signal, this.limits, byPath);
    for (const path of candidates) this.lookedAt.add(path);
    const text = [found.text, skills?.text].filter((part) => part !== undefined).join('\n\n');
    if (text === '') return undefined;
    const listed = skills?.listed.map((skill) => skill.path) ?? [];
    session.projectInstructions = {
      ...sent,
      files: [...sent.files, ...found.used],
      bytes: sent.bytes + found.bytes,
      ...(listed.length > 0 ? { skills: [...(sent.skills ?? []), ...listed] } : {}),
    };
    this.lastSent = session.projectInstructions;
    return text;
  }

  /** The SKILL.md a call reads: a read_file of a path (checked against the listed ones later), or read_skill of a home skill's name. */
  private skillReadBy(tool: string | undefined, rawArguments: string, file: string | undefined): string | undefined {
    if (tool === 'read_file') return file;
    if (tool !== 'read_skill' || !this.options.homeSkills) return undefined;
    let name: unknown;
    try {
      name = (JSON.parse(rawArguments.length > 4096 ? '{}' : rawArguments) as Record<string, unknown> | null)?.name;
    } catch {
      return undefined;
    }
    const skill = this.options.homeSkills.skills.find((candidate) => candidate.name === name);
    return skill && `~/${skill.path}`;
  }

  /** The session's instructions with the listed skills it read now added to its files (the summary names the skills read, not all listed). */
  private recordSkillsRead(session: { projectInstructions?: SentInstructions }, read: readonly string[]): SentInstructions {
    const sent = session.projectInstructions ?? { files: [], bytes: 0 };
    const listed = new Set(sent.skills ?? []);
    const added = [...new Set(read)].filter((path) => listed.has(path) && !sent.files.includes(path));
    if (added.length === 0) return sent;
    session.projectInstructions = { ...sent, files: [...sent.files, ...added] };
    this.lastSent = session.projectInstructions;
    return session.projectInstructions;
  }

  private async skillListing(sent: ReadonlySet<string>, signal: AbortSignal): Promise<{ text: string; listed: Skill[] } | undefined> {
    if (this.options.skills !== true) return undefined;
    const { files, protectedFiles, logger, skillLimits: limits, homeSkills } = this.options;
    const workspace = await customizationParts().newSkillListing({ files, protectedFiles, sent, logger, limits }, signal);
    if (!homeSkills) return workspace;
    await homeSkills.find(signal);
    const taken = new Set([...(workspace?.listed ?? []).map((skill) => skill.name)]);
    const home = homeSkills.listing(taken);
    // Home skills are named `~/…` in the session's files, and listed again in a later chain (their list is short).
    const homeListed = (home?.listed ?? []).map((skill) => ({ ...skill, path: `~/${skill.path}` })).filter((skill) => !sent.has(skill.path));
    if (!home || homeListed.length === 0) return workspace;
    return { text: [workspace?.text, home.text].filter((part) => part !== undefined).join('\n\n'), listed: [...(workspace?.listed ?? []), ...homeListed] };
  }
}

/**
 * The instructions for one `@gateway` chat request: the root's files and those
 * of the attached files' folders (`labels` as the prompt names attachments,
 * `src/a.ts` or `src/a.ts:10-20`).
 */
export async function instructionsForChat(
  files: WorkspaceFiles,
  labels: readonly string[],
  protectedFiles: readonly string[],
  signal: AbortSignal,
  logger?: Logger,
): Promise<FoundInstructions> {
  const paths = labels.map((label) => label.replace(/:\d+-\d+$/, ''));
  const folders = paths.filter((path) => path.includes('/')).map((path) => path.slice(0, path.lastIndexOf('/')));
  const matched = applying(await workspaceInstructionFiles(files, protectedFiles, logger, signal), paths);
  const [root, copilot, ...nested] = instructionCandidates(folders);
  const candidates = [root, copilot, ...matched.map((file) => file.path), ...nested];
  return readInstructions(files, candidates, new Set(), protectedFiles, 0, signal, undefined, new Map(matched.map((file) => [file.path, file])));
}
