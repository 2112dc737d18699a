/**
 * The MCP servers the user configured (`.vscode/mcp.json`, the user's `mcp.json`, extensions'
 * providers), started for the agent: VS Code starts them only for its own chat. Through the
 * command VS Code's own MCP views use (`workbench.mcp.startServer` with `'*'`, waiting for live
 * tools): VS Code asks before a server it does not trust yet runs, as it does for its chat.
 */
import * as vscode from 'vscode';
import type { Clock } from '../../base/common';
import { isMcpTool, type McpReadiness } from '../common/hostToolCatalog';
import { MCP_ATTEMPT_GAP_MS, waitForMcpTools } from '../common/mcpStart';
import { configuredMcpServers, MAX_MCP_CONFIG_BYTES, MAX_MCP_SERVERS, readsRootMcpFile, serversWithoutTools } from '../common/mcpConfig';
import { mcpToolServers } from '../common/mcpNames';

/** The MCP tools VS Code lists now. */
export function liveMcpTools(): string[] {
  return vscode.lm.tools.filter(isMcpTool).map((tool) => tool.name);
}

/** Whether a tool name is VS Code's name for an MCP tool (it may not be listed: its server is not running). */
export function looksLikeMcpTool(name: string): boolean {
  return name.startsWith('mcp_');
}

export interface McpStartRequest {
  /** The MCP tools the caller needs; none: one start of every server. */
  wanted: readonly string[];
  /** Servers to wait for until each lists a tool (the workspace's mcp.json names them: a listing needs them all). */
  servers?: readonly string[];
  clock: Clock;
  signal: AbortSignal;
  timeoutMs?: number;
}

/** Starts every configured MCP server and waits, bounded, until VS Code lists the `wanted` tools. Never rejects. */
export async function startMcpServers({ wanted, servers = [], clock, signal, timeoutMs }: McpStartRequest): Promise<McpReadiness> {
  const listed = () => new Set(vscode.lm.tools.map((tool) => tool.name));
  const result = await waitForMcpTools({
    start: async () => {
      // Only the servers VS Code knows now start: one just written into mcp.json is known a moment later.
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    },
    missing: () => [...wanted.filter((name) => !listed().has(name)), ...serversWithoutTools(servers, liveMcpTools())],
    // VS Code reads .vscode/mcp.json as its `mcp` configuration: a server it does not know yet is known once that lists it.
    beforeNextStart: (deadline) => (configuredServersKnown(servers) ? clock.sleep(MCP_ATTEMPT_GAP_MS, deadline) : untilMcpConfigurationChanges(deadline)),
    clock,
    signal,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  const live = listed();
  return { ...result, missing: wanted.filter((name) => !live.has(name)), offered: wanted.filter((name) => live.has(name)) };
}

/** Whether VS Code's `mcp` configuration (what its MCP servers come from) lists every one of `servers`. */
function configuredServersKnown(servers: readonly string[]): boolean {
  const known = new Set(configuredMcpServerNames());
  return servers.every((server) => known.has(server));
}

/**
 * The server names of each folder's root `.mcp.json` as last read (workspaceMcpServers, refreshRootMcpServers): they
 * are not in the `mcp` configuration, and the pairing of tools with names is synchronous.
 */
let rootMcpServerNames: readonly string[] = [];

/** The server names of VS Code's `mcp` configuration: the user's and each workspace folder's (`.vscode/mcp.json`), and the root `.mcp.json`'s. */
function configuredMcpServerNames(): string[] {
  const known = new Set<string>(rootMcpServerNames);
  for (const scope of [undefined, ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri)]) {
    const value = vscode.workspace.getConfiguration('mcp', scope).get<unknown>('servers');
    if (typeof value === 'object' && value !== null) for (const name of Object.keys(value).slice(0, MAX_MCP_SERVERS)) known.add(name);
  }
  return [...known];
}

/** Each listed MCP tool's configured server (the name the user wrote), where it can be told (mcpToolServers). */
export function configuredServersOfTools(): Map<string, string> {
  return mcpToolServers(liveMcpTools(), configuredMcpServerNames());
}

/** Resolves at the next change of the `mcp` configuration (a server added to mcp.json); rejects when `signal` aborts. */
function untilMcpConfigurationChanges(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      listener.dispose();
      signal.removeEventListener('abort', onAbort);
    };
    const listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('mcp')) return;
      done();
      resolve();
    });
    const onAbort = () => {
      done();
      reject(new Error('aborted'));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The server names of each workspace folder's `.vscode/mcp.json`, and of its root `.mcp.json` where this VS Code reads
 * one (1.140 and later); none for a missing, oversized or malformed file.
 */
export async function workspaceMcpServers(): Promise<string[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const names = await Promise.all(folders.map((folder) => serversIn(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'))));
  return [...new Set([...names.flat(), ...(await refreshRootMcpServers())])];
}

/** Reads the root `.mcp.json` files again (when this VS Code reads them), for the pairing of tools with the names the user wrote. */
export async function refreshRootMcpServers(): Promise<readonly string[]> {
  if (!readsRootMcpFile(vscode.version)) return (rootMcpServerNames = []);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const names = await Promise.all(folders.map((folder) => serversIn(vscode.Uri.joinPath(folder.uri, '.mcp.json'))));
  return (rootMcpServerNames = [...new Set(names.flat())]);
}

async function serversIn(file: vscode.Uri): Promise<string[]> {
  try {
    if ((await vscode.workspace.fs.stat(file)).size > MAX_MCP_CONFIG_BYTES) return [];
    return configuredMcpServers(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
  } catch {
    return [];
  }
}
