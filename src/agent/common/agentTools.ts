/**
 * The tools of a session started as a custom agent or an agent-mode prompt
 * file: the names its file gives, in Copilot's or Claude Code's words, mapped
 * to this extension's tools. The mapped list is kept in the saved session and
 * applied to every run (after compaction, on Continue, after a restore): a
 * model's output never reaches it, so a model cannot widen its own tools.
 */
import type { AgentTool } from '../../tools/common';

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
]);

export interface MappedTools {
  /** Our tool names (built-in, or a host tool's exact name), in the order first named. */
  tools: string[];
  /** The names that match none of ours: listed in a note, not offered. */
  unknown: string[];
}

/**
 * `names` as our tools: a built-in's own name, a Copilot or Claude Code name
 * (`read/readFile` and `Bash(npm test:*)` by their parts), or a host tool's
 * exact name; `*` means every tool.
 */
export function mapToolNames(names: readonly string[], offered: readonly string[]): MappedTools {
  const tools = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const mapped = name.trim() === '*' ? offered : toolsOfName(name.trim(), offered);
    if (mapped.length === 0) unknown.push(name);
    for (const tool of mapped) tools.add(tool);
  }
  return { tools: [...tools], unknown };
}

function toolsOfName(name: string, offered: readonly string[]): readonly string[] {
  if (offered.includes(name)) return [name];
  // Claude Code's `Bash(git diff:*)` limits a tool by its arguments: the tool itself is what is offered here.
  const bare = name.replace(/\(.*\)$/, '');
  const parts = [bare, bare.slice(bare.lastIndexOf('/') + 1), bare.split('/')[0]];
  for (const part of parts) {
    const known = CLAUDE_TOOLS.get(part) ?? TOOL_NAMES.get(part.toLowerCase()) ?? (offered.includes(part) ? [part] : undefined);
    if (known) return known;
  }
  return [];
}

/** The tools offered now, narrowed to the session's list when it has one. */
export function limitTools(tools: readonly AgentTool[], allowed: readonly string[] | undefined): readonly AgentTool[] {
  return allowed === undefined ? tools : tools.filter((tool) => allowed.includes(tool.name));
}
