/**
 * A custom agent's or prompt file's grant of VS Code's tools (other
 * extensions', MCP servers'), in the forms the files carry: Copilot's
 * `.agent.md` names an MCP server's tools as `github/*` or `github/create_issue`,
 * a whole server or tool set by its name (`github`), an extension's tool by its
 * reference name (`fetch`); Claude Code's `.claude/agents` as
 * `mcp__github__create_issue` or `mcp__github`; either may give VS Code's own
 * name (`mcp_github_create_issue`). A grant only narrows: what is offered is
 * still only what the user enabled in "Choose Agent Tools…" (agentTools.ts).
 */
import { mcpToolParts, mcpToolsOfServer } from '../../../tools/common';
import type { GrantableHostTool } from './agentTools';

/** Claude Code's `mcp__<server>__<tool>` or `mcp__<server>` (the server up to the first `__`). */
const CLAUDE_MCP = /^mcp__(.+?)(?:__(.+))?$/;
/** Copilot's `<server or tool set>/<tool or *>`. */
const QUALIFIED = /^([^/]+)\/([^/]+)$/;

/** The server names a list gives (`github` of `github/*`, of `mcp__github__x`, a bare name): they decide which server a name is. */
export function serversNamed(names: readonly string[]): string[] {
  const servers = new Set<string>();
  for (const raw of names) {
    const name = raw.trim();
    const server = CLAUDE_MCP.exec(name)?.[1] ?? QUALIFIED.exec(name)?.[1] ?? name;
    if (server !== '' && server !== '*') servers.add(server);
  }
  return [...servers];
}

/** VS Code's tools a name grants; none when it names none of them. */
export function hostToolsOfName(name: string, host: readonly GrantableHostTool[], servers: readonly string[]): string[] {
  if (host.some((tool) => tool.name === name)) return [name];
  const claude = CLAUDE_MCP.exec(name);
  if (claude) return ofServer(host, claude[1], claude[2], servers);
  const qualified = QUALIFIED.exec(name);
  if (qualified) {
    const [, server, tool] = qualified;
    const ofServerNamed = ofServer(host, server, tool !== '*' ? tool : undefined, servers);
    // `<extension>/<tool>`: an extension's tool qualified by where it comes from.
    return ofServerNamed.length > 0 || tool === '*' ? ofServerNamed : referenced(tool, host);
  }
  const byReference = referenced(name, host);
  return byReference.length > 0 ? byReference : ofServer(host, name, undefined, servers);
}

/**
 * The MCP tools a qualified name grants (`server/*`, `server/tool`, `mcp__server__tool`), none when it names no
 * server's: a server's tool named like one of ours (`filesystem/read_file`) is the server's, not ours.
 */
export function mcpToolsOfName(name: string, host: readonly GrantableHostTool[], servers: readonly string[]): string[] {
  const claude = CLAUDE_MCP.exec(name);
  if (claude) return ofServer(host, claude[1], claude[2], servers);
  const qualified = QUALIFIED.exec(name);
  return qualified ? ofServer(host, qualified[1], qualified[2] !== '*' ? qualified[2] : undefined, servers) : [];
}

/**
 * An MCP server's tools (or one of them) by either of its names: the one VS Code's tool names carry (the server's
 * own) or the mcp.json key the user wrote, which VS Code's names may not show (`filesystem`, whose server calls
 * itself `secure-filesystem-server`).
 */
function ofServer(host: readonly GrantableHostTool[], server: string, tool: string | undefined, servers: readonly string[]): string[] {
  const mcp = host.filter((candidate) => candidate.mcp);
  const byToolName = mcpToolsOfServer(
    mcp.map((candidate) => candidate.name),
    server,
    { servers, ...(tool !== undefined ? { tool } : {}) },
  );
  const plain = (value: string) => value.replace(/\./g, '_');
  const byConfiguredName = mcp
    .filter((candidate) => candidate.server === server && (tool === undefined || plain(mcpToolParts(candidate.name).tool) === plain(tool)))
    .map((candidate) => candidate.name);
  return [...new Set([...byToolName, ...byConfiguredName])];
}

/** The tools whose reference name (`#fetch`) or name is this, exactly or else in any case. */
function referenced(name: string, host: readonly GrantableHostTool[]): string[] {
  const exact = host.filter((tool) => tool.referenceName === name || tool.name === name);
  if (exact.length > 0) return exact.map((tool) => tool.name);
  const lower = name.toLowerCase();
  return host.filter((tool) => tool.referenceName?.toLowerCase() === lower || tool.name.toLowerCase() === lower).map((tool) => tool.name);
}
