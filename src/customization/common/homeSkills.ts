/**
 * Skills in the user's home folder (~/.copilot/skills, ~/.claude/skills,
 * ~/.agents/skills, ~/.codex/skills: where Copilot, Claude Code and Codex keep
 * personal skills). The agent's file tools reach only the workspace, and must
 * stay so; a home skill is therefore found when the run starts (bounded, no
 * symlink anywhere on the way, no protected file), listed by name and
 * description, and its SKILL.md is shown by `read_skill`, which opens only
 * the files found then, by the skill's name: the model names no path, so it
 * cannot make it read anything else. A skill's other files and scripts stay
 * out of reach (a workspace skill has them).
 */
import type { Logger, WorkspaceFiles } from '../../base/common';
import { headBytes } from '../../base/common';
import { type AgentTool, type PreparedCall } from '../../tools/common';
import { DEFAULT_SKILL_LIMITS, findSkills, fitListing, shortenedNote, type Skill } from './skills';
import { groupedNotes, logOnce } from './logOnce';

/** Home folders of personal skills, in order of precedence. */
export const HOME_SKILL_FOLDERS: readonly string[] = ['.copilot/skills', '.claude/skills', '.agents/skills', '.codex/skills'];
export const READ_SKILL_TOOL = 'read_skill';
/** Bytes of a SKILL.md shown. */
const MAX_BODY_BYTES = 64 * 1024;

export class HomeSkills {
  private found: Skill[] = [];

  /** `files`: the home folder's files (paths relative to it, symlinks out of it refused). */
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly protectedFiles: readonly string[],
    private readonly logger?: Logger,
  ) {}

  /** Looks once per run; what is found is what read_skill may open. */
  async find(signal: AbortSignal): Promise<readonly Skill[]> {
    const result = await findSkills(this.files, this.protectedFiles, signal, undefined, { folders: HOME_SKILL_FOLDERS, noSymlinks: true });
    logOnce(
      this.logger,
      groupedNotes(
        { one: 'Home skill', many: 'Home skills' },
        result.notes.map((note) => `~/${note}`),
      ),
    );
    this.found = result.skills;
    return this.found;
  }

  get skills(): readonly Skill[] {
    return this.found;
  }

  /** The listing for the model of the skills whose names the workspace's skills do not take. */
  listing(taken: ReadonlySet<string>): { text: string; listed: Skill[] } | undefined {
    const listed = this.found.filter((skill) => !taken.has(skill.name));
    if (listed.length === 0) return undefined;
    const header = `Skills in the user's home folder (name: when to use it). When a task matches one, call ${READ_SKILL_TOOL} with its name before you start and follow it.`;
    const fitted = fitListing(header, listed, DEFAULT_SKILL_LIMITS.maxListingBytes);
    logOnce(this.logger, shortenedNote(fitted, listed.length, DEFAULT_SKILL_LIMITS.maxListingBytes));
    return { text: fitted.text, listed: listed.slice(0, fitted.count) };
  }

  /** read_skill: a found skill's SKILL.md, by name; nothing else. */
  tool(): AgentTool {
    return {
      name: READ_SKILL_TOOL,
      description: "Read the SKILL.md of a skill listed from the user's home folder.",
      kind: 'read',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      prepare: (rawArgs, _ctx, signal) => Promise.resolve(this.prepare(rawArgs, signal ?? new AbortController().signal)),
    };
  }

  private prepare(rawArgs: unknown, signal: AbortSignal): PreparedCall {
    const name = nameOf(rawArgs);
    const skill = this.found.find((candidate) => candidate.name === name);
    if (skill === undefined) {
      const message = `There is no home skill named ${JSON.stringify(String(name ?? '')).slice(0, 80)}; the names are: ${this.found.map((s) => s.name).join(', ') || 'none'}.`;
      return { summary: `${READ_SKILL_TOOL} (unknown skill)`, refusal: message, execute: () => Promise.resolve({ ok: false, output: message }) };
    }
    return { summary: `Read the home skill ${skill.name}`, execute: () => this.read(skill, signal) };
  }

  /** Read again through the port, checked again: the file may have become a symlink since the run started. */
  private async read(skill: Skill, signal: AbortSignal): Promise<{ ok: boolean; output: string }> {
    try {
      const real = await this.files.realPathInside(skill.path, signal);
      const stat = await this.files.stat(skill.path, signal);
      if (real !== skill.path || stat?.type !== 'file' || (stat.links ?? 1) > 1)
        return { ok: false, output: `~/${skill.path} changed since the session started (it is no plain file now); it is not read.` };
      return { ok: true, output: headBytes(await this.files.readText(skill.path, signal), MAX_BODY_BYTES) };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { ok: false, output: `~/${skill.path} could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

function nameOf(rawArgs: unknown): unknown {
  let args = rawArgs;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args.length > 4096 ? '{}' : args);
    } catch {
      return undefined;
    }
  }
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>).name : undefined;
}
