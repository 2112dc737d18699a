/**
 * The tools of a session started as a custom agent or an agent-mode prompt
 * file: the names its file gives, in Copilot's or Claude Code's words, mapped
 * to this extension's tools. The mapped list is kept in the saved session and
 * applied to every run (after compaction, on Continue, after a restore): a
 * model's output never reaches it, so a model cannot widen its own tools.
 */
import { modelToolName, runSubagentTool, type AgentTool } from '../../../tools/common';
import { hostToolsOfName, mcpToolsOfName, serversNamed } from './hostGrants';

/** Claude Code's tools, as it spells them (its `Read` reads one file, where Copilot's `read` set also lists folders). */
const CLAUDE_TOOLS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['Read', ['read_file']],
  ['Edit', ['edit_file']],
  ['MultiEdit', ['edit_file']],
  ['Write', ['write_file']],
  ['Glob', ['list_files']],
  ['Grep', ['search_text']],
  ['LS', ['list_files']],
  ['Bash', ['run_command']],
  ['BashOutput', ['command_output']],
  ['KillShell', ['command_output']],
  ['KillBash', ['command_output']],
  ['TodoWrite', ['update_plan']],
  ['Task', ['run_subagent']],
]);

/** Copilot's tool sets and tools, lower-cased, to our tools. */
const TOOL_NAMES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  // Copilot's tool sets
  ['read', ['read_file', 'list_files']],
  ['edit', ['edit_file', 'write_file']],
  ['search', ['search_text', 'list_files', 'code_navigation']],
  ['runcommands', ['run_command', 'command_output']],
  ['execute', ['run_command', 'command_output']],
  ['terminal', ['run_command', 'command_output']],
  // Copilot's tools
  ['readfile', ['read_file']],
  ['editfiles', ['edit_file', 'write_file']],
  ['createfile', ['write_file']],
  ['codebase', ['search_text', 'list_files']],
  ['textsearch', ['search_text']],
  ['filesearch', ['list_files']],
  ['listdirectory', ['list_files']],
  ['usages', ['code_navigation']],
  ['problems', ['get_problems']],
  ['runinterminal', ['run_command']],
  ['getterminaloutput', ['command_output']],
  ['todos', ['update_plan']],
  ['todo', ['update_plan']],
  ['agent', ['run_subagent']],
  ['runsubagent', ['run_subagent']],
  ['run_subagent', ['run_subagent']],
]);

/** A tool of VS Code's (an extension's, an MCP server's) as a file may grant it. */
export interface GrantableHostTool {
  /** VS Code's name (`mcp_github_create_issue`, `copilot_fetchWebPage`). */
  name: string;
  /** An MCP server's tool (its name is `mcp_<server>_<tool>`). */
  mcp: boolean;
  /** The mcp.json key of its server, where VS Code's name for the tool carries the server's own name instead. */
  server?: string;
  /** The name a prompt references it by (`#fetch`): an extension's `toolReferenceName`. */
  referenceName?: string;
  /** The user enabled it in "Gateway: Choose Agent Tools…": a grant of any other is not offered. */
  enabled: boolean;
}

/** What a file's tool names are matched against: our tools' names and VS Code's tools. */
export interface ToolCatalog {
  builtIns: readonly string[];
  host?: readonly GrantableHostTool[];
}

export interface MappedTools {
  /** Our tool names and VS Code tools' names, in the order first named. */
  tools: string[];
  /** The names that match no tool: listed in a note, not offered. */
  unknown: string[];
  /** VS Code tools granted that the user has not enabled: kept in the list, offered once enabled. */
  notEnabled: string[];
}

/**
 * `names` as tools: a built-in's own name, a Copilot or Claude Code name
 * (`read/readFile` and `Bash(npm test:*)` by their parts), or one of VS Code's
 * tools (hostGrants.ts); `*` means every tool.
 */
export function mapToolNames(names: readonly string[], catalog: ToolCatalog): MappedTools {
  const host = catalog.host ?? [];
  const servers = serversNamed(names);
  const tools = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const trimmed = name.trim();
    const ofMcpServer = trimmed === '*' ? [] : mcpToolsOfName(trimmed, host, servers);
    const mapped =
      trimmed === '*'
        ? [...catalog.builtIns, runSubagentTool.name, ...host.map((tool) => tool.name)]
        : ofMcpServer.length > 0
          ? ofMcpServer
          : (toolsOfName(trimmed, catalog.builtIns) ?? hostToolsOfName(trimmed, host, servers));
    if (mapped.length === 0) unknown.push(name);
    for (const tool of mapped) tools.add(tool);
  }
  // `*` grants whatever the user enables: only a tool the file names is worth a note when it is not enabled.
  const named = names.some((name) => name.trim() === '*') ? new Set<string>() : tools;
  const notEnabled = host.filter((tool) => !tool.enabled && named.has(tool.name)).map((tool) => tool.name);
  return { tools: [...tools], unknown, notEnabled };
}

function toolsOfName(name: string, offered: readonly string[]): readonly string[] | undefined {
  if (offered.includes(name)) return [name];
  // Claude Code's `Bash(git diff:*)` limits a tool by its arguments: the tool itself is what is offered here.
  const bare = name.replace(/\(.*\)$/, '');
  const member = bare.slice(bare.lastIndexOf('/') + 1);
  // `set/member` grants that member; a member this extension does not know grants nothing (never the whole set:
  // `execute/testFailure` is not `execute`), and `set/*` the set.
  const parts = bare.includes('/') ? (member === '*' ? [bare.split('/')[0]] : [bare, member]) : [bare];
  for (const part of parts) {
    const known = CLAUDE_TOOLS.get(part) ?? TOOL_NAMES.get(part.toLowerCase()) ?? (offered.includes(part) ? [part] : undefined);
    if (known) return known;
  }
  return undefined;
}

/**
 * The tools offered now, narrowed to the session's list when it has one. The list holds our names and
 * VS Code's; a VS Code tool is offered under the name the model may see (modelToolName). Only what is
 * offered can stay: a list never adds a tool the user did not enable or the workspace does not allow.
 */
export function limitTools(tools: readonly AgentTool[], allowed: readonly string[] | undefined): readonly AgentTool[] {
  if (allowed === undefined) return tools;
  const names = new Set([...allowed, ...allowed.map(modelToolName)]);
  return tools.filter((tool) => names.has(tool.name));
}

/** Whether a session may hand tasks to subagents: always, unless its agent's list leaves run_subagent out. */
export function agentMaySubagent(allowed: readonly string[] | undefined): boolean {
  return allowed === undefined || allowed.includes(runSubagentTool.name);
}
