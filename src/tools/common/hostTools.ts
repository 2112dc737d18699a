/**
 * Tools of the host (in VS Code: those other extensions and MCP servers
 * contribute through `vscode.lm.tools`) offered to the agent's model. Only the
 * tools the user enabled, plus those referenced in the chat request, are
 * offered: every definition is sent with every request. Their names, schemas
 * and results come from other code, so each is checked and bounded here; the
 * host adapter only lists and invokes.
 */
import type { Clock } from '../../base/common';
import { headBytes, utf8Length } from '../../base/common';
import type { AgentTool, PreparedCall, ToolOutcome } from './tool';
import { type ApprovalMode } from '../../settings/common';
import { visibleText } from '../../base/common';
import { describeToolInput } from './toolInputDisplay';
import { HIDDEN_HOST_TOOLS, isMcpTool } from './hostToolCatalog';
import { modelToolName } from './mcpNames';

export { modelToolName };

/** What the host says about one of its tools. */
export interface HostToolInfo {
  name: string;
  description: string;
  inputSchema: unknown;
  /** The host's tags: `mcp` marks an MCP server's tool (VS Code confirms those itself). */
  tags?: readonly string[];
}

/** One part of a host tool's result: text, or data with its MIME type. */
export type HostResultPart = { kind: 'text'; text: string } | { kind: 'data'; mimeType: string; bytes: Uint8Array } | { kind: 'other' };

/** Calls the host tool named `hostName`; rejects when it fails. */
export type HostToolInvoker = (hostName: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<HostResultPart[]>;

export interface HostToolLimits {
  /** Tools offered at most (each costs bytes on every request). */
  maxTools: number;
  /** A description is cut to this many characters. */
  maxDescriptionChars: number;
  /** A tool whose input schema is larger (as JSON) is not offered. */
  maxSchemaBytes: number;
  /** The output the model reads, as for our own tools. */
  maxOutputBytes: number;
  /** A call that has not answered by then is given up (the model reads that it timed out). */
  timeoutMs: number;
}

export const DEFAULT_HOST_TOOL_LIMITS: HostToolLimits = {
  maxTools: 16,
  maxDescriptionChars: 1024,
  maxSchemaBytes: 8 * 1024,
  maxOutputBytes: 32 * 1024,
  timeoutMs: 60_000,
};

export interface SelectedHostTool {
  hostName: string;
  modelName: string;
  description: string;
  parameters: Record<string, unknown>;
  /** VS Code asks the user itself before it runs (an MCP server's tool): we do not ask a second time. */
  confirmedByHost: boolean;
}

export interface HostToolSelection {
  offered: SelectedHostTool[];
  /** Tools asked for but not offered, with why (for the log and the user). */
  skipped: { hostName: string; reason: string }[];
}

/**
 * The host tools to offer: those `enabled` (remembered per workspace) or
 * `referenced` in this request that the host still has, under names that
 * collide with no built-in tool and no other offered tool.
 */
export function selectHostTools(
  available: readonly HostToolInfo[],
  enabled: readonly string[],
  referenced: readonly string[],
  builtInNames: readonly string[],
  limits: HostToolLimits = DEFAULT_HOST_TOOL_LIMITS,
): HostToolSelection {
  const wanted = new Set([...referenced, ...enabled]);
  const taken = new Set(builtInNames);
  const offered: SelectedHostTool[] = [];
  const skipped: HostToolSelection['skipped'] = [];
  for (const hostName of wanted) {
    const info = available.find((tool) => tool.name === hostName);
    const modelName = modelToolName(hostName);
    const parameters = info && parametersOf(info.inputSchema, limits.maxSchemaBytes);
    let reason: string | undefined;
    if (!info) reason = 'no longer available';
    else if (HIDDEN_HOST_TOOLS.has(hostName)) reason = `it works only in VS Code's own chat (${HIDDEN_HOST_TOOLS.get(hostName)})`;
    else if (taken.has(modelName)) reason = `its name "${modelName}" is taken by ${builtInNames.includes(modelName) ? 'a built-in tool' : 'another tool'}`;
    else if (!parameters) reason = 'its input schema is not a JSON object schema of a reasonable size';
    else if (offered.length >= limits.maxTools) reason = `at most ${limits.maxTools} tools are offered`;
    if (reason !== undefined || !info || !parameters) {
      skipped.push({ hostName, reason: reason ?? 'unusable' });
      continue;
    }
    taken.add(modelName);
    const description = info.description.slice(0, limits.maxDescriptionChars);
    offered.push({ hostName, modelName, description, parameters, confirmedByHost: isMcpTool(info) });
  }
  return { offered, skipped };
}

/** The tool's schema as a function's parameters: an object schema, or none (no arguments). */
function parametersOf(schema: unknown, maxBytes: number): Record<string, unknown> | undefined {
  if (schema === undefined || schema === null) return { type: 'object', properties: {} };
  if (typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  let json: string;
  try {
    json = JSON.stringify(schema);
  } catch {
    return undefined;
  }
  if (utf8Length(json) > maxBytes) return undefined;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  if (parsed.type !== undefined && parsed.type !== 'object') return undefined;
  return { type: 'object', ...parsed };
}

/** `ask` and `auto-edit` always ask before a host tool runs; `auto` asks unless the user allowed that tool. */
export function hostToolNeedsApproval(mode: ApprovalMode, hostName: string, allowed: readonly string[]): boolean {
  return mode !== 'auto' || !allowed.includes(hostName);
}

/** The result as text for the model, bounded like our own tools' outputs. */
export function hostResultText(parts: readonly HostResultPart[], maxBytes: number): string {
  const texts = parts.map((part) => {
    if (part.kind === 'text') return part.text;
    if (part.kind === 'data') return readableData(part.mimeType, part.bytes);
    return '(a result part that is neither text nor data)';
  });
  const text = texts.join('\n') || '(the tool returned nothing)';
  const kept = headBytes(text, maxBytes);
  return kept.length < text.length ? `${kept}\n(output cut: ${utf8Length(text) - utf8Length(kept)} more bytes omitted)` : kept;
}

function readableData(mimeType: string, bytes: Uint8Array): string {
  if (/^text\/|[/+]json$|[/+]xml$/i.test(mimeType)) return new TextDecoder().decode(bytes.subarray(0, 1024 * 1024));
  return `(${mimeType.slice(0, 100)} data, ${bytes.length} bytes, not shown)`;
}

export interface HostToolOptions {
  invoke: HostToolInvoker;
  clock: Clock;
  /** The host tools the user allowed to run without asking under `auto`, read when a call comes. */
  allowed: () => readonly string[];
  limits?: HostToolLimits;
}

/** A selected host tool as one of the agent's tools. */
export function hostAgentTool(tool: SelectedHostTool, options: HostToolOptions): AgentTool {
  const limits = options.limits ?? DEFAULT_HOST_TOOL_LIMITS;
  return {
    name: tool.modelName,
    description: tool.description,
    kind: 'external',
    parameters: tool.parameters,
    // An MCP tool's call is confirmed by VS Code (in the chat with the request's token, else its own dialog), as in its own chat.
    needsApproval: (mode) => !tool.confirmedByHost && hostToolNeedsApproval(mode, tool.hostName, options.allowed()),
    prepare: (rawArgs) => Promise.resolve(prepareHostCall(tool, rawArgs, options, limits)),
  };
}

function prepareHostCall(tool: SelectedHostTool, rawArgs: unknown, options: HostToolOptions, limits: HostToolLimits): PreparedCall {
  const input = inputObject(rawArgs);
  // The tool may do anything with its input: the approval shows its start and end, and the whole of it one action away.
  const display = describeToolInput(rawArgs);
  const summary = `Use ${visibleText(tool.hostName)} with ${display.summary}`;
  if (!input) {
    const message = `Invalid arguments for ${tool.modelName}: send one JSON object with the parameters the tool describes.`;
    return { summary, refusal: message, execute: () => Promise.resolve({ ok: false, output: message }) };
  }
  const fullInput = { tool: tool.hostName, text: display.full, chars: display.chars, complete: display.complete };
  return { summary, input: fullInput, execute: (signal) => invokeBounded(tool, input, options, limits, signal) };
}

function inputObject(rawArgs: unknown): Record<string, unknown> | undefined {
  let value = rawArgs;
  if (typeof rawArgs === 'string') {
    try {
      value = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Runs the call within the time limit; whatever happens, the model gets a sentence it can read. Never rejects. */
async function invokeBounded(
  tool: SelectedHostTool,
  input: Record<string, unknown>,
  options: HostToolOptions,
  limits: HostToolLimits,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await Promise.race([
      options.invoke(tool.hostName, input, controller.signal),
      options.clock.sleep(limits.timeoutMs, controller.signal).then(() => 'timed out' as const),
    ]);
    if (result === 'timed out')
      return {
        ok: false,
        output: `${tool.modelName} did not answer within ${Math.round(limits.timeoutMs / 1000)} s and was given up. Try another way, or ask the user.`,
      };
    return { ok: true, output: hostResultText(result, limits.maxOutputBytes) };
  } catch (error) {
    if (signal.aborted) return { ok: false, output: 'Stopped: the user cancelled this call before it finished.' };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, output: `${tool.modelName} failed: ${message.slice(0, 2000)}` };
  } finally {
    signal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
