/**
 * Prompt files of the workspace (`.github/prompts/*.prompt.md`, VS Code's and
 * Copilot's format): optional front matter `name`, `description`, `model`, `tools`,
 * `mode` (or `agent`, its newer name), `argument-hint`; the body is the
 * prompt, with `${input:name}`, `${input:name:placeholder}`, `${selection}`,
 * `${file}` and the workspace variables filled in when it runs. `mode: agent`
 * (or a `tools` list without a mode) runs it as an agent session; otherwise
 * it gets a chat answer. `agent: <name>` runs it as that custom agent.
 */
import type { WorkspaceFiles } from '../../base/common';
import { headBytes } from '../../base/common';
import { readAgentFiles, type AgentFileLimits } from './agentFiles';
import { fileStem, type Found } from './customAgents';
import { readFrontMatter } from './frontMatter';

export const PROMPT_FOLDER = '.github/prompts';
export const PROMPT_SUFFIX = '.prompt.md';
/** The folder of the user's own prompt files inside VS Code's profile folder (`User/prompts`), as VS Code keeps them. */
export const USER_PROMPT_FOLDER = 'prompts';
/** Bytes of a prompt sent: more is cut (the file's own bound is higher, for its front matter and comments). */
const MAX_PROMPT_BYTES = 32 * 1024;

export interface PromptFile {
  /**
   * What the user types after `/prompt`: the front matter's `name` (VS Code's name after `/`), else the file's name
   * without `.prompt.md`; compared exactly, as VS Code does.
   */
  name: string;
  description?: string;
  argumentHint?: string;
  model?: string;
  tools?: string[];
  /** `agent`: an agent session; `ask`: a chat answer. */
  mode: 'agent' | 'ask';
  /** The custom agent it runs as (`agent: reviewer`). */
  agent?: string;
  body: string;
  /** Workspace-relative; a user prompt file's as `User/prompts/<name>.prompt.md`. */
  path: string;
  /** From the user's profile (`User/prompts`), not the workspace. */
  user?: true;
}

export async function findPromptFiles(
  input: { files: WorkspaceFiles; protectedFiles: readonly string[]; limits?: AgentFileLimits },
  signal: AbortSignal,
): Promise<Found<PromptFile>> {
  const reads = await readAgentFiles({ ...input, folders: [{ folder: PROMPT_FOLDER, suffix: PROMPT_SUFFIX }] }, signal);
  return collectPrompts(reads.map((read) => ({ ...read, shown: read.path })));
}

/**
 * The prompts of files read in path order, each under its name; a name taken already is left out with a note: VS Code
 * runs the first file (in its listing order) whose name matches what follows `/`, so the later one never runs there either.
 */
function collectPrompts(reads: readonly ({ shown: string } & ({ text: string } | { problem: string }))[], user?: true): Found<PromptFile> {
  const found: Found<PromptFile> = { items: [], notes: [] };
  for (const read of reads) {
    const parsed = 'text' in read ? readPromptFile(read.shown, read.text) : read.problem;
    if (typeof parsed === 'string') {
      found.notes.push(`${read.shown}: ${'text' in read ? 'skipped, ' : ''}${parsed}`);
      continue;
    }
    if (parsed.note !== undefined) found.notes.push(`${read.shown}: ${parsed.note}`);
    const first = found.items.find((item) => item.name === parsed.prompt.name);
    if (first) {
      found.notes.push(`${read.shown}: skipped, its name "${parsed.prompt.name}" is that of ${first.path} too, which comes first; give one another \`name\``);
      continue;
    }
    found.items.push(user ? { ...parsed.prompt, user } : parsed.prompt);
  }
  return found;
}

/**
 * VS Code's profile folder (`…/User`) from the extension's global storage (`…/User/globalStorage/<publisher.name>`),
 * two levels up, as vscode-copilot-chat finds the user's prompts folder; undefined when the storage is laid out otherwise.
 */
export function profileFolderOf(globalStoragePath: string): string | undefined {
  const separator = globalStoragePath.includes('/') ? '/' : '\\';
  const parts = globalStoragePath.replace(/[\\/]+$/, '').split(/[\\/]/);
  if (parts.length < 3 || parts[parts.length - 2] !== 'globalStorage' || parts[parts.length - 1] === '') return undefined;
  return parts.slice(0, -2).join(separator);
}

/** The user's prompt files (`files`: the profile folder's), bounded and guarded as the workspace's are, each marked as the user's. */
export async function findUserPromptFiles(
  input: { files: WorkspaceFiles; protectedFiles: readonly string[]; limits?: AgentFileLimits },
  signal: AbortSignal,
): Promise<Found<PromptFile>> {
  const reads = await readAgentFiles({ ...input, folders: [{ folder: USER_PROMPT_FOLDER, suffix: PROMPT_SUFFIX }] }, signal);
  return collectPrompts(
    reads.map((read) => ({ ...read, shown: `User/${read.path}` })),
    true,
  );
}

/** A prompt file's line in a pick: what running it gives, and that it is the user's own (listed after the workspace's). */
export function promptKind(prompt: Pick<PromptFile, 'mode' | 'user'>): string {
  const kind = prompt.mode === 'agent' ? 'agent session' : 'chat';
  return prompt.user ? `user prompt · ${kind}` : kind;
}

const CHAT_MODES = new Set(['ask', 'edit', 'chat']);

/** The prompt a file describes, or why it is none. */
export function parsePromptFile(path: string, text: string): PromptFile | string {
  const read = readPromptFile(path, text);
  return typeof read === 'string' ? read : read.prompt;
}

/** The prompt a file describes and, when its `name` could not be used, a note saying what to fix; or why it is none. */
export function readPromptFile(path: string, text: string): { prompt: PromptFile; note?: string } | string {
  const read = readFrontMatter(text, {
    scalars: ['name', 'description', 'model', 'mode', 'agent', 'argument-hint'],
    lists: ['tools'],
    optional: true,
  });
  if (!read.ok) return read.problem;
  if (read.body === '') return 'it has no prompt (its body is empty)';
  const field = (key: string) => {
    const value = read.fields.get(key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const named = promptName(path, field('name'));
  if (typeof named === 'string') return named;
  const tools = read.fields.get('tools');
  const modeField = (field('mode') ?? field('agent'))?.toLowerCase();
  const customAgent = modeField !== undefined && modeField !== 'agent' && !CHAT_MODES.has(modeField) ? field('agent') : undefined;
  const agentMode = modeField === 'agent' || customAgent !== undefined || (modeField === undefined && tools !== undefined);
  const prompt: PromptFile = {
    name: named.name,
    ...optional('description', field('description')?.slice(0, 1024)),
    ...optional('argumentHint', field('argument-hint')?.slice(0, 200)),
    ...optional('model', field('model')),
    ...(tools !== undefined ? { tools: typeof tools === 'string' ? [tools] : tools } : {}),
    mode: agentMode ? 'agent' : 'ask',
    ...optional('agent', customAgent),
    body: headBytes(read.body, MAX_PROMPT_BYTES),
    path,
  };
  return named.note === undefined ? { prompt } : { prompt, note: named.note };
}

const MAX_PROMPT_NAME_CHARS = 64;
const NAME_RULE = `letters, digits, \`-\`, \`_\`, \`.\`; at most ${MAX_PROMPT_NAME_CHARS}`;

/** One word `/prompt` can be followed by: VS Code's chat also reads the command after `/` up to the first blank. */
function typeable(name: string): boolean {
  return name.length <= MAX_PROMPT_NAME_CHARS && /^[\p{L}\p{N}_.-]+$/u.test(name);
}

/**
 * The name a prompt is run by: the front matter's `name` (as VS Code takes it), else the file's stem. A `name` that
 * cannot be typed after `/prompt` (a space in it) falls back to the stem with a note saying what to write instead.
 */
function promptName(path: string, given: string | undefined): { name: string; note?: string } | string {
  const stem = fileStem(path);
  if (given !== undefined && typeable(given)) return { name: given };
  if (!typeable(stem)) {
    const which = given === undefined ? 'its file name is not' : `neither its \`name\` "${headBytes(given, 80)}" nor its file name is`;
    return `${which} one to type after /prompt (${NAME_RULE})`;
  }
  if (given === undefined) return { name: stem };
  const fix = given
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_.-]/gu, '')
    .slice(0, MAX_PROMPT_NAME_CHARS);
  const suggestion = fix !== '' ? `; write \`name: ${fix}\` to run it by its name` : '';
  return {
    name: stem,
    note: `its \`name\` "${headBytes(given, 80)}" cannot follow /prompt (${NAME_RULE}): it runs as /prompt ${stem}${suggestion}`,
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** What `/prompt` was given: the prompt's name, `key=value` inputs, and the rest. */
export interface PromptCall {
  name: string;
  inputs: Map<string, string>;
  rest: string;
}

/** `name key=value key2="two words" free text` (the name may be empty: the user is asked). */
export function parsePromptCall(text: string): PromptCall {
  const trimmed = text.trim();
  const name = /^[^\s=]+(?=\s|$)/.exec(trimmed)?.[0] ?? '';
  let rest = trimmed.slice(name.length).trim();
  const inputs = new Map<string, string>();
  for (;;) {
    const match = /^([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|(\S*))(?:\s+|$)/.exec(rest);
    if (!match) break;
    inputs.set(match[1], match[2] ?? match[3] ?? match[4] ?? '');
    rest = rest.slice(match[0].length);
  }
  return { name: name.replace(/^\//, ''), inputs, rest: rest.trim() };
}

/** The `${input:…}` variables of a prompt, in order, each once, with its placeholder. */
export function promptInputs(body: string): { name: string; placeholder?: string }[] {
  const inputs: { name: string; placeholder?: string }[] = [];
  for (const match of body.matchAll(/\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g)) {
    if (!inputs.some((input) => input.name === match[1])) inputs.push({ name: match[1], ...(match[2] ? { placeholder: match[2] } : {}) });
  }
  return inputs.slice(0, 32);
}

/** What the variables stand for where the prompt runs (workspace-relative file, the selected text). */
export interface PromptContext {
  inputs: ReadonlyMap<string, string>;
  selection?: string;
  file?: string;
  workspaceFolder?: string;
}

/**
 * The prompt with its variables filled in; an input given neither as
 * `key=value` nor asked for takes the free text when it is the only one left;
 * free text left over follows the prompt. `missing`: inputs still without a value.
 */
export function expandPrompt(
  prompt: PromptFile,
  call: Pick<PromptCall, 'inputs' | 'rest'>,
  context: Omit<PromptContext, 'inputs'>,
): { text: string; missing: string[] } {
  const inputs = new Map(call.inputs);
  let rest = call.rest;
  const unset = promptInputs(prompt.body).filter((input) => !inputs.has(input.name));
  if (unset.length === 1 && rest !== '') {
    inputs.set(unset[0].name, rest);
    rest = '';
  }
  const missing = promptInputs(prompt.body)
    .filter((input) => !inputs.has(input.name))
    .map((input) => input.name);
  const file = context.file;
  const values: Record<string, string | undefined> = {
    selection: context.selection,
    selectedText: context.selection,
    file,
    fileBasename: file?.slice(file.lastIndexOf('/') + 1),
    fileDirname: file === undefined ? undefined : file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.',
    fileBasenameNoExtension: file?.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''),
    workspaceFolder: context.workspaceFolder,
    workspaceFolderBasename: context.workspaceFolder?.slice(context.workspaceFolder.replace(/[\\/]+$/, '').search(/[^\\/]*$/)),
  };
  const text = prompt.body.replace(/\$\{(input:)?([A-Za-z_][\w-]*)(?::[^}]*)?\}/g, (whole, input: string | undefined, key: string) => {
    const value = input ? inputs.get(key) : values[key];
    return value ?? whole;
  });
  return { text: rest === '' ? text : `${text}\n\n${rest}`, missing };
}
