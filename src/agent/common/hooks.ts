/**
 * The workspace's hooks in one agent run: found when the run starts, run only
 * once the user approved each exact hook (remembered by a digest of what it
 * runs, so a changed hook asks again), each bounded in time and output. The
 * VS Code side gives them only to a trusted workspace. A hook that fails,
 * hangs or answers nonsense is a log line: the session goes on.
 */
import type { Clock, Logger, WorkspaceFiles } from '../../base/common';
import type { ApprovalRequest, Approver } from './sessionPorts';
import { headBytes } from '../../tools/common';
import { matcherMatches, type HookCommand, type HookEvent } from './hookConfig';
import { findHooks } from './hookFiles';
import { claudeToolName, hookInput, hookVerdict, type HookProcessResult, type HookSituation } from './hookProtocol';

/** One hook process to run: `cwd` workspace-relative, `stdin` its JSON input. */
export interface HookRunRequest {
  sessionId: string;
  command: string;
  cwd: string;
  stdin: string;
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
}

/** Runs hook processes on this machine (in the `auto` mode's sandbox when commands run there), and digests their text. */
export interface HookHost {
  run(request: HookRunRequest, signal: AbortSignal): Promise<HookProcessResult>;
  /** The sha256 (hex) of `text`. */
  digest(text: string): string;
}

/** Where approvals are kept: VS Code's global state (a Memento). */
export interface HookMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const APPROVED_HOOKS_KEY = 'gateway.agent.approvedHooks';
/** Approvals kept: the newest, so the list cannot grow without end. */
const MAX_REMEMBERED = 500;

/** The user's approval of hooks, by their content: approved once, a hook runs in every later session until it changes. */
export class HookApprovals {
  constructor(
    private readonly memory: HookMemory,
    private readonly ask: (hooks: readonly HookCommand[], signal: AbortSignal) => Promise<boolean>,
    private readonly digest: (text: string) => string,
  ) {}

  /** What a hook is approved as: everything that decides what it runs and when. */
  identity(hook: HookCommand): string {
    return this.digest(JSON.stringify([hook.format, hook.event, hook.matcher ?? '', hook.command, hook.cwd, hook.timeoutMs]));
  }

  isApproved(hook: HookCommand): boolean {
    return this.remembered().includes(this.identity(hook));
  }

  /** The hooks that may run: those approved before, and the others when the user approves them now. */
  async approved(hooks: readonly HookCommand[], signal: AbortSignal): Promise<HookCommand[]> {
    const waiting = hooks.filter((hook) => !this.isApproved(hook));
    if (waiting.length === 0) return [...hooks];
    if (!(await this.ask(waiting, signal))) return hooks.filter((hook) => this.isApproved(hook));
    const added = waiting.map((hook) => this.identity(hook));
    await this.memory.update(APPROVED_HOOKS_KEY, [...this.remembered().filter((id) => !added.includes(id)), ...added].slice(-MAX_REMEMBERED));
    return [...hooks];
  }

  private remembered(): string[] {
    const value = this.memory.get<unknown>(APPROVED_HOOKS_KEY);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }
}

export interface SessionHooksOptions {
  files: WorkspaceFiles;
  protectedFiles: readonly string[];
  host: HookHost;
  approvals: HookApprovals;
  sessionId: string;
  /** Absolute workspace root (hooks read it as `cwd`). */
  root: string;
  clock: Clock;
  logger: Logger;
  /** Bytes kept of a hook's stdout and stderr each, and of what reaches the model from one event. Default 16 KB. */
  maxOutputBytes?: number;
}

/** What the engine asks of the hooks in a run (the one hook point of the tool round is `beforeTool`/`afterTool`). */
export interface RunHooks {
  /** Finds and approves the hooks, runs the session-start ones; their context for the model, and the hook files found. */
  start(source: 'startup' | 'resume', signal: AbortSignal): Promise<{ context?: string; files: string[] }>;
  /** A reason the call must not run, from a pre-tool hook. */
  beforeTool(call: { name: string; arguments: string }, signal: AbortSignal): Promise<string | undefined>;
  /** Text to add to the call's result, from the post-tool hooks. */
  afterTool(call: { name: string; arguments: string }, result: { ok: boolean; output: string }, signal: AbortSignal): Promise<string | undefined>;
  /** The run ended: `stop` when the model finished its answer, then `sessionEnd` in every case. */
  end(finished: boolean, reason: string, signal: AbortSignal): Promise<void>;
}

export class SessionHooks implements RunHooks {
  private hooks: HookCommand[] = [];

  constructor(private readonly options: SessionHooksOptions) {}

  async start(source: 'startup' | 'resume', signal: AbortSignal): Promise<{ context?: string; files: string[] }> {
    const { files, protectedFiles, approvals, logger } = this.options;
    const found = await findHooks(files, protectedFiles, signal);
    for (const note of found.notes) logger.warn(`Hook file ${note}.`);
    if (found.hooks.length === 0) return { files: [] };
    this.hooks = await approvals.approved(found.hooks, signal);
    const skipped = found.hooks.length - this.hooks.length;
    if (skipped > 0) logger.warn(`Hooks: ${skipped} of ${found.hooks.length} were not approved and do not run in this session.`);
    const context = await this.contextOf('sessionStart', { source }, signal);
    return { ...(context === undefined ? {} : { context }), files: found.files };
  }

  async beforeTool(call: { name: string; arguments: string }, signal: AbortSignal): Promise<string | undefined> {
    for (const { hook, verdict } of await this.runEvent('preToolUse', { tool: call }, signal)) {
      if (verdict.refusal !== undefined)
        return `A hook of this workspace refused this call: ${headBytes(verdict.refusal, this.maxBytes())} (the hook ${describe(hook)}). Do not retry it unchanged.`;
    }
    return undefined;
  }

  afterTool(call: { name: string; arguments: string }, result: { ok: boolean; output: string }, signal: AbortSignal): Promise<string | undefined> {
    return this.contextOf('postToolUse', { tool: call, result }, signal);
  }

  async end(finished: boolean, reason: string, signal: AbortSignal): Promise<void> {
    if (finished) await this.runEvent('stop', {}, signal);
    await this.runEvent('sessionEnd', { reason }, signal);
  }

  /** The context the event's hooks give the model, each part labelled with its hook. */
  private async contextOf(event: HookEvent, situation: Partial<HookSituation>, signal: AbortSignal): Promise<string | undefined> {
    const parts = (await this.runEvent(event, situation, signal)).filter(({ verdict }) => verdict.context !== undefined);
    if (parts.length === 0) return undefined;
    const text = parts.map(({ hook, verdict }) => `Output of the hook ${describe(hook)}:\n${verdict.context}`).join('\n\n');
    const kept = headBytes(text, this.maxBytes());
    return kept.length < text.length ? `${kept}\n(cut: the hooks' output past ${this.maxBytes()} bytes is left out)` : kept;
  }

  private async runEvent(event: HookEvent, situation: Partial<HookSituation>, signal: AbortSignal) {
    const { host, sessionId, root, clock, logger } = this.options;
    const names = situation.tool ? [situation.tool.name, claudeToolName(situation.tool.name)] : [];
    const matching = this.hooks.filter((hook) => hook.event === event && (!situation.tool || matcherMatches(hook.matcher, names)));
    const results = [];
    for (const hook of matching) {
      const stdin = hookInput(hook, { sessionId, root, now: clock.now(), ...situation });
      const request = { sessionId, command: hook.command, cwd: hook.cwd, stdin, timeoutMs: hook.timeoutMs, maxOutputBytes: this.maxBytes() };
      let verdict;
      try {
        verdict = hookVerdict(hook, await host.run(request, signal));
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        verdict = { problem: `could not be started (${error instanceof Error ? error.message : String(error)})` };
      }
      if (verdict.problem !== undefined) logger.warn(`Hook ${describe(hook)} ${verdict.problem}.`);
      else logger.info(`Hook ${describe(hook)} ran${verdict.refusal !== undefined ? ' and refused the call' : ''}.`);
      results.push({ hook, verdict });
    }
    return results;
  }

  private maxBytes(): number {
    return this.options.maxOutputBytes ?? 16 * 1024;
  }
}

/** A hook as the log and the model see it: its event, file and the start of its command. */
export function describe(hook: HookCommand): string {
  const command = hook.command.length > 80 ? `${hook.command.slice(0, 77)}...` : hook.command;
  return `${hook.event} "${command}" (${hook.source})`;
}

/** The tool name an approval of hooks carries (it is no tool the model can call). */
export const HOOKS_APPROVAL_TOOL = 'workspace_hooks';

/**
 * The approval of hooks, asked like a command through the session's approver (in the chat, or a
 * notification): every hook's command, with shell comments saying when it runs and from which file.
 */
export function hookApprovalRequest(sessionId: string, callId: string, hooks: readonly HookCommand[]): ApprovalRequest {
  const files = [...new Set(hooks.map((hook) => hook.source))].join(', ');
  const lines = [`# Hooks of this workspace (${files}). Approved once, each runs in later sessions too, until it changes.`];
  for (const hook of hooks) {
    const when = hook.matcher === undefined ? hook.event : `${hook.event} of ${hook.matcher}`;
    lines.push(`# ${when}, in ${hook.cwd}, at most ${hook.timeoutMs / 1000} s:`, hook.command);
  }
  const summary = `Run ${hooks.length === 1 ? 'a hook' : `${hooks.length} hooks`} of this workspace (${files})`;
  return { sessionId, callId, toolName: HOOKS_APPROVAL_TOOL, summary, command: { line: lines.join('\n'), cwd: '.' } };
}

/** Approvals of hooks asked through `approver`. */
export function hookApprovalsThrough(input: { approver: Approver; memory: HookMemory; host: HookHost; sessionId: string; clock: Clock }): HookApprovals {
  const { approver, memory, host, sessionId, clock } = input;
  return new HookApprovals(
    memory,
    (hooks, signal) => approver.approve(hookApprovalRequest(sessionId, `hooks-${clock.now()}`, hooks), signal),
    (text) => host.digest(text),
  );
}
