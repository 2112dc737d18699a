/**
 * The user's approval of hooks, by their content: asked once through the
 * session's approver (in the chat, or a notification), remembered by a digest
 * of everything that decides what a hook runs and when, so a changed hook
 * asks again.
 */
import type { Clock } from '../../base/common';
import type { ApprovalRequest, Approver } from './sessionPorts';
import type { HookCommand } from './hookConfig';

/** Digests text (sha256, hex): the host's. */
export interface HookDigest {
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

/** The tool name an approval of hooks carries (it is no tool the model can call). */
export const HOOKS_APPROVAL_TOOL = 'workspace_hooks';

/**
 * The approval of hooks, asked like a command through the session's approver (in the chat, or a
 * notification): every hook's command, with shell comments saying when it runs and from which file.
 */
export function hookApprovalRequest(sessionId: string, callId: string, hooks: readonly HookCommand[]): ApprovalRequest {
  const files = [...new Set(hooks.map((hook) => hook.source))].join(', ');
  const whose = hooksOf(hooks);
  const lines = [`# Hooks of ${whose} (${files}). Approved once, each runs in later sessions too, until it changes.`];
  for (const hook of hooks) {
    const when = hook.matcher === undefined ? hook.event : `${hook.event} of ${hook.matcher}`;
    lines.push(`# ${when}, in ${hook.cwd}, at most ${hook.timeoutMs / 1000} s:`, hook.command);
  }
  const summary = `Run ${hooks.length === 1 ? 'a hook' : `${hooks.length} hooks`} of ${whose} (${files})`;
  return { sessionId, callId, toolName: HOOKS_APPROVAL_TOOL, summary, command: { line: lines.join('\n'), cwd: '.' } };
}

/** Whose hooks these are, for the approval's words: the workspace's, the user's home folder's (`~/…` files), or both. */
function hooksOf(hooks: readonly HookCommand[]): string {
  const home = hooks.filter((hook) => isHomeHook(hook)).length;
  if (home === 0) return 'this workspace';
  return home === hooks.length ? 'your home folder' : 'this workspace and your home folder';
}

/** Whether the hook comes from a file in the user's home folder. */
export function isHomeHook(hook: HookCommand): boolean {
  return hook.source.startsWith('~/');
}

/** Approvals of hooks asked through `approver`. */
export function hookApprovalsThrough(input: { approver: Approver; memory: HookMemory; host: HookDigest; sessionId: string; clock: Clock }): HookApprovals {
  const { approver, memory, host, sessionId, clock } = input;
  return new HookApprovals(
    memory,
    (hooks, signal) => approver.approve(hookApprovalRequest(sessionId, `hooks-${clock.now()}`, hooks), signal),
    (text) => host.digest(text),
  );
}
