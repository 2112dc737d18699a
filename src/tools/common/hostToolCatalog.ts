/**
 * The host's tools as the user chooses among them ("Gateway: Choose Agent
 * Tools…"): grouped by where they come from (VS Code itself, each extension,
 * each MCP server), with the few that cannot work outside VS Code's own chat
 * left out, and the sentence that tells the user which MCP servers and tools a
 * session has. Pure: the VS Code adapter supplies the listings and the owners.
 */
import { inlineCode } from '../../base/common';
import type { HostToolInfo } from './hostTools';
import { mcpToolParts } from './mcpNames';

export { mcpToolParts };

/** Names listed in a note at most; the rest are counted. */
const MAX_NOTE_NAMES = 20;

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NOTE_NAMES).map((name) => inlineCode(name.slice(0, 80)));
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
}

/** Where a tool comes from. */
export type HostToolSource = { kind: 'vscode' } | { kind: 'extension'; id: string; label: string } | { kind: 'mcp'; server: string };

export interface HostToolGroup {
  /** The separator's label: "VS Code", "Extension: Weather", "MCP server: probe". */
  title: string;
  source: HostToolSource;
  tools: { info: HostToolInfo; label: string }[];
}

/** The tag VS Code gives every tool of an MCP server (its name is then `mcp_<server>_<tool>`). */
export const MCP_TAG = 'mcp';

/**
 * VS Code's own tools that only act on VS Code's own chat, never on the workspace: offered to our agent
 * they would fail or do nothing. Chosen by what each does, not by name: `vscode_searchExtensions_internal`
 * and `vscode_fetchWebPage_internal` end in `_internal` yet work from any extension (a Marketplace search,
 * a web page fetch), so a suffix rule would hide usable tools.
 */
export const HIDDEN_HOST_TOOLS: ReadonlyMap<string, string> = new Map([
  ['inline_chat_exit', "ends VS Code's inline chat"],
  ['runSubagent', "hands the task to VS Code's own chat agent (Copilot), which this window may not have"],
  ['vscode_editFile_internal', "VS Code's chat edits only, refused to other extensions"],
]);

/** Whether a tool is one of an MCP server's. */
export function isMcpTool(tool: { name: string; tags?: readonly string[] }): boolean {
  return tool.tags?.includes(MCP_TAG) === true;
}

/** The source of each tool: its tag for MCP, the extension that declares it, else VS Code itself. */
export function sourceOf(
  tool: HostToolInfo & { tags?: readonly string[] },
  owners: ReadonlyMap<string, { id: string; label: string }>,
  servers: ReadonlyMap<string, string> = new Map(),
): HostToolSource {
  if (isMcpTool(tool)) return { kind: 'mcp', server: servers.get(tool.name) ?? mcpToolParts(tool.name).server };
  const owner = owners.get(tool.name);
  return owner ? { kind: 'extension', ...owner } : { kind: 'vscode' };
}

function groupKey(source: HostToolSource): string {
  if (source.kind === 'vscode') return '0';
  if (source.kind === 'extension') return `1 ${source.label.toLowerCase()} ${source.id}`;
  return `2 ${source.server}`;
}

function groupTitle(source: HostToolSource): string {
  if (source.kind === 'vscode') return 'VS Code';
  if (source.kind === 'extension') return `Extension: ${source.label}`;
  return `MCP server: ${source.server}`;
}

/** The usable tools in groups (VS Code first, then extensions, then MCP servers), each sorted by name. */
export function groupHostTools(
  tools: readonly (HostToolInfo & { tags?: readonly string[] })[],
  owners: ReadonlyMap<string, { id: string; label: string }>,
  /** Each MCP tool's configured server (mcpToolServers): the group says the name the user wrote. */
  servers: ReadonlyMap<string, string> = new Map(),
): HostToolGroup[] {
  const groups = new Map<string, HostToolGroup>();
  for (const info of tools) {
    if (HIDDEN_HOST_TOOLS.has(info.name)) continue;
    const source = sourceOf(info, owners, servers);
    const key = groupKey(source);
    let group = groups.get(key);
    if (!group) {
      group = { title: groupTitle(source), source, tools: [] };
      groups.set(key, group);
    }
    group.tools.push({ info, label: source.kind === 'mcp' ? mcpToolParts(info.name).tool : info.name });
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, group]) => group);
  for (const group of sorted) group.tools.sort((a, b) => a.label.localeCompare(b.label));
  return sorted;
}

/** A description as one short line for a picker row. */
export function shortDescription(description: string, maxChars = 160): string {
  const line = description.replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** What the MCP start-up gave: the MCP tools a run will offer, those it wanted but VS Code does not list, and whether the wait ran out. */
export interface McpReadiness {
  offered: readonly string[];
  missing: readonly string[];
  timedOutAfterMs?: number;
  /** Why the start failed (the command is missing, refused), when it did. */
  error?: string;
}

/** The sentence the session shows: the servers with their tools, and what is missing and what to do. */
export function mcpReadinessNote(readiness: McpReadiness, servers: ReadonlyMap<string, string> = new Map()): string | undefined {
  const byServer = new Map<string, string[]>();
  for (const name of readiness.offered) {
    const parts = mcpToolParts(name);
    const server = servers.get(name) ?? parts.server;
    const { tool } = parts;
    byServer.set(server.slice(0, 40), [...(byServer.get(server.slice(0, 40)) ?? []), tool]);
  }
  const parts: string[] = [];
  if (byServer.size > 0) parts.push(`MCP tools for this session: ${[...byServer].map(([server, tools]) => `${server} (${listed(tools)})`).join('; ')}.`);
  if (readiness.missing.length > 0) {
    const why =
      readiness.error !== undefined
        ? `starting MCP servers failed: ${readiness.error.slice(0, 300)}`
        : readiness.timedOutAfterMs !== undefined
          ? `their servers did not start within ${Math.round(readiness.timedOutAfterMs / 1000)} s`
          : 'their servers list no such tools';
    parts.push(
      `Not available: ${listed(readiness.missing)} (${why}). Check the server with "MCP: List Servers" → Show Output, or choose again with "Gateway: Choose Agent Tools…".`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}
