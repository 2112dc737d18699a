/**
 * Reads a saved session file's JSON back into a session. The file may be
 * damaged (`null`, `{}`, a cut write from an older build) or from an older
 * format (no `usage`, no `originals`): one bad file must not break the list,
 * the Sessions view or recovery, so a file that is not a session at all gives
 * undefined, and a session with missing or malformed parts gets defaults.
 */
import { parseSessionWorktree } from './sessionWorktree';
import type { SessionAgent } from './sessionState';
import type { ResponseInputItem, ToolCall } from '../../gateway/common';
import { parsePlan } from '../../tools/common';
import type { AgentSessionState, Compaction, OriginalFile, SessionStatus, SessionUsage, SubagentRecord } from './sessionState';

const STATUSES: readonly SessionStatus[] = ['running', 'awaiting_approval', 'paused', 'stopped', 'done'];
const ROLES = ['user', 'assistant', 'system', 'developer'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function listOf<T>(value: unknown, keep: (item: unknown) => item is T): T[] {
  return Array.isArray(value) ? value.filter(keep) : [];
}

function isInputItem(item: unknown): item is ResponseInputItem {
  if (!isObject(item)) return false;
  if (item.type === 'function_call') return typeof item.call_id === 'string' && typeof item.name === 'string' && typeof item.arguments === 'string';
  if (item.type === 'function_call_output') return typeof item.call_id === 'string' && typeof item.output === 'string';
  return (item.type === undefined || item.type === 'message') && ROLES.includes(item.role as string) && typeof item.content === 'string';
}

function isToolCall(item: unknown): item is ToolCall {
  return isObject(item) && typeof item.callId === 'string' && typeof item.name === 'string' && typeof item.arguments === 'string';
}

/** A recorded file: `{ path, existed }`, or as older versions saved it, `{ path, before }` with its content then (null or absent: no file). */
function originalOf(item: unknown): OriginalFile | undefined {
  if (!isObject(item) || typeof item.path !== 'string') return undefined;
  // The text may also come with `existed`: an older session saved again before it was migrated.
  if (typeof item.before === 'string') return { path: item.path, existed: true, before: item.before };
  if (typeof item.existed === 'boolean') return { path: item.path, existed: item.existed };
  return item.before === undefined || item.before === null ? { path: item.path, existed: false } : undefined;
}

function usageOf(value: unknown): SessionUsage {
  const usage = isObject(value) ? value : {};
  return {
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    reasoningTokens: count(usage.reasoningTokens),
    totalTokens: count(usage.totalTokens),
  };
}

function lastCallOf(value: unknown): AgentSessionState['lastCall'] {
  return isObject(value) && typeof value.signature === 'string' ? { signature: value.signature, repeats: count(value.repeats) } : undefined;
}

function isCompaction(item: unknown): item is Compaction {
  return (
    isObject(item) &&
    typeof item.atItem === 'number' &&
    typeof item.before === 'number' &&
    typeof item.after === 'number' &&
    (item.how === 'summary' || item.how === 'trim') &&
    (item.summary === undefined || typeof item.summary === 'string')
  );
}

/** A sub-session's record, its lists and texts bounded (the file may have been edited): undefined when it is not one. */
function subagentOf(item: unknown): SubagentRecord | undefined {
  if (!isObject(item) || typeof item.task !== 'string' || !STATUSES.includes(item.status as SessionStatus)) return undefined;
  return {
    task: item.task.slice(0, 4000),
    atItem: count(item.atItem),
    // Saved while it ran: the window closed under it, so it ended there.
    status: item.status === 'running' ? 'paused' : (item.status as SessionStatus),
    ...(typeof item.reason === 'string' ? { reason: item.reason.slice(0, 1000) } : {}),
    steps: listOf(item.steps, (step): step is string => typeof step === 'string')
      .slice(0, 40)
      .map((step) => step.slice(0, 300)),
    turns: count(item.turns),
    tokens: count(item.tokens),
  };
}

function subagentsOf(value: unknown): SubagentRecord[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .slice(0, 8)
    .map(subagentOf)
    .filter((record): record is SubagentRecord => record !== undefined);
}

/** The chain fields, only when they are consistent with the transcript: otherwise the chain is the whole transcript. */
function chainOf(json: Json, transcriptLength: number): Pick<AgentSessionState, 'chainBase' | 'chainFrom'> {
  if (!Array.isArray(json.chainBase) || typeof json.chainFrom !== 'number') return {};
  const chainFrom = json.chainFrom;
  if (!Number.isInteger(chainFrom) || chainFrom < 0 || chainFrom > transcriptLength) return {};
  return { chainBase: listOf(json.chainBase, isInputItem), chainFrom };
}

function sentInstructionsOf(value: unknown): AgentSessionState['projectInstructions'] {
  if (!isObject(value)) return undefined;
  const isString = (f: unknown): f is string => typeof f === 'string';
  return {
    files: listOf(value.files, isString),
    bytes: count(value.bytes),
    ...optional('skills', Array.isArray(value.skills) ? listOf(value.skills, isString) : undefined),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The session in `json`, with defaults for what is missing; undefined when it has no string id or no known status. */
export function parseSavedSession(json: unknown): AgentSessionState | undefined {
  if (!isObject(json) || typeof json.id !== 'string' || json.id === '' || !STATUSES.includes(json.status as SessionStatus)) return undefined;
  const createdAt = count(json.createdAt);
  const transcript = listOf(json.transcript, isInputItem);
  return {
    id: json.id,
    title: text(json.title, json.id),
    model: text(json.model),
    createdAt,
    updatedAt: count(json.updatedAt) || createdAt,
    status: json.status as SessionStatus,
    statusReason: typeof json.statusReason === 'string' ? json.statusReason : undefined,
    previousResponseId: typeof json.previousResponseId === 'string' ? json.previousResponseId : undefined,
    transcript,
    unsent: listOf(json.unsent, isInputItem),
    pendingCalls: listOf(json.pendingCalls, isToolCall),
    turns: count(json.turns),
    usage: usageOf(json.usage),
    activeMs: count(json.activeMs),
    originals: Array.isArray(json.originals) ? json.originals.map(originalOf).filter((o): o is OriginalFile => o !== undefined) : [],
    commandsRun: listOf(json.commandsRun, (c): c is string => typeof c === 'string'),
    lastCall: lastCallOf(json.lastCall),
    rootUri: typeof json.rootUri === 'string' ? json.rootUri : undefined,
    ...chainOf(json, transcript.length),
    contextTokens: count(json.contextTokens) || undefined,
    contextWindow: count(json.contextWindow) || undefined,
    compacting: isObject(json.compacting) ? { before: count(json.compacting.before) } : undefined,
    compactions: Array.isArray(json.compactions) ? listOf(json.compactions, isCompaction).map((c) => ({ ...c, at: count(c.at) })) : undefined,
    projectInstructions: sentInstructionsOf(json.projectInstructions),
    plan: parsePlan(json.plan),
    ...optional('subagents', subagentsOf(json.subagents)),
    agent: parseSessionAgent(json.agent),
    ...optional('worktree', parseSessionWorktree(json.worktree, json.id)),
  };
}

/** Parses a session file's text; undefined for text that is not JSON or not a session. */
export function parseSavedSessionText(raw: string): AgentSessionState | undefined {
  try {
    return parseSavedSession(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** A saved session's agent, checked: undefined for anything malformed (the session then runs as it was saved without one). */
export function parseSessionAgent(value: unknown): SessionAgent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if ((record.kind !== 'agent' && record.kind !== 'prompt' && record.kind !== 'plan') || typeof record.name !== 'string' || typeof record.path !== 'string')
    return undefined;
  const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : undefined);
  const tools = strings(record.tools);
  const unknownTools = strings(record.unknownTools);
  const notEnabledTools = strings(record.notEnabledTools);
  return {
    kind: record.kind,
    name: record.name,
    path: record.path,
    ...(typeof record.instructions === 'string' ? { instructions: record.instructions } : {}),
    // A saved list that is not a list limits to nothing rather than widening to everything.
    ...(record.tools !== undefined ? { tools: tools ?? [] } : {}),
    ...(unknownTools?.length ? { unknownTools } : {}),
    ...(notEnabledTools?.length ? { notEnabledTools } : {}),
    ...(typeof record.model === 'string' ? { model: record.model } : {}),
  };
}
