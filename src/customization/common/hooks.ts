/**
 * The hooks in one agent run, the workspace's and the user's home folder's:
 * found when the run starts, run only once the user approved each exact hook
 * (remembered by a digest of what it runs, the content of the files its line
 * names included, so a changed hook or a rewritten script asks again; a hook
 * whose file changed during the run runs no more in it), each bounded in time
 * and output, under run_command's control-file guard. The VS Code side gives
 * them only to a trusted workspace. A hook that fails, hangs or answers
 * nonsense is a log line: the session goes on.
 */
import type { Clock, Logger, WorkspaceFiles } from '../../base/common';
import type { ControlFileGuard } from '../../terminal/common';
import { headBytes } from '../../base/common';
import { isHomeHook, sameContent, type HookApprovals } from './hookApprovals';
import type { HookContent } from './hookContent';
import { DEFAULT_HOOK_LIMITS, matcherMatches, type HookCommand, type HookEvent, type HookPlatform } from './hookConfig';
import { findHooks, type FoundHooks } from './hookFiles';
import { runGuardedHook } from './hookGuard';
import { groupedNotes, logOnce } from './logOnce';
import { hookInput, hookVerdict, matcherNames, type HookProcessResult, type HookSituation, type HookVerdict } from './hookProtocol';

export {
  APPROVED_HOOKS_KEY,
  DENIED_HOOKS_KEY,
  HookApprovals,
  HOOKS_APPROVAL_TOOL,
  hookApprovalRequest,
  hookApprovalsThrough,
  type HookMemory,
} from './hookApprovals';
export { type HookFileContent, type HookFileRequest, type HookFiles } from './hookContent';

/** One hook process to run: `cwd` workspace-relative, `stdin` its JSON input. */
export interface HookRunRequest {
  sessionId: string;
  command: string;
  cwd: string;
  stdin: string;
  timeoutMs: number;
  /** Variables its shell exports before `command` (a Copilot hook's `env`, bounded by the parser). */
  env?: Readonly<Record<string, string>>;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
}

/** Runs hook processes on this machine (in the `auto` mode's sandbox when commands run there), and digests their text. */
export interface HookHost {
  /**
   * Settles only once every process of the hook is gone (stopped at its time limit, at an abort, when it ends).
   * Rejects with an error made by `hookStillRunning` (hookProtocol.ts) when one could not be confirmed gone in the stop's bounded wait.
   */
  run(request: HookRunRequest, signal: AbortSignal): Promise<HookProcessResult>;
  /** The sha256 (hex) of `text`. */
  digest(text: string): string;
}

export interface SessionHooksOptions {
  files: WorkspaceFiles;
  protectedFiles: readonly string[];
  host: HookHost;
  approvals: HookApprovals;
  sessionId: string;
  /** Absolute workspace root (hooks read it as `cwd`). */
  root: string;
  /** The system the hooks run on (Node's `process.platform`, from the node side): VS Code's hook files give a line per system. */
  platform: HookPlatform;
  clock: Clock;
  logger: Logger;
  /** Bytes kept of a hook's stdout and stderr each, and of what reaches the model from one event. Default 16 KB. */
  maxOutputBytes?: number;
  /** The user's home folder (paths relative to it), for the user-level hook files; none: only the workspace's. */
  homeFiles?: WorkspaceFiles;
  /** run_command's control-file guard (it watches only when the session's commands run sandboxed). */
  controlGuard?: ControlFileGuard;
  /** Times a Stop hook may keep one run going. Default 3. */
  maxStopContinuations?: number;
}

/** What the prompt hooks made of a prompt: context for the model with it, or a refusal (the prompt is not sent). */
export interface PromptVerdict {
  context?: string;
  refusal?: string;
}

/** What the engine asks of the hooks in a run (the one hook point of the tool round is `beforeTool`/`afterTool`). */
export interface RunHooks {
  /**
   * Finds and approves the hooks, runs the session-start ones; their context for the model, and the hook files found.
   * `tools`: the names of the tools the session has; a tool hook whose matcher matches none of them is not asked about
   * (it could never run). Undefined: every hook is.
   */
  start(source: 'startup' | 'resume', signal: AbortSignal, tools?: readonly string[]): Promise<{ context?: string; files: string[] }>;
  /**
   * The user submitted `prompt` to the session: the prompt hooks run. Copilot's output is not read; a Claude Code or
   * Codex hook may add context for the model, or refuse the prompt (it is then not sent; the reason is the user's).
   */
  promptSubmitted?(prompt: string, signal: AbortSignal): Promise<PromptVerdict>;
  /** A reason the call must not run, from a pre-tool hook. */
  beforeTool(call: { name: string; arguments: string }, signal: AbortSignal): Promise<string | undefined>;
  /** Text to add to the call's result, from the post-tool hooks. */
  afterTool(call: { name: string; arguments: string }, result: { ok: boolean; output: string }, signal: AbortSignal): Promise<string | undefined>;
  /**
   * The model finished its answer: the Stop hooks run; a text when one of them keeps the session going
   * (Claude Code's exit 2 or `decision: "block"`), which the model reads before it goes on. Bounded per run.
   */
  stop?(lastMessage: string | undefined, signal: AbortSignal): Promise<string | undefined>;
  /** The run ended: `stop` when the model finished its answer (unless `stop` ran for it), then `sessionEnd` in every case. */
  end(finished: boolean, reason: string, signal: AbortSignal): Promise<void>;
}

/** What the prompt hooks made of a prompt: context for the model with it, or a refusal (the prompt is not sent). */
export interface PromptVerdict {
  context?: string;
  refusal?: string;
}

/** Times a Stop hook may keep one run going, unless told otherwise: a hook that always blocks cannot loop for ever. */
export const MAX_STOP_CONTINUATIONS = 3;

export class SessionHooks implements RunHooks {
  private hooks: HookCommand[] = [];
  /** What each approved hook was approved with: before it runs, the files it names are read again and compared. */
  private readonly approvedWith = new Map<HookCommand, HookContent>();
  /** Times a Stop hook kept this run going. */
  private continuations = 0;
  /** Whether the Stop hooks ran for the model's last answer (end() does not run them again). */
  private stopped = false;

  constructor(private readonly options: SessionHooksOptions) {}

  async start(source: 'startup' | 'resume', signal: AbortSignal, tools?: readonly string[]): Promise<{ context?: string; files: string[] }> {
    const { approvals, logger } = this.options;
    const found = await this.find(signal);
    logOnce(logger, groupedNotes({ one: 'Hook file', many: 'Hook files' }, found.notes));
    const usable = tools === undefined ? found.hooks : found.hooks.filter((hook) => triggerable(hook, tools));
    const idle = found.hooks.length - usable.length;
    if (idle > 0) logger.info(`Hooks: ${idle === 1 ? '1 hook matches' : `${idle} hooks match`} no tool of this session; not asked about, not run.`);
    if (usable.length === 0) return { files: [] };
    const { runs: approved, deniedBefore: denied } = await approvals.decided(usable, signal);
    this.hooks = approved.map(({ hook }) => hook);
    for (const { hook, content } of approved) this.approvedWith.set(hook, content);
    const skipped = usable.length - this.hooks.length;
    if (skipped > 0) {
      const before = denied > 0 ? ` (${denied} denied before: asked again only when it changes)` : '';
      logger.warn(`Hooks: ${skipped} of ${usable.length} were not approved and do not run in this session${before}.`);
    }
    const context = await this.contextOf('sessionStart', { source }, signal);
    return { ...(context === undefined ? {} : { context }), files: found.files };
  }

  /** The workspace's hook files, then the home folder's, within the one bound of hooks. */
  private async find(signal: AbortSignal): Promise<FoundHooks> {
    const { files, protectedFiles, homeFiles, platform } = this.options;
    const found = await findHooks(files, { protectedFiles, platform }, signal);
    const room = DEFAULT_HOOK_LIMITS.maxHooks - found.hooks.length;
    if (!homeFiles || room <= 0) return found;
    const home = await findHooks(homeFiles, { protectedFiles, platform, limits: { ...DEFAULT_HOOK_LIMITS, maxHooks: room }, place: 'home' }, signal);
    return { hooks: [...found.hooks, ...home.hooks], notes: [...found.notes, ...home.notes], files: [...found.files, ...home.files] };
  }

  async promptSubmitted(prompt: string, signal: AbortSignal): Promise<PromptVerdict> {
    const verdicts = await this.runEvent('userPromptSubmitted', { prompt }, signal);
    const refused = verdicts.find(({ verdict }) => verdict.refusal !== undefined);
    if (refused) return { refusal: `${headBytes(refused.verdict.refusal ?? '', this.maxBytes())} (the hook ${describe(refused.hook)})` };
    const parts = verdicts.filter(({ verdict }) => verdict.context !== undefined);
    if (parts.length === 0) return {};
    const text = parts.map(({ hook, verdict }) => `Output of the hook ${describe(hook)}:\n${verdict.context}`).join('\n\n');
    return { context: headBytes(text, this.maxBytes()) };
  }

  async beforeTool(call: { name: string; arguments: string }, signal: AbortSignal): Promise<string | undefined> {
    for (const { hook, verdict } of await this.runEvent('preToolUse', { tool: call }, signal)) {
      if (verdict.refusal !== undefined)
        return `A hook ${isHomeHook(hook) ? "of the user's home folder" : 'of this workspace'} refused this call: ${headBytes(verdict.refusal, this.maxBytes())} (the hook ${describe(hook)}). Do not retry it unchanged.`;
    }
    return undefined;
  }

  afterTool(call: { name: string; arguments: string }, result: { ok: boolean; output: string }, signal: AbortSignal): Promise<string | undefined> {
    return this.contextOf('postToolUse', { tool: call, result }, signal);
  }

  async stop(lastMessage: string | undefined, signal: AbortSignal): Promise<string | undefined> {
    this.stopped = true;
    const stopHookActive = this.continuations > 0;
    const asked = (await this.runEvent('stop', { stopHookActive, ...(lastMessage === undefined ? {} : { lastMessage }) }, signal)).filter(
      ({ verdict }) => verdict.continuation !== undefined,
    );
    if (asked.length === 0) return undefined;
    const max = this.options.maxStopContinuations ?? MAX_STOP_CONTINUATIONS;
    if (this.continuations >= max) {
      this.options.logger.warn(`Hooks: a Stop hook asked to go on after ${max} continuations in this run; the session ends here.`);
      return undefined;
    }
    this.continuations++;
    this.stopped = false;
    const text = asked.map(({ hook, verdict }) => `${verdict.continuation} (the hook ${describe(hook)})`).join('\n');
    return `A Stop hook did not let the session end yet (${this.continuations} of at most ${max} times in this run):\n${headBytes(text, this.maxBytes())}`;
  }

  async end(finished: boolean, reason: string, signal: AbortSignal): Promise<void> {
    if (finished && !this.stopped) await this.runEvent('stop', { stopHookActive: this.continuations > 0 }, signal);
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
    const { sessionId, root, clock, logger } = this.options;
    const names = situation.tool ? matcherNames(situation.tool.name) : [];
    const matching = await this.unchanged(
      this.hooks.filter((hook) => hook.event === event && (!situation.tool || matcherMatches(hook.matcher, names))),
      signal,
    );
    const results = [];
    for (const hook of matching) {
      const stdin = hookInput(hook, { sessionId, root, now: clock.now(), ...situation });
      const verdict = await this.verdictOf(hook, stdin, signal);
      if (verdict.problem !== undefined) logger.warn(`Hook ${describe(hook)} ${verdict.problem}.`);
      else logger.info(`Hook ${describe(hook)} ran${verdict.refusal !== undefined ? ' and refused the call' : ''}.`);
      results.push({ hook, verdict });
    }
    return results;
  }

  /**
   * Of `hooks`, those whose files are as they were approved. One whose file changed since (a script the agent or a
   * command rewrote) runs no more in this run; the next session asks about it again.
   */
  private async unchanged(hooks: HookCommand[], signal: AbortSignal): Promise<HookCommand[]> {
    if (hooks.length === 0) return hooks;
    const now = await this.options.approvals.contentOf(hooks, signal);
    const changed = hooks.filter((hook, index) => {
      const approved = this.approvedWith.get(hook);
      return approved === undefined || !sameContent(approved, now[index]);
    });
    for (const hook of changed) {
      this.options.logger.warn(
        `Hook ${describe(hook)} was not run: a file it runs changed since it was approved; it no longer runs in this session and asks again in the next.`,
      );
    }
    if (changed.length > 0) this.hooks = this.hooks.filter((hook) => !changed.includes(hook));
    return hooks.filter((hook) => !changed.includes(hook));
  }

  /** One hook's run under the control-file guard, and what its answer means. */
  private async verdictOf(hook: HookCommand, stdin: string, signal: AbortSignal): Promise<HookVerdict> {
    const { host, sessionId, controlGuard } = this.options;
    const request = {
      sessionId,
      command: hook.command,
      cwd: hook.cwd,
      stdin,
      timeoutMs: hook.timeoutMs,
      maxOutputBytes: this.maxBytes(),
      ...(hook.env === undefined ? {} : { env: hook.env }),
    };
    try {
      const run = await runGuardedHook({ host, request, guard: controlGuard }, signal);
      return run.result ? hookVerdict(hook, run.result) : { problem: run.problem };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { problem: `could not be started (${error instanceof Error ? error.message : String(error)})` };
    }
  }

  private maxBytes(): number {
    return this.options.maxOutputBytes ?? 16 * 1024;
  }
}

/** Whether a tool of `tools` can trigger `hook`: a lifecycle hook always runs; a tool hook when its matcher matches one. */
function triggerable(hook: HookCommand, tools: readonly string[]): boolean {
  if (hook.event !== 'preToolUse' && hook.event !== 'postToolUse') return true;
  return tools.some((tool) => matcherMatches(hook.matcher, matcherNames(tool)));
}

/** A hook as the log and the model see it: its event, file and the start of its command. */
export function describe(hook: HookCommand): string {
  const command = hook.command.length > 80 ? `${hook.command.slice(0, 77)}...` : hook.command;
  return `${hook.event} "${command}" (${hook.source})`;
}
