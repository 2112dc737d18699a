/**
 * VS Code's language-model tools (other extensions', and those of the MCP
 * servers the user configured) for the agent: listed through `vscode.lm.tools`,
 * called through `vscode.lm.invokeTool`. Which ones are offered is the user's
 * choice ("Gateway: Choose Agent Tools…"), remembered per workspace; the core
 * checks names, schemas and results (tools/common/hostTools.ts).
 */
import * as vscode from 'vscode';
import { hostAgentTool, selectHostTools, type HostResultPart, type HostToolInfo } from '../common/hostTools';
import type { Clock, Logger } from '../../base/common';
import type { AgentTool } from '../common/tool';

const ENABLED_KEY = 'gateway.agent.enabledTools';

/** The tools VS Code has now. */
export function availableHostTools(): HostToolInfo[] {
  return vscode.lm.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** The names of the tools the user enabled for this workspace. */
export function enabledHostTools(state: vscode.Memento): string[] {
  const value = state.get<unknown>(ENABLED_KEY);
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * "Gateway: Choose Agent Tools…": a multi-select of VS Code's tools, remembered
 * per workspace. Given a list of tool names (a keybinding's or a test's
 * arguments), it enables exactly those that exist, without asking.
 */
export async function chooseHostTools(state: vscode.Memento, names?: unknown): Promise<void> {
  const tools = availableHostTools();
  if (Array.isArray(names)) {
    await state.update(
      ENABLED_KEY,
      tools.map((tool) => tool.name).filter((name) => names.includes(name)),
    );
    return;
  }
  if (tools.length === 0) {
    void vscode.window.showInformationMessage(
      'VS Code has no language-model tools to offer (install an extension that contributes some, or configure an MCP server).',
    );
    return;
  }
  const enabled = new Set(enabledHostTools(state));
  const picked = await vscode.window.showQuickPick(
    tools.map((tool) => ({ label: tool.name, detail: tool.description.slice(0, 200), picked: enabled.has(tool.name) })),
    {
      canPickMany: true,
      title: 'Tools the Gateway agent may use in this workspace',
      placeHolder: 'Each tool is sent with every request: pick the ones you need',
    },
  );
  if (!picked) return;
  await state.update(
    ENABLED_KEY,
    picked.map((item) => item.label),
  );
}

/** The enabled and referenced host tools as agent tools, or none in an untrusted workspace (they may do anything). */
export function hostToolsFor(
  state: vscode.Memento,
  referenced: readonly string[],
  builtIns: readonly AgentTool[],
  allowed: () => readonly string[],
  clock: Clock,
  logger: Logger,
): AgentTool[] {
  if (!vscode.workspace.isTrusted) return [];
  const selection = selectHostTools(
    availableHostTools(),
    enabledHostTools(state),
    referenced,
    builtIns.map((tool) => tool.name),
  );
  for (const skipped of selection.skipped) logger.warn(`agent tool ${skipped.hostName} is not offered: ${skipped.reason}`);
  return selection.offered.map((tool) => hostAgentTool(tool, { invoke: invokeHostTool, clock, allowed }));
}

async function invokeHostTool(hostName: string, input: Record<string, unknown>, signal: AbortSignal): Promise<HostResultPart[]> {
  const cancellation = new vscode.CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // No invocation token: the call is the session's, which may run outside a chat request.
    const result = await vscode.lm.invokeTool(hostName, { input, toolInvocationToken: undefined }, cancellation.token);
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
