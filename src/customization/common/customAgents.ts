/**
 * Custom agents of the workspace: Copilot's `.github/agents/*.agent.md` (any `*.md` there, as VS Code reads them) and
 * Claude Code's `.claude/agents/*.md`. Front matter `name` (else the file's
 * name), `description`, `tools`, `model`; the body is the agent's
 * instructions. A session started as one gets those instructions with every
 * request and only the tools it names (agentTools.ts), kept in the saved
 * session so that nothing the model sends can change them.
 */
import type { WorkspaceFiles } from '../../base/common';
import { headBytes, utf8Length } from '../../base/common';
import { readAgentFiles, type AgentFileFolder, type AgentFileLimits } from './agentFiles';
import { readFrontMatter } from './frontMatter';

export const CUSTOM_AGENT_FOLDERS: readonly AgentFileFolder[] = [
  // `.agent.md` files, and any other `.md`: VS Code "detects any .md files in the .github/agents folder" as custom agents
  // (microsoft/vscode's own data.md, engineering.md, sessions.md are).
  { folder: '.github/agents', suffix: '.md' },
  { folder: '.claude/agents', suffix: '.md' },
];

/** Bytes of an agent's instructions sent with every request: the rest is cut with a note. */
export const MAX_AGENT_INSTRUCTION_BYTES = 8 * 1024;
const MAX_NAME_CHARS = 64;
const MAX_DESCRIPTION_CHARS = 1024;

export interface CustomAgent {
  name: string;
  description: string;
  /** The names as the file gives them (Copilot's or Claude Code's); undefined: the file names none, so every tool. */
  tools?: string[];
  model?: string;
  instructions: string;
  /** The file, workspace-relative. */
  path: string;
  /** Its front matter declares MCP servers of its own (Copilot's `mcp-servers`): not started here, noted at the start. */
  ownMcpServers?: true;
}

export interface Found<T> {
  items: T[];
  /** Why a file found was left out, one line each, for the log. */
  notes: string[];
}

/** The custom agents of the workspace, the first of a name winning (`.github` before `.claude`). */
export async function findCustomAgents(
  input: { files: WorkspaceFiles; protectedFiles: readonly string[]; limits?: AgentFileLimits },
  signal: AbortSignal,
): Promise<Found<CustomAgent>> {
  const found: Found<CustomAgent> = { items: [], notes: [] };
  for (const read of await readAgentFiles({ ...input, folders: CUSTOM_AGENT_FOLDERS }, signal)) {
    const agent = 'text' in read ? parseCustomAgent(read.path, read.text) : read.problem;
    if (typeof agent === 'string') found.notes.push(`${read.path}: ${'text' in read ? 'skipped, ' : ''}${agent}`);
    else if (found.items.some((item) => item.name.toLowerCase() === agent.name.toLowerCase())) {
      found.notes.push(`${read.path}: skipped, an agent named "${agent.name}" came first`);
    } else found.items.push(agent);
  }
  return found;
}

/** The agent a file describes, or why it is none. */
export function parseCustomAgent(path: string, text: string): CustomAgent | string {
  // `model` may be a list (Copilot's files: the first one available wins).
  const read = readFrontMatter(text, { scalars: ['name', 'description', 'mcp-servers'], lists: ['tools', 'model'] });
  if (!read.ok) return read.problem;
  const { fields } = read;
  // Names with spaces are names (Copilot's guide writes `name: 'Azure Principal Architect'`): typed quoted after @.
  const name = (stringField(fields.get('name')) ?? fileStem(path)).replace(/\s+/g, ' ').trim();
  if (name === '' || name.length > MAX_NAME_CHARS || /[^\p{L}\p{N}_.()&+ -]/u.test(name)) {
    return `its name "${headBytes(name, 80)}" is not a name to type after @ (letters, digits, spaces, \`-\`, \`_\`, \`.\`, \`(\`, \`)\`, \`&\`, \`+\`; at most ${MAX_NAME_CHARS})`;
  }
  const description = stringField(fields.get('description'));
  if (!description) return 'its front matter has no `description`';
  if (read.body === '') return 'it has no instructions (its body is empty)';
  const tools = fields.get('tools');
  // Kept as one text, the choices in order (`A, B`): modelNamed takes the first one the key may use.
  const models = fields.get('model');
  const model = stringField(Array.isArray(models) ? models.join(', ') : models);
  return {
    name,
    description: description.slice(0, MAX_DESCRIPTION_CHARS),
    ...(tools !== undefined ? { tools: typeof tools === 'string' ? [tools] : tools } : {}),
    ...(model !== undefined && model.toLowerCase() !== 'inherit' ? { model } : {}),
    instructions: boundedInstructions(path, read.body),
    path,
    ...(fields.has('mcp-servers') ? { ownMcpServers: true as const } : {}),
  };
}

function boundedInstructions(path: string, body: string): string {
  const kept = headBytes(body, MAX_AGENT_INSTRUCTION_BYTES);
  if (kept.length === body.length) return body;
  return `${kept}\n(cut: ${path} has ${utf8Length(body)} bytes; only the first ${utf8Length(kept)} are used)`;
}

function stringField(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `reviewer` of `.github/agents/reviewer.agent.md` or `.claude/agents/reviewer.md`. */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.(agent|prompt)\.md$/, '').replace(/\.md$/, '');
}

/**
 * `@name rest` at the start of a task: the agent asked for and the task; undefined when the task names none. A
 * name with spaces is quoted (`@"Azure Principal Architect" review this`) or, when `names` holds it, typed as it
 * is (the longest known name the text starts with wins).
 */
export function agentMention(task: string, names: readonly string[] = []): { name: string; task: string } | undefined {
  const text = task.trim();
  const quoted = /^@(["'])([^"'\n]{1,200})\1(?:\s+([\s\S]*))?$/u.exec(text);
  if (quoted) return { name: quoted[2].replace(/\s+/g, ' ').trim(), task: (quoted[3] ?? '').trim() };
  const spaced = names
    .filter((name) => name.includes(' '))
    .sort((a, b) => b.length - a.length)
    .find((name) => text.slice(1, name.length + 1).toLowerCase() === name.toLowerCase() && /^(\s|$)/.test(text.slice(name.length + 1)));
  if (text.startsWith('@') && spaced) return { name: spaced, task: text.slice(spaced.length + 1).trim() };
  const match = /^@([\p{L}\p{N}_.-]+)(?:\s+([\s\S]*))?$/u.exec(text);
  return match ? { name: match[1], task: (match[2] ?? '').trim() } : undefined;
}

/** How a user types an agent's name after @: as it is, or quoted when it has spaces or other punctuation. */
export function mentionOf(name: string): string {
  return /^[\p{L}\p{N}_.-]+$/u.test(name) ? `@${name}` : `@"${name}"`;
}

/** The agent of that name (case-insensitive). */
export function agentNamed(agents: readonly CustomAgent[], name: string): CustomAgent | undefined {
  return agents.find((agent) => agent.name.toLowerCase() === name.toLowerCase());
}
