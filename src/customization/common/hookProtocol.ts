/**
 * What a hook reads on stdin and what its answer means, in the format of the
 * agent its file was written for (Claude Code's, Codex's or Copilot's), so a hook that
 * works there works here. A hook never widens what the agent may do: its
 * "allow" is not an approval, only a "deny" or "block" counts.
 */
import type { HookCommand, HookEvent } from './hookConfig';

/** Claude Code's names of our tools, for matchers and `tool_name` (`Edit|Write`, `Bash`). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  edit_file: 'Edit',
  write_file: 'Write',
  run_command: 'Bash',
  read_file: 'Read',
  search_text: 'Grep',
  list_files: 'Glob',
};

export function claudeToolName(tool: string): string {
  return Object.hasOwn(CLAUDE_TOOL_NAMES, tool) ? CLAUDE_TOOL_NAMES[tool] : tool;
}

/** Codex's names of our tools: its shell tool is `Bash`, its file edits are `apply_patch` (matchers may also say `Edit|Write`). */
export const CODEX_TOOL_NAMES: Readonly<Record<string, string>> = { ...CLAUDE_TOOL_NAMES, edit_file: 'apply_patch', write_file: 'apply_patch' };

export function codexToolName(tool: string): string {
  return Object.hasOwn(CODEX_TOOL_NAMES, tool) ? CODEX_TOOL_NAMES[tool] : tool;
}

/** The names a matcher is tried against: the tool's own, Claude Code's and Codex's. */
export function matcherNames(tool: string): string[] {
  return [...new Set([tool, claudeToolName(tool), codexToolName(tool)])];
}

/** What happened, for a hook's stdin. */
export interface HookSituation {
  sessionId: string;
  /** Absolute workspace root. */
  root: string;
  tool?: { name: string; arguments: string };
  /** After the call. */
  result?: { ok: boolean; output: string };
  /** sessionStart: a new session or one continued. */
  source?: 'startup' | 'resume';
  /** userPromptSubmitted: what the user submitted. */
  prompt?: string;
  /** sessionEnd: why the run ended. */
  reason?: string;
  /** stop: whether a Stop hook already kept this run going (a hook reads it to let the session end at last). */
  stopHookActive?: boolean;
  /** stop: the model's final answer. */
  lastMessage?: string;
  now: number;
}

const CLAUDE_EVENT_NAMES: Record<HookEvent, string> = {
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  sessionStart: 'SessionStart',
  stop: 'Stop',
  sessionEnd: 'SessionEnd',
  // Only Copilot's files have this event here; the name is Claude Code's for the same moment.
  userPromptSubmitted: 'UserPromptSubmit',
};

/** The JSON a hook gets on stdin. */
export function hookInput(hook: HookCommand, situation: HookSituation): string {
  return JSON.stringify(hook.format === 'copilot' ? copilotInput(situation) : claudeInput(hook, situation));
}

/** Claude Code's input; Codex's is the same with its own tool names. */
function claudeInput(hook: HookCommand, situation: HookSituation): Record<string, unknown> {
  const { sessionId, root, tool, result, source, reason, prompt } = situation;
  const input: Record<string, unknown> = { session_id: sessionId, cwd: root, hook_event_name: CLAUDE_EVENT_NAMES[hook.event] };
  if (prompt !== undefined) input.prompt = prompt;
  if (tool) {
    input.tool_name = hook.format === 'codex' ? codexToolName(tool.name) : claudeToolName(tool.name);
    input.tool_input = claudeToolInput(tool.arguments, root);
  }
  if (result) input.tool_response = { success: result.ok, output: result.output };
  if (source) input.source = source;
  if (reason !== undefined) input.reason = reason;
  if (hook.event === 'stop') {
    input.stop_hook_active = situation.stopHookActive === true;
    if (situation.lastMessage !== undefined) input.last_assistant_message = situation.lastMessage;
  }
  return input;
}

/** The call's arguments, with `file_path` (absolute) beside `path`, as Claude Code's file tools name it. */
function claudeToolInput(rawArguments: string, root: string): Record<string, unknown> {
  const args = parsedArguments(rawArguments);
  if (typeof args.path === 'string' && !args.path.startsWith('/')) args.file_path = `${root}/${args.path}`;
  return args;
}

function copilotInput(situation: HookSituation): Record<string, unknown> {
  const { root, tool, result, source, reason, prompt, now } = situation;
  const input: Record<string, unknown> = { timestamp: now, cwd: root };
  if (prompt !== undefined) input.prompt = prompt;
  if (tool) {
    input.toolName = tool.name;
    input.toolArgs = tool.arguments;
  }
  if (result) input.toolResult = { resultType: result.ok ? 'success' : 'failure', textResultForLlm: result.output };
  if (source) input.source = source === 'startup' ? 'new' : 'resume';
  if (reason !== undefined) input.reason = reason;
  return input;
}

function parsedArguments(rawArguments: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(rawArguments);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  } catch {
    return {};
  }
}

/** How a hook process ended. */
export interface HookProcessResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * The error of a hook run whose stop could not confirm every process gone: its changes must not land unasked. Told
 * by a field, not a class: the host is built into a file of its own, whose copy of a class would not be this one.
 */
export function hookStillRunning(message: string): Error {
  return Object.assign(new Error(message), { hookStillRunning: true });
}

export function isHookStillRunning(error: unknown): error is Error {
  return error instanceof Error && (error as { hookStillRunning?: unknown }).hookStillRunning === true;
}

/** What a hook's answer means for the agent. */
export interface HookVerdict {
  /** Before a call: it must not run, for this reason (the model reads it). */
  refusal?: string;
  /** Text for the model: after a call, added to its result; at the session's start, context. */
  context?: string;
  /** At a stop: the session must not end yet; the model reads this and goes on (Claude Code's and Codex's Stop "block"). */
  continuation?: string;
  /** A problem of the hook itself (it failed, timed out, answered nonsense), for the log. */
  problem?: string;
}

/** The verdict of one hook's run (Claude Code and Codex: exit code 2 blocks with stderr; JSON on stdout on exit 0). */
export function hookVerdict(hook: HookCommand, result: HookProcessResult): HookVerdict {
  if (result.timedOut) return { problem: `timed out after ${hook.timeoutMs / 1000} s and was stopped` };
  if (result.exitCode === 2 && hook.format !== 'copilot') return exitTwo(hook.event, result.stderr.trim());
  if (result.exitCode !== 0)
    return { problem: `exited with ${result.exitCode ?? 'a signal'}${result.stderr.trim() ? `: ${result.stderr.trim().slice(0, 300)}` : ''}` };
  const answer = jsonAnswer(result.stdout);
  if (answer === undefined) {
    // Claude Code adds a SessionStart or UserPromptSubmit hook's plain output to the context; other plain output is for the user's log.
    const asContext = hook.event === 'sessionStart' || hook.event === 'userPromptSubmitted';
    return hook.format !== 'copilot' && asContext && result.stdout.trim() ? { context: result.stdout.trim() } : {};
  }
  return hook.format === 'copilot' ? copilotAnswer(hook.event, answer) : claudeAnswer(hook.event, answer);
}

const NO_REASON = 'a hook refused it (no reason given)';

function exitTwo(event: HookEvent, stderr: string): HookVerdict {
  if (event === 'preToolUse' || event === 'userPromptSubmitted') return { refusal: stderr || NO_REASON };
  if (event === 'postToolUse') return { context: stderr || NO_REASON };
  // As Codex: a Stop hook that blocks must say what is left to do, or the model could only guess.
  if (event === 'stop') return stderr ? { continuation: stderr } : { problem: 'exited with 2 to keep the session going, but wrote no reason on stderr' };
  return { problem: `exited with 2 (not acted on for ${CLAUDE_EVENT_NAMES[event]} here): ${stderr.slice(0, 300)}` };
}

function claudeAnswer(event: HookEvent, answer: Record<string, unknown>): HookVerdict {
  const specific = isRecord(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  const context = text(specific.additionalContext);
  const reason = text(answer.reason);
  if (event === 'preToolUse') {
    if (specific.permissionDecision === 'deny') return { refusal: text(specific.permissionDecisionReason) ?? reason ?? 'a hook refused it (no reason given)' };
    if (answer.decision === 'block') return { refusal: reason ?? 'a hook refused it (no reason given)' };
  }
  if (event === 'userPromptSubmitted' && answer.decision === 'block') return { refusal: reason ?? NO_REASON };
  if (event === 'postToolUse' && answer.decision === 'block') return { context: [reason, context].filter(Boolean).join('\n') || undefined };
  if (event === 'stop') return stopAnswer(answer, reason);
  return context === undefined ? {} : { context };
}

/** A Stop hook's JSON: `continue: false` lets the session end whatever else it says; `decision: "block"` with a reason keeps it going. */
function stopAnswer(answer: Record<string, unknown>, reason: string | undefined): HookVerdict {
  if (answer.continue === false || answer.decision !== 'block') return {};
  return reason === undefined ? { problem: 'answered "decision": "block" without a "reason"; the session ends' } : { continuation: reason };
}

function copilotAnswer(event: HookEvent, answer: Record<string, unknown>): HookVerdict {
  if (event === 'preToolUse' && answer.permissionDecision === 'deny')
    return { refusal: text(answer.permissionDecisionReason) ?? 'a hook refused it (no reason given)' };
  // Copilot reads nothing of a userPromptSubmitted hook's output.
  if (event === 'userPromptSubmitted') return {};
  const context = text(answer.additionalContext);
  return context === undefined ? {} : { context };
}

function jsonAnswer(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
