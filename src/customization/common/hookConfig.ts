/**
 * Hook configurations as the other agents write them, read into one shape:
 * - Claude Code: `hooks` in `.claude/settings.json` (and `.claude/settings.local.json`):
 *   `{ "hooks": { "PostToolUse": [{ "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "…", "timeout": 10 }] }] } }`;
 * - Codex: `.codex/hooks.json`, the same shape as Claude Code's `hooks` (Codex's hook runner takes Claude Code's wire format);
 * - Copilot (cloud agent and CLI): `.github/hooks/*.json`:
 *   `{ "version": 1, "hooks": { "postToolUse": [{ "type": "command", "bash": "…", "cwd": "…", "env": { "A": "1" }, "timeoutSec": 10 }] } }`.
 * A file is workspace content, so hostile: every count, length and time is
 * bounded here, and what cannot be used is a note for the log, never an error.
 */
import { relativeFolder } from '../../terminal/common';

/**
 * `userPromptSubmitted`: when the user submits a prompt. Copilot's output is not read (Copilot reads none); Claude Code's
 * and Codex's `UserPromptSubmit` may add context or block the prompt.
 */
export type HookEvent = 'preToolUse' | 'postToolUse' | 'sessionStart' | 'stop' | 'sessionEnd' | 'userPromptSubmitted';
export type HookFormat = 'claude' | 'codex' | 'copilot';

export interface HookCommand {
  event: HookEvent;
  format: HookFormat;
  /** Claude's matcher of tool names (`Edit|Write`, `mcp__.*`); undefined: every tool. */
  matcher?: string;
  /** The shell line, as the file has it: for a VS Code hook, the one VS Code runs on this system (its override, if any). */
  command: string;
  /**
   * The key of a VS Code hook's line when it is not `command`: the override VS Code runs on this system instead
   * (`linux`, `osx`, `windows`, or `bash` / `powershell`, which VS Code reads as those), shown in the approval.
   */
  lineKey?: string;
  /** Workspace-relative folder it starts in ('.' by default). */
  cwd: string;
  timeoutMs: number;
  /** Copilot's `env`: variables its shell exports before the line (envExports), shown in and covered by its approval. */
  env?: Readonly<Record<string, string>>;
  /** The file it came from: workspace-relative, or `~/…` for the user's home folder. */
  source: string;
}

export interface HookLimits {
  maxHooks: number;
  maxCommandChars: number;
  maxMatcherChars: number;
  /** The longest time a hook may run, whatever the file asks. */
  maxTimeoutMs: number;
}

export const DEFAULT_HOOK_LIMITS: HookLimits = { maxHooks: 32, maxCommandChars: 2000, maxMatcherChars: 200, maxTimeoutMs: 30_000 };

/**
 * The system the hooks run on, as Node names it (`process.platform`: `linux`, `darwin`, `win32` …), read by the
 * node side and handed down: a VS Code hook's line depends on it. VS Code takes any system but macOS and Windows as Linux.
 */
export type HookPlatform = string;

/** How a Copilot or VS Code hook file is read: on which system its hooks run, within which bounds. */
export interface HookReadOptions {
  platform: HookPlatform;
  limits?: HookLimits;
}

export interface ParsedHooks {
  hooks: HookCommand[];
  /** Why a part of the file was left out, one line each. */
  notes: string[];
}

const CLAUDE_EVENTS: Readonly<Record<string, HookEvent>> = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  SessionStart: 'sessionStart',
  Stop: 'stop',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
};

const COPILOT_EVENTS: Readonly<Record<string, HookEvent>> = {
  preToolUse: 'preToolUse',
  postToolUse: 'postToolUse',
  sessionStart: 'sessionStart',
  sessionEnd: 'sessionEnd',
  userPromptSubmitted: 'userPromptSubmitted',
};

/** The hooks of a Claude Code settings file (`source`: its path, for notes); a file without `hooks` has none. */
export function parseClaudeHooks(text: string, source: string, limits: HookLimits = DEFAULT_HOOK_LIMITS): ParsedHooks {
  return parseEventGroups(text, { source, limits, format: 'claude' });
}

/** The hooks of a Codex `hooks.json` (Claude Code's shape: events, matcher groups, command hooks with `timeout` in seconds). */
export function parseCodexHooks(text: string, source: string, limits: HookLimits = DEFAULT_HOOK_LIMITS): ParsedHooks {
  return parseEventGroups(text, { source, limits, format: 'codex' });
}

function parseEventGroups(text: string, input: { source: string; limits: HookLimits; format: 'claude' | 'codex' }): ParsedHooks {
  const { source, limits, format } = input;
  const parsed: ParsedHooks = { hooks: [], notes: [] };
  const root = jsonObject(text, source, parsed.notes);
  if (root === undefined || root.hooks === undefined) return parsed;
  if (!isRecord(root.hooks)) return note(parsed, `${source}: "hooks" is not an object; ignored`);
  for (const [name, groups] of Object.entries(root.hooks)) {
    const event = Object.hasOwn(CLAUDE_EVENTS, name) ? CLAUDE_EVENTS[name] : undefined;
    if (event === undefined) {
      parsed.notes.push(`${source}: the ${JSON.stringify(name).slice(0, 60)} event is not supported here; its hooks are ignored`);
      continue;
    }
    if (!Array.isArray(groups)) {
      parsed.notes.push(`${source}: ${name} is not a list; ignored`);
      continue;
    }
    for (const group of groups) addClaudeGroup(parsed, { event, name, group, source, limits, format });
  }
  return parsed;
}

interface RawGroup {
  event: HookEvent;
  name: string;
  group: unknown;
  source: string;
  limits: HookLimits;
  format: 'claude' | 'codex';
}

function addClaudeGroup(parsed: ParsedHooks, input: RawGroup): void {
  const { event, name, group, source, limits, format } = input;
  if (!isRecord(group) || !Array.isArray(group.hooks)) return void parsed.notes.push(`${source}: an entry of ${name} has no "hooks" list; ignored`);
  const matcher = matcherOf(group.matcher, limits);
  if (typeof matcher === 'object') return void parsed.notes.push(`${source}: a matcher of ${name} ${matcher.problem}; its hooks are ignored`);
  for (const hook of group.hooks) {
    if (!isRecord(hook) || hook.type !== 'command') {
      parsed.notes.push(`${source}: a hook of ${name} is not of type "command"; ignored`);
      continue;
    }
    // Codex reads `timeoutSec` too, as another name of `timeout`.
    const timeout = hook.timeout ?? (format === 'codex' ? hook.timeoutSec : undefined);
    addCommand(parsed, { event, format, matcher, command: hook.command, cwd: '.', timeout, source }, limits);
  }
}

/** The hooks of a Copilot hooks file (`.github/hooks/*.json`), or of VS Code's own there (no `version`), for `options.platform`. */
export function parseCopilotHooks(text: string, source: string, options: HookReadOptions): ParsedHooks {
  const { platform, limits = DEFAULT_HOOK_LIMITS } = options;
  const parsed: ParsedHooks = { hooks: [], notes: [] };
  const root = jsonObject(text, source, parsed.notes);
  if (root === undefined) return parsed;
  if (root.version === undefined && isRecord(root.hooks)) return parseVsCodeHooks(root.hooks, { source, limits, platform });
  if (root.version !== 1)
    return note(parsed, `${source}: only "version": 1 hook files are read (it has ${JSON.stringify(root.version ?? null).slice(0, 20)}); ignored`);
  if (!isRecord(root.hooks)) return note(parsed, `${source}: "hooks" is not an object; ignored`);
  for (const [name, entries] of Object.entries(root.hooks)) {
    const event = Object.hasOwn(COPILOT_EVENTS, name) ? COPILOT_EVENTS[name] : undefined;
    if (event === undefined || !Array.isArray(entries)) {
      parsed.notes.push(`${source}: the ${JSON.stringify(name).slice(0, 60)} event is not supported here (or not a list); ignored`);
      continue;
    }
    // The line is `bash`, or `command` as the current Copilot hook files write it (github/awesome-copilot's hooks).
    for (const entry of entries) {
      const line = isRecord(entry) && entry.type === 'command' ? firstOf(entry, ['bash', 'command'], (value) => typeof value === 'string') : undefined;
      if (typeof line !== 'string') {
        parsed.notes.push(`${source}: a hook of ${name} is not a "command" with a "bash" or "command" line; ignored`);
        continue;
      }
      addCommandEntry(parsed, { entry, name, event, format: 'copilot', line: { command: line }, timeoutKeys: ['timeoutSec'], source, limits });
    }
  }
  return parsed;
}

/**
 * VS Code's own hook files in `.github/hooks` (no `version`): Claude Code's event names (or Copilot's lower-case ones, which
 * VS Code converts), each entry a command hook (`timeout` or `timeoutSec` in seconds; `cwd`; `env`) or a Claude Code
 * matcher group. VS Code's hooks speak Claude Code's protocol (`hookEventName`, `tool_name`, `hookSpecificOutput`), so
 * they are read as Claude hooks. The line is VS Code's for the system the hooks run on (vsCodeLine): its per-system
 * override (`linux`, `osx`, `windows`) when there is one, else `command`. Real files: Azure/azure-sdk-for-python's and
 * azure-sdk-for-net's `.github/hooks/hooks.json` (issue 38).
 */
function parseVsCodeHooks(hooks: Record<string, unknown>, input: { source: string; limits: HookLimits; platform: HookPlatform }): ParsedHooks {
  const { source, limits, platform } = input;
  const parsed: ParsedHooks = { hooks: [], notes: [] };
  for (const [name, entries] of Object.entries(hooks)) {
    const claudeName = name.charAt(0).toUpperCase() + name.slice(1);
    const event = Object.hasOwn(CLAUDE_EVENTS, claudeName) ? CLAUDE_EVENTS[claudeName] : undefined;
    if (event === undefined || !Array.isArray(entries)) {
      parsed.notes.push(`${source}: the ${JSON.stringify(name).slice(0, 60)} event is not supported here (or not a list); ignored`);
      continue;
    }
    for (const entry of entries) {
      if (isRecord(entry) && Array.isArray(entry.hooks)) {
        addClaudeGroup(parsed, { event, name, group: entry, source, limits, format: 'claude' });
        continue;
      }
      const line = isRecord(entry) && entry.type === 'command' ? vsCodeLine(entry, platform) : { problem: 'is not a "command" hook' };
      if ('problem' in line) {
        parsed.notes.push(`${source}: a hook of ${name} ${line.problem}; ignored`);
        continue;
      }
      for (const problem of line.notes) parsed.notes.push(`${source}: a hook of ${name} ${problem}`);
      addCommandEntry(parsed, { entry, name, event, format: 'claude', line, timeoutKeys: ['timeout', 'timeoutSec'], source, limits });
    }
  }
  return parsed;
}

/** The systems VS Code tells apart, each with its override key, the older key VS Code reads as it, and its name. */
const VS_CODE_SYSTEMS = {
  linux: { legacy: 'bash', label: 'Linux' },
  osx: { legacy: 'bash', label: 'macOS' },
  windows: { legacy: 'powershell', label: 'Windows' },
} as const;
type VsCodeSystem = keyof typeof VS_CODE_SYSTEMS;

/** VS Code's name of a Node platform: macOS and Windows, every other system Linux (as VS Code's `OS`). */
function vsCodeSystem(platform: HookPlatform): VsCodeSystem {
  return platform === 'darwin' ? 'osx' : platform === 'win32' ? 'windows' : 'linux';
}

/** A VS Code hook's line on this system and the key it came from (with notes on keys passed over), or why it has none. */
type VsCodeLine = { command: string; key: string; notes: string[] } | { problem: string };

/**
 * The line VS Code runs for a hook on `platform` (hookSchema.ts, `resolveEffectiveCommand`): the system's override
 * (`linux`, `osx`, `windows`; else `bash` on Linux and macOS, `powershell` on Windows, which VS Code maps to them), else
 * `command`. Each is a non-empty text or, as VS Code has it, absent. A hook with only another system's line runs nothing
 * here: a note says so rather than dropping it in silence.
 */
function vsCodeLine(entry: Record<string, unknown>, platform: HookPlatform): VsCodeLine {
  const system = vsCodeSystem(platform);
  const notes: string[] = [];
  for (const key of [system, VS_CODE_SYSTEMS[system].legacy, 'command']) {
    const value = entry[key];
    if (typeof value === 'string' && value !== '') return { command: value, key, notes };
    if (value !== undefined && typeof value !== 'string') notes.push(`has a "${key}" that is not text; passed over, as VS Code does`);
  }
  const others = (Object.keys(VS_CODE_SYSTEMS) as VsCodeSystem[]).filter(
    (other) => other !== system && typeof entry[other] === 'string' && entry[other] !== '',
  );
  const here = VS_CODE_SYSTEMS[system].label;
  if (others.length > 0) {
    const lines = others.map((other) => `"${other}" (${VS_CODE_SYSTEMS[other].label})`).join(' and ');
    return {
      problem: `has only a ${lines} line and no "command": VS Code runs none of it on ${here}, nor does this extension; add "command" or "${system}" to run it here`,
    };
  }
  return { problem: `has no "command" line (nor a "${system}" or "${VS_CODE_SYSTEMS[system].legacy}" one for ${here})` };
}

/** One command hook of a Copilot or VS Code hook list, its line already chosen. */
interface CommandEntry {
  entry: unknown;
  /** The event's name as the file writes it (for the notes). */
  name: string;
  event: HookEvent;
  format: HookFormat;
  /** The line that runs, and its key when it is a VS Code override rather than the usual one. */
  line: { command: string; key?: string };
  /** Where the timeout (seconds) may be, in the order the format prefers. */
  timeoutKeys: readonly string[];
  source: string;
  limits: HookLimits;
}

function addCommandEntry(parsed: ParsedHooks, { entry, name, event, format, line, timeoutKeys, source, limits }: CommandEntry): void {
  if (!isRecord(entry)) return; // The callers chose its line from it: a record already (a guard for the type).
  const env = environmentOf(entry.env);
  if (typeof env === 'string') {
    parsed.notes.push(`${source}: a hook of ${name} has an "env" that ${env}; ignored`);
    return;
  }
  const cwd = entry.cwd === undefined ? '.' : entry.cwd;
  const timeout = firstOf(entry, timeoutKeys, (value) => value !== undefined && value !== null);
  const lineKey = line.key === undefined || line.key === 'command' ? undefined : line.key;
  addCommand(parsed, { event, format, matcher: undefined, command: line.command, lineKey, cwd, timeout, env, source }, limits);
}

/** The value of the first key of `keys` whose value `accept`s. */
function firstOf(record: Record<string, unknown>, keys: readonly string[], accept: (value: unknown) => boolean): unknown {
  for (const key of keys) if (accept(record[key])) return record[key];
  return undefined;
}

interface RawCommand {
  event: HookEvent;
  format: HookFormat;
  matcher: string | undefined;
  command: unknown;
  lineKey?: string;
  cwd: unknown;
  /** Seconds, as both formats write it. */
  timeout: unknown;
  env?: Record<string, string>;
  source: string;
}

function addCommand(parsed: ParsedHooks, raw: RawCommand, limits: HookLimits): void {
  const { source, event } = raw;
  if (parsed.hooks.length >= limits.maxHooks) return void parsed.notes.push(`${source}: more than ${limits.maxHooks} hooks; the rest are ignored`);
  if (typeof raw.command !== 'string' || raw.command.trim() === '') return void parsed.notes.push(`${source}: a ${event} hook has no command; ignored`);
  if (raw.command.length > limits.maxCommandChars || raw.command.includes('\0')) {
    return void parsed.notes.push(`${source}: a ${event} hook's command is longer than ${limits.maxCommandChars} characters (or holds a NUL); ignored`);
  }
  const cwd = relativeFolder(raw.cwd);
  if (cwd === undefined) return void parsed.notes.push(`${source}: a ${event} hook's "cwd" is not a folder inside the workspace; ignored`);
  const seconds = typeof raw.timeout === 'number' && Number.isFinite(raw.timeout) && raw.timeout > 0 ? raw.timeout : Infinity;
  const timeoutMs = Math.min(limits.maxTimeoutMs, Math.ceil(seconds * 1000));
  parsed.hooks.push({
    event,
    format: raw.format,
    ...(raw.matcher === undefined ? {} : { matcher: raw.matcher }),
    command: raw.command,
    ...(raw.lineKey === undefined ? {} : { lineKey: raw.lineKey }),
    cwd,
    timeoutMs,
    ...(raw.env === undefined ? {} : { env: raw.env }),
    source,
  });
}

/** Variables one hook may set, and the longest value. */
export const MAX_HOOK_ENV_ENTRIES = 64;
export const MAX_HOOK_ENV_VALUE_CHARS = 4096;

/**
 * Variables a hook's `env` may not set: those the host sets itself, which the approval's reading of its line relies on
 * (`$HOME`, `$CLAUDE_PROJECT_DIR`, hookContent.ts), and the loader's, which change what every program of it runs.
 */
function reservedName(name: string): boolean {
  return ['HOME', 'CLAUDE_PROJECT_DIR', 'SHELL', 'TMPDIR'].includes(name) || /^(LD_|DYLD_)/.test(name);
}

/** Copilot's `env` of a hook, bounded: undefined when there is none (or it is empty), or why it cannot be used. */
function environmentOf(value: unknown): Record<string, string> | undefined | string {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return 'is not an object';
  const entries = Object.entries(value);
  if (entries.length > MAX_HOOK_ENV_ENTRIES) return `sets more than ${MAX_HOOK_ENV_ENTRIES} variables`;
  const env: Record<string, string> = {};
  for (const [name, text] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name.length > 200) return `names ${JSON.stringify(name.slice(0, 40))}, not a variable's name`;
    if (reservedName(name)) return `sets ${name}, which only the host sets`;
    if (typeof text !== 'string') return `gives ${name} a value that is not text`;
    if (text.length > MAX_HOOK_ENV_VALUE_CHARS || text.includes('\0'))
      return `gives ${name} a value longer than ${MAX_HOOK_ENV_VALUE_CHARS} characters (or holding a NUL)`;
    env[name] = text;
  }
  return entries.length === 0 ? undefined : env;
}

/**
 * The shell lines that set a hook's `env` before its own line: what the host runs and what the approval shows.
 * Its shell exports them (single-quoted, nothing expanded), so they reach the hook and what it starts, never the
 * sandbox's launcher; the hook's environment is otherwise the allow-list's (no key of the host).
 */
export function envExports(env: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(env ?? {})
    .map(([name, value]) => `export ${name}='${value.replaceAll("'", "'\\''")}'\n`)
    .join('');
}

/** A matcher's text (undefined for every tool), or why it cannot be used. */
function matcherOf(value: unknown, limits: HookLimits): string | undefined | { problem: string } {
  if (value === undefined || value === '' || value === '*') return undefined;
  if (typeof value !== 'string') return { problem: 'is not text' };
  if (value.length > limits.maxMatcherChars) return { problem: `is longer than ${limits.maxMatcherChars} characters` };
  // Tool names joined by `|`, with `.*` for "anything": what matchers are written with. Other
  // regular-expression syntax is refused rather than run (a hostile pattern could take forever).
  if (!/^[A-Za-z0-9_\-|.*]+$/.test(value) || /\.(?!\*)|(?<!\.)\*/.test(value))
    return { problem: `(${JSON.stringify(value.slice(0, 40))}) uses more than tool names, | and .*` };
  return value;
}

/** Whether `matcher` matches one of `names` (the tool's own name and its Claude Code name). */
export function matcherMatches(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined) return true;
  return matcher.split('|').some((alternative) => {
    const parts = alternative.split('.*');
    return names.some((name) => wildcardMatches(parts, name));
  });
}

function wildcardMatches(parts: readonly string[], name: string): boolean {
  if (parts.length === 1) return parts[0] === name;
  if (!name.startsWith(parts[0]) || !name.endsWith(parts[parts.length - 1])) return false;
  let at = parts[0].length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return at <= name.length - parts[parts.length - 1].length;
}

function jsonObject(text: string, source: string, notes: string[]): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    notes.push(`${source}: not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'unreadable'}); its hooks are ignored`);
    return undefined;
  }
  if (!isRecord(value)) notes.push(`${source}: not a JSON object; its hooks are ignored`);
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function note(parsed: ParsedHooks, text: string): ParsedHooks {
  parsed.notes.push(text);
  return parsed;
}
