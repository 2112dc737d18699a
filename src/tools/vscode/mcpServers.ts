/**
 * The MCP servers the user configured (`.vscode/mcp.json`, the user's `mcp.json`, extensions'
 * providers), started for the agent: VS Code starts them only for its own chat. Through the
 * command VS Code's own MCP views use (`workbench.mcp.startServer` with `'*'`, waiting for live
 * tools): VS Code asks before a server it does not trust yet runs, as it does for its chat.
 */
import * as vscode from 'vscode';
import type { Clock } from '../../base/common';
import { isMcpTool, type McpReadiness } from '../common/hostToolCatalog';
import { waitForMcpTools } from '../common/mcpStart';

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
  clock: Clock;
  signal: AbortSignal;
  timeoutMs?: number;
}

/** Starts every configured MCP server and waits, bounded, until VS Code lists the `wanted` tools. Never rejects. */
export async function startMcpServers({ wanted, clock, signal, timeoutMs }: McpStartRequest): Promise<McpReadiness> {
  const listed = () => new Set(vscode.lm.tools.map((tool) => tool.name));
  const result = await waitForMcpTools({
    start: async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    },
    missing: () => wanted.filter((name) => !listed().has(name)),
    clock,
    signal,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  const live = listed();
  return { ...result, offered: wanted.filter((name) => live.has(name)) };
}
