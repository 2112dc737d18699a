/**
 * Names of host tools. VS Code names an MCP server's tools `mcp_<server>_<tool>`,
 * the server part its label lower-cased, runs of other characters than
 * `a-z 0-9 _ . -` as `_`, cut to 13 characters, with a digit added when two
 * servers would share it. A label may itself hold `_`, so `mcp_my_srv_x_y` is
 * the tool `x_y` of `my_srv` or `srv_x_y` of `my`: the name alone cannot tell,
 * and the server is read from the names the caller knows (a custom agent's
 * `my_srv/*`), the longest that fits winning; only when none fits is the first
 * part taken. The name the model sees is the host's when the API allows it
 * (`^[a-zA-Z0-9_-]{1,64}$`), else a bounded one with a hash of the whole, so
 * that two names never meet by being cut or cleaned alike.
 */

/** What OpenAI-compatible APIs accept as a function's name. */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_FUNCTION_NAME = 64;
/** VS Code's bound on `mcp_<server>_` (McpToolName.MaxPrefixLen). */
const MAX_PREFIX = 18;
export const MCP_NAME_START = 'mcp_';

/** The name the model sees for a host tool: the host's own when valid, else cleaned, cut and tagged with a hash of the whole. */
export function modelToolName(hostName: string): string {
  if (FUNCTION_NAME.test(hostName)) return hostName;
  const tag = `_${fnv1a(hostName).toString(36)}`;
  const cleaned = hostName.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `${cleaned.slice(0, MAX_FUNCTION_NAME - tag.length)}${tag}`;
}

/** FNV-1a over the UTF-16 units: short, stable across runs, spread enough to tell names apart. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The server part VS Code gives a server's tools (without the digit it adds on a clash). */
export function mcpServerPart(server: string): string {
  return server
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, MAX_PREFIX - MCP_NAME_START.length - 1);
}

/** `.` as `_`: VS Code writes a tool's dots as underscores in its name, and a file may give either. */
function plain(name: string): string {
  return name.replace(/\./g, '_');
}

/** The rest of `name` after the server's prefix (`mcp_<part>_` or `mcp_<part>2_`), or undefined when it is not that server's. */
function toolAfterServer(name: string, server: string): string | undefined {
  const part = plain(mcpServerPart(server));
  if (part === '') return undefined;
  const start = `${MCP_NAME_START}${part}`;
  const rest = plain(name);
  if (!rest.startsWith(start)) return undefined;
  const tail = /^\d*_(.+)$/.exec(rest.slice(start.length));
  return tail ? tail[1] : undefined;
}

/**
 * An MCP tool's server and short name. `servers`: the server names the caller knows; the one whose
 * prefix fits the longest decides (`my_srv` over `my` for `mcp_my_srv_x_y`). Without one, the first part.
 */
export function mcpToolParts(name: string, servers: readonly string[] = []): { server: string; tool: string } {
  let best: { server: string; tool: string; length: number } | undefined;
  for (const server of servers) {
    const tool = toolAfterServer(name, server);
    const length = mcpServerPart(server).length;
    if (tool !== undefined && (best === undefined || length > best.length)) best = { server, tool, length };
  }
  if (best) return { server: best.server, tool: best.tool };
  const match = /^mcp_([^_]+)_(.+)$/.exec(name);
  return match ? { server: match[1], tool: match[2] } : { server: 'unknown', tool: name };
}

/**
 * The MCP tools among `names` that are the server's (all of them, or only `tool` when given), not
 * those a longer server name of `servers` claims (a grant of `my` is not one of `my_srv`).
 */
export function mcpToolsOfServer(names: readonly string[], server: string, options: { tool?: string; servers?: readonly string[] } = {}): string[] {
  const known = [...new Set([server, ...(options.servers ?? [])])];
  return names.filter((name) => {
    const parts = toolAfterServer(name, server) !== undefined ? mcpToolParts(name, known) : undefined;
    if (parts === undefined || plain(mcpServerPart(parts.server)) !== plain(mcpServerPart(server))) return false;
    return options.tool === undefined || parts.tool === plain(options.tool);
  });
}

/**
 * Which configured server (an mcp.json key, as the user wrote it) each MCP tool is. VS Code names a server's tools
 * after the name the server reports of itself when it gives one, else the key: `filesystem` in mcp.json, whose
 * server calls itself `secure-filesystem-server`, has tools named `mcp_secure-filesy_…`. A tool whose prefix is a
 * configured name's is that server's; the rest go to a configured name without tools only when exactly one name and
 * one prefix are left (more would be a guess: those stay unpaired, and a grant by the server's own name still works).
 */
export function mcpToolServers(toolNames: readonly string[], configured: readonly string[]): Map<string, string> {
  const servers = new Map<string, string>();
  const unclaimed = new Map<string, string[]>();
  for (const name of toolNames) {
    if (!name.startsWith(MCP_NAME_START)) continue;
    const { server } = mcpToolParts(name, configured);
    if (configured.includes(server)) servers.set(name, server);
    else unclaimed.set(server, [...(unclaimed.get(server) ?? []), name]);
  }
  const claimed = new Set(servers.values());
  const withoutTools = configured.filter((server) => !claimed.has(server));
  if (withoutTools.length === 1 && unclaimed.size === 1) {
    for (const name of [...unclaimed.values()][0]) servers.set(name, withoutTools[0]);
  }
  return servers;
}
