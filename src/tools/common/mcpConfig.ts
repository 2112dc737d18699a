/**
 * The MCP servers a workspace configures (`.vscode/mcp.json`; `.mcp.json` at the root in VS Code 1.140 and later), read only for their names: "Choose
 * Agent Tools…" waits until each has listed its tools. VS Code learns of a server just written into
 * mcp.json a moment later than the file is there, and a start asked before that starts nothing: the
 * names say whom the listing is still waiting for. The file is the workspace's (hostile): bounded,
 * and anything unreadable gives no names, so no wait.
 */

import { MCP_NAME_START, mcpToolParts } from './mcpNames';

/** A larger mcp.json is not read (no names, no wait). */
export const MAX_MCP_CONFIG_BYTES = 64 * 1024;
/** Server names taken from one file at most. */
export const MAX_MCP_SERVERS = 64;

/** The server names of an mcp.json (JSON with comments and trailing commas, as VS Code reads it); none when it does not parse. */
export function configuredMcpServers(text: string): string[] {
  if (text.length > MAX_MCP_CONFIG_BYTES) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(plainJson(text));
  } catch {
    return [];
  }
  // `servers` in .vscode/mcp.json; `mcpServers` in a root .mcp.json (Claude Code's shape, which VS Code 1.140 reads too).
  const file = typeof parsed === 'object' && parsed !== null ? (parsed as { servers?: unknown; mcpServers?: unknown }) : {};
  const servers = file.servers ?? file.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return [];
  return Object.keys(servers).slice(0, MAX_MCP_SERVERS);
}

/** The first VS Code that reads `.mcp.json` at a workspace folder's root (and marks `.vscode/mcp.json` deprecated). */
export const ROOT_MCP_FILE_SINCE = [1, 140] as const;

/** Whether the VS Code of `version` (`vscode.version`, "1.140.0", "1.141.0-insider") starts the servers of a root `.mcp.json`. */
export function readsRootMcpFile(version: string): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > ROOT_MCP_FILE_SINCE[0] || (major === ROOT_MCP_FILE_SINCE[0] && minor >= ROOT_MCP_FILE_SINCE[1]);
}

/**
 * How VS Code names a server's tools: `mcp_<server>_<tool>`, the server's name lowercased, other
 * characters than `a-z 0-9 _ . -` as `_`, cut to 13 characters.
 */
export function mcpToolPrefix(server: string): string {
  return `mcp_${server
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, 13)}_`;
}

/**
 * The servers none of whose tools VS Code lists. A server that reports a name of its own has its tools under that
 * name (mcpToolServers): as many servers as there are prefixes no configured name claims count as listed.
 */
export function serversWithoutTools(servers: readonly string[], toolNames: readonly string[]): string[] {
  const without = servers.filter((server) => !toolNames.some((name) => name.startsWith(mcpToolPrefix(server))));
  const unclaimed = new Set(
    toolNames
      .filter((name) => name.startsWith(MCP_NAME_START) && !servers.includes(mcpToolParts(name, servers).server))
      .map((name) => mcpToolParts(name).server),
  );
  return without.slice(Math.min(without.length, unclaimed.size));
}

/** JSON with comments (line and block) and trailing commas made plain JSON; strings are left as they are. */
function plainJson(text: string): string {
  // Pieces, not one growing string: dropping a trailing comma looks back a few pieces, never copies the text.
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out.push(text.slice(i, end));
      i = end;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else {
      if (c === '}' || c === ']') dropTrailingComma(out);
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

/** Removes a comma that ends the pieces (white space after it allowed): a trailing comma before a closing bracket. */
function dropTrailingComma(out: string[]): void {
  let last = out.length - 1;
  while (last >= 0 && /^\s$/.test(out[last])) last--;
  if (last >= 0 && out[last] === ',') out.splice(last, 1);
}

/** The index just past the string that starts at `start` (its closing quote), escapes skipped. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}
