/**
 * The common shape of the agent's tools. A call goes in two steps so the
 * session can ask the user in between: `prepare` validates the arguments and
 * works out what would happen (a one-line summary, a diff for writes, the
 * command line); `execute` does it once approved. Neither step throws: every
 * failure becomes text the model can read and act on.
 */

import * as z from 'zod/mini';
import { en } from 'zod/locales';
import type { Clock, FileChanges, Logger, WorkspaceFiles } from '../../base/common';
import type { WorkspaceSearch } from './searchPorts';
import { normalizeWorkspacePath } from './pathPolicy';
import type { PlanStep } from './updatePlan';
import type { LanguageServices } from './languageServices';
import type { BackgroundCommands } from './backgroundCommands';
import type { ApprovalMode } from '../../settings/common';
import type { SubagentRun, Subagents } from './runSubagent';
import type { SandboxFailure, CommandRunner, ControlFileGuard } from '../../terminal/common';

/** `external`: a tool of the host (another extension, an MCP server), which may do anything. */
export type ToolKind = 'read' | 'write' | 'command' | 'external';

/** What the tools act through, plus the user's protection settings. */
export interface ToolContext {
  files: WorkspaceFiles;
  changes: FileChanges;
  commands: CommandRunner;
  /** Globs of files never read or written (`gateway.agent.protectedFiles`). */
  protectedFiles: readonly string[];
  /** Where a failure nobody anticipated (a bug, an I/O error) is written, with its stack; and which engine served each search. */
  logger: Logger;
  /** ripgrep where the host has it: list_files and search_text use it; without it they walk the files through `files`. */
  search?: WorkspaceSearch;
  /** Bounds the walk's time when there is no `search` engine; the system clock when absent. */
  clock?: Clock;
  /** Watches sandboxed commands for control files they leave (a new .git, .vscode …) and rolls them back; none: nothing watched. */
  controlGuard?: ControlFileGuard;
  /** The editor's language services (problems, definitions, references, symbols); none: the tools that need them say so. */
  languages?: LanguageServices;
  /** The run's commands that keep running (run_command with background, command_output); none: background commands are refused. */
  background?: BackgroundCommands;
  /** Runs run_subagent's sub-sessions (`gateway.agent.subagents`); none: the call is refused (a sub-session's own context has none: depth 1). */
  subagents?: Subagents;
}

// `gateway.agent.protectedFiles` when the user has not set it. A pattern
// without "/" already matches a name at any depth (config/.env.local,
// certs/site.pem); one with "/" is anchored at the root, so every repository's
// .git (a nested one holds credentials and hooks too) needs the leading "**/".
// "**/.git/**" also matches the .git folder (or file) itself; "**/.git" says so plainly.

export interface ToolOutcome {
  ok: boolean;
  /** What the model reads as the call's output. */
  output: string;
  /** Workspace-relative path of the file a write changed (for "revert session changes"). */
  changedPath?: string;
  /** run_command only; undefined when the process was killed. */
  exitCode?: number;
  /** run_command only: it ran in the `auto` mode's sandbox, and the sandbox's likely part in its failure (for the chat to say). */
  sandbox?: { network: boolean; failure?: SandboxFailure };
  /** A write's note on the problems VS Code reports after it (the end of `output` too), for the chat to show. */
  problemsNote?: string;
  /** update_plan only: the plan as it now stands. */
  plan?: PlanStep[];
  /** run_subagent only: the sub-session that ran, for the chat's nested line. */
  subagent?: SubagentRun;
}

export interface FilePreview {
  path: string;
  /** undefined when the file does not exist yet. */
  before: string | undefined;
  after: string;
}

/** A host tool's input as the user may read it whole (see toolInputDisplay.ts). */
export interface ToolInput {
  /** The host's name of the tool. */
  tool: string;
  /** The whole input, pretty-printed when it is JSON, invisible characters spelled out. */
  text: string;
  /** Characters of the input as sent (compact JSON). */
  chars: number;
  /** Whether the summary showed all of it. */
  complete: boolean;
}

export interface PreparedCall {
  /** One line for the UI, e.g. "Edit src/a.ts". */
  summary: string;
  /**
   * Set when the call was refused while preparing (bad arguments, a path outside
   * the workspace, a missing file …): `execute` only returns this text with
   * ok:false and changes nothing, so there is nothing to approve.
   */
  refusal?: string;
  /** For writes: the change to show as a diff before approval. */
  preview?: FilePreview;
  /** For run_command: what will run, and where (workspace-relative); `background`: it is started and left running. */
  /** `reason`: why it asks, when it is a command (approvalPolicy.ts, commandApprovalReason). */
  command?: { line: string; cwd: string; background?: boolean; reason?: string };
  /** For a host tool: its whole input, which the summary may show only in part. */
  input?: ToolInput;
  /** Never rejects; an abort comes back as ok:false. */
  execute(signal: AbortSignal): Promise<ToolOutcome>;
}

export interface AgentTool {
  name: string;
  description: string;
  kind: ToolKind;
  /** JSON schema of the arguments object, made from the tool's zod schema. */
  parameters: Record<string, unknown>;
  /** Whether a call asks the user under this approval mode, when the tool decides that itself (host tools). */
  needsApproval?: (mode: ApprovalMode) => boolean;
  /**
   * Never rejects. `rawArgs` is the arguments object or its JSON text, as the
   * model sent it. `signal` cancels the reads prepare does (a diff needs the
   * current file); without one they cannot be cancelled.
   */
  prepare(rawArgs: unknown, ctx: ToolContext, signal?: AbortSignal): Promise<PreparedCall>;
  /**
   * When the call's output was cut to fit the context window after its first `linesShown` lines:
   * how to call for the rest (e.g. "call read_file again with startLine=107"); none: the general advice.
   */
  continuation?(rawArgs: unknown, linesShown: number): string | undefined;
}

/** A call that was refused before anything happened. */
export function refusedCall(summary: string, message: string): PreparedCall {
  return { summary, refusal: message, execute: () => Promise.resolve({ ok: false, output: message }) };
}

/** A failure the tool anticipated (a missing file, a folder where a file was expected); its message is for the model. */
export class ToolFailure extends Error {}

/** What a tool's own prepare returns; the summary comes from the tool's `summarize`. */
export type PreparedAction = Omit<PreparedCall, 'summary'>;

export function refused(message: string): PreparedAction {
  return { refusal: message, execute: () => Promise.resolve({ ok: false, output: message }) };
}

/**
 * A tool's prepare with its arguments parsed and nothing escaping as an
 * exception: bad arguments, port errors, aborts and bugs alike reach the model
 * as a sentence, and the session carries on; what no tool anticipated is also
 * logged with its stack, so a bug does not pass as the model's problem. `summarize` names the call for
 * the UI from the arguments alone, so even a refused call has a useful line.
 */
export function guardedPrepare<Args>(
  toolName: string,
  schema: z.ZodMiniType<Args>,
  summarize: (args: Args) => string,
  prepare: (args: Args, ctx: ToolContext, signal: AbortSignal) => Promise<PreparedAction>,
): AgentTool['prepare'] {
  return async (rawArgs, ctx, signal = new AbortController().signal) => {
    const parsed = parseArguments(toolName, schema, rawArgs);
    if (!parsed.ok) return refusedCall(`${toolName} (invalid arguments)`, parsed.message);
    const summary = summarize(parsed.args);
    try {
      const action = await prepare(parsed.args, ctx, signal);
      return { ...action, summary, execute: guardedExecute(action.execute, summary, ctx.logger) };
    } catch (error) {
      return refusedCall(summary, describeFailure(error, signal, summary, ctx.logger));
    }
  };
}

function guardedExecute(execute: PreparedCall['execute'], summary: string, logger: Logger): PreparedCall['execute'] {
  return async (signal) => {
    try {
      return await execute(signal);
    } catch (error) {
      return { ok: false, output: describeFailure(error, signal, summary, logger) };
    }
  };
}

/** The sentence the model reads; a failure that is neither a stop nor a ToolFailure is logged with its stack first. */
function describeFailure(error: unknown, signal: AbortSignal, summary: string, logger: Logger): string {
  if (signal.aborted) return 'Stopped: the user cancelled this call before it finished.';
  if (error instanceof ToolFailure) return error.message;
  const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  logger.error(`tool call "${summary}" failed unexpectedly: ${stack}`);
  const message = error instanceof Error ? error.message : String(error);
  return `Failed: ${message}`;
}

/** zod/mini ships no locale; its English messages are passed per parse (as in gateway/common/validation.ts). */
const english = en().localeError;

type ParsedArguments<Args> = { ok: true; args: Args } | { ok: false; message: string };

function parseArguments<Args>(toolName: string, schema: z.ZodMiniType<Args>, rawArgs: unknown): ParsedArguments<Args> {
  let value = rawArgs;
  if (typeof rawArgs === 'string') {
    try {
      value = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
    } catch (error) {
      // The parser's words say where it broke (an unescaped quote, a text cut off), which is what the model has to fix.
      const where = error instanceof Error ? ` (${error.message.slice(0, 200)})` : '';
      return {
        ok: false,
        message:
          `Invalid arguments for ${toolName}: not valid JSON${where}. Send one JSON object with the parameters the tool describes, ` +
          'with the quotes, backslashes and line breaks inside strings escaped.',
      };
    }
  }
  const result = schema.safeParse(value, { error: english });
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${where}: ${issue.message}`;
  });
  return { ok: false, message: `Invalid arguments for ${toolName}: ${problems.join('; ')}.` };
}

/**
 * The JSON schema the API gets for a tool: the zod schema's as a plain
 * `{type:'object', properties, required}`, without what the model pays for on
 * every request and learns nothing from: `$schema`, the safe-integer bounds zod
 * gives every integer, `additionalProperties: false` (the arguments are parsed
 * by the zod schema, which drops keys it does not know; no request is `strict`)
 * and an empty `required`.
 */
export function parametersOf(schema: z.ZodMiniType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    unrepresentable: 'throw',
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      if (Array.isArray(jsonSchema.required) && jsonSchema.required.length === 0) delete jsonSchema.required;
    },
  }) as Record<string, unknown>;
  const { $schema: _dialect, ...parameters } = json;
  return parameters;
}

/** A path as the UI shows it: normalized when it is valid, as written otherwise. */
export function displayPath(raw: string): string {
  const normalized = normalizeWorkspacePath(raw);
  return normalized.ok ? normalized.path : raw;
}
