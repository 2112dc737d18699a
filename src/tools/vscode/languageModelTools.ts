/**
 * VS Code's language-model tools (other extensions', and those of the MCP
 * servers the user configured) for the agent: listed through `vscode.lm.tools`,
 * called through `vscode.lm.invokeTool`. Which ones are offered is the user's
 * choice ("Gateway: Choose Agent Tools…"), remembered per workspace; the core
 * checks names, schemas and results (tools/common/hostTools.ts) and groups them
 * for the picker (tools/common/hostToolCatalog.ts).
 */
import * as vscode from 'vscode';
import { hostAgentTool, selectHostTools, type HostResultPart, type HostToolInfo } from '../common/hostTools';
import { groupHostTools, HIDDEN_HOST_TOOLS, isMcpTool, mcpReadinessNote, shortDescription, type HostToolGroup } from '../common/hostToolCatalog';
import { MCP_START_TIMEOUT_MS } from '../common/mcpStart';
import type { Clock, Logger } from '../../base/common';
import { toAbortSignal } from '../../base/vscode';
import type { AgentTool } from '../common/tool';
import { configuredServersOfTools, liveMcpTools, looksLikeMcpTool, refreshRootMcpServers, startMcpServers, workspaceMcpServers } from './mcpServers';

const ENABLED_KEY = 'gateway.agent.enabledTools';

/** The tools VS Code has now. */
export function availableHostTools(): HostToolInfo[] {
  return vscode.lm.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, tags: tool.tags }));
}

/** The names of the tools the user enabled for this workspace. */
export function enabledHostTools(state: vscode.Memento): string[] {
  const value = state.get<unknown>(ENABLED_KEY);
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

/** Which extension declares each tool (`contributes.languageModelTools` of its package.json), and the name a prompt references it by. */
function toolOwners(): Map<string, { id: string; label: string; referenceName?: string }> {
  const owners = new Map<string, { id: string; label: string; referenceName?: string }>();
  for (const extension of vscode.extensions.all) {
    const json = extension.packageJSON as { displayName?: unknown; contributes?: { languageModelTools?: unknown } } | undefined;
    const declared = json?.contributes?.languageModelTools;
    if (!Array.isArray(declared)) continue;
    const label = typeof json?.displayName === 'string' && json.displayName !== '' ? json.displayName : extension.id;
    for (const tool of declared as { name?: unknown; toolReferenceName?: unknown }[]) {
      if (typeof tool?.name !== 'string') continue;
      const referenceName = typeof tool.toolReferenceName === 'string' ? { referenceName: tool.toolReferenceName } : {};
      owners.set(tool.name, { id: extension.id, label, ...referenceName });
    }
  }
  return owners;
}

/**
 * VS Code's tools as a custom agent's file may grant them (agent/common/engine/hostGrants.ts): every tool VS Code
 * lists but those that work only in its own chat, each marked enabled or not in "Choose Agent Tools…".
 * In an untrusted workspace none: no host tool is offered there.
 */
export function grantableHostTools(state: vscode.Memento | undefined): { name: string; mcp: boolean; referenceName?: string; enabled: boolean }[] {
  if (!vscode.workspace.isTrusted) return [];
  const enabled = new Set(state ? enabledHostTools(state) : []);
  const owners = toolOwners();
  const servers = configuredServersOfTools();
  return vscode.lm.tools
    .filter((tool) => !HIDDEN_HOST_TOOLS.has(tool.name))
    .map((tool) => {
      const referenceName = owners.get(tool.name)?.referenceName;
      const server = servers.get(tool.name);
      return {
        name: tool.name,
        mcp: isMcpTool(tool),
        ...(referenceName !== undefined ? { referenceName } : {}),
        ...(server !== undefined ? { server } : {}),
        enabled: enabled.has(tool.name),
      };
    });
}

/**
 * "Gateway: Choose Agent Tools…": the configured MCP servers started first (bounded, with progress),
 * then a multi-select of VS Code's tools grouped by where they come from, remembered per workspace.
 * Given a list of tool names (a keybinding's or a test's arguments), it enables exactly those that
 * exist once the servers are up, without asking.
 */
export async function chooseHostTools(state: vscode.Memento, clock: Clock, names?: unknown): Promise<void> {
  const wanted = Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : undefined;
  const wantedMcp = (wanted ?? []).filter(looksLikeMcpTool);
  // Listing: every server, each of the workspace's until it lists its tools, so the picker shows them. Given names: only when some are MCP tools.
  const servers = wanted ? [] : await workspaceMcpServers();
  const started =
    wanted && wantedMcp.length === 0
      ? {}
      : await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Gateway: starting MCP servers to list their tools…', cancellable: true },
          (_progress, token) => startMcpServers({ wanted: wantedMcp, servers, clock, signal: toAbortSignal(token) }),
        );
  const tools = availableHostTools();
  if (wanted) {
    await state.update(
      ENABLED_KEY,
      tools.map((tool) => tool.name).filter((name) => wanted.includes(name)),
    );
    return;
  }
  const groups = groupHostTools(tools, toolOwners(), configuredServersOfTools());
  if (groups.length === 0) {
    void vscode.window.showInformationMessage(
      'VS Code has no language-model tools to offer (install an extension that contributes some, or configure an MCP server).',
    );
    return;
  }
  const note = 'timedOutAfterMs' in started ? ` Some MCP servers did not start within ${MCP_START_TIMEOUT_MS / 1000} s: their tools are missing.` : '';
  const picked = await vscode.window.showQuickPick(pickerItems(groups, new Set(enabledHostTools(state))), {
    canPickMany: true,
    matchOnDescription: true,
    title: 'Tools the Gateway agent may use in this workspace',
    placeHolder: `Each tool is sent with every request: pick the ones you need.${note}`,
  });
  if (!picked) return;
  await state.update(
    ENABLED_KEY,
    picked.flatMap((item) => (item.toolName ? [item.toolName] : [])),
  );
}

type ToolItem = vscode.QuickPickItem & { toolName?: string };

/** One separator per source, then its tools: the short name, the full id, the description's first line. */
function pickerItems(groups: readonly HostToolGroup[], enabled: ReadonlySet<string>): ToolItem[] {
  return groups.flatMap((group): ToolItem[] => [
    { label: group.title, kind: vscode.QuickPickItemKind.Separator },
    ...group.tools.map(({ info, label }) => ({
      label,
      description: label === info.name ? undefined : info.name,
      detail: shortDescription(info.description),
      picked: enabled.has(info.name),
      toolName: info.name,
    })),
  ]);
}

export interface HostToolsRequest {
  state: vscode.Memento;
  /** The tools the chat request names (`#tool`). */
  referenced: readonly string[];
  builtIns: readonly AgentTool[];
  /** The host tools the user allowed to run without asking under `auto`. */
  allowed: () => readonly string[];
  clock: Clock;
  logger: Logger;
  /** The chat request's token: VS Code then shows its confirmations in that chat, not in a dialog. */
  toolInvocationToken?: vscode.ChatParticipantToolToken;
}

/** The enabled and referenced host tools as agent tools, or none in an untrusted workspace (they may do anything). */
export function hostToolsFor(request: HostToolsRequest): AgentTool[] {
  if (!vscode.workspace.isTrusted) return [];
  const { state, referenced, builtIns, allowed, clock, logger, toolInvocationToken } = request;
  const selection = selectHostTools(
    availableHostTools(),
    enabledHostTools(state),
    referenced,
    builtIns.map((tool) => tool.name),
  );
  for (const skipped of selection.skipped) logger.warn(`agent tool ${skipped.hostName} is not offered: ${skipped.reason}`);
  const invoke = (hostName: string, input: Record<string, unknown>, signal: AbortSignal) => invokeHostTool(hostName, input, toolInvocationToken, signal);
  return selection.offered.map((tool) => hostAgentTool(tool, { invoke, clock, allowed }));
}

/**
 * Before a run: the MCP tools it wants (enabled or referenced) whose servers are not running are
 * started, bounded; the sentence to show says which servers and tools the run has, and what is missing.
 */
export async function prepareMcpTools(state: vscode.Memento, referenced: readonly string[], clock: Clock, signal: AbortSignal): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) return undefined;
  const wanted = [...new Set([...enabledHostTools(state), ...referenced])].filter(looksLikeMcpTool);
  if (wanted.length === 0) return undefined;
  await refreshRootMcpServers();
  const live = new Set(liveMcpTools());
  if (wanted.every((name) => live.has(name))) return mcpReadinessNote({ offered: wanted, missing: [] }, configuredServersOfTools());
  const readiness = await startMcpServers({ wanted, clock, signal });
  return mcpReadinessNote(readiness, configuredServersOfTools());
}

async function invokeHostTool(
  hostName: string,
  input: Record<string, unknown>,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  signal: AbortSignal,
): Promise<HostResultPart[]> {
  const cancellation = new vscode.CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // With the chat request's token VS Code asks in that chat; a palette session has none, and VS Code asks in a dialog.
    const result = await vscode.lm.invokeTool(hostName, { input, toolInvocationToken }, cancellation.token);
    return result.content.map(resultPart);
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancellation.dispose();
  }
}

/** By shape for data parts: LanguageModelDataPart is newer than the API this extension targets. */
function resultPart(part: unknown): HostResultPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (typeof part === 'object' && part !== null) {
    const { mimeType, data, value } = part as { mimeType?: unknown; data?: unknown; value?: unknown };
    if (typeof mimeType === 'string' && data instanceof Uint8Array) return { kind: 'data', mimeType, bytes: data };
    if (typeof value === 'string') return { kind: 'text', text: value };
  }
  return { kind: 'other' };
}
