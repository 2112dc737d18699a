/**
 * Where the user's decisions about hooks are kept, apart from the approval logic (a lazily loaded part), so that the
 * command that forgets them costs the main bundle a few lines.
 */

/** Where approvals are kept: VS Code's global state (a Memento). */
export interface HookMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The tool name an approval of hooks carries (it is no tool the model can call). */
export const HOOKS_APPROVAL_TOOL = 'workspace_hooks';

export const APPROVED_HOOKS_KEY = 'gateway.agent.approvedHooks';
/** Hooks the user denied, by the same identity: not asked about again until they change. */
export const DENIED_HOOKS_KEY = 'gateway.agent.deniedHooks';

/**
 * Forgets every hook approval and denial kept (the "Forget Hook Approvals and Denials" command): each hook asks again
 * at the next run that finds it. The count forgotten, to tell the user.
 */
export async function forgetHookDecisions(memory: HookMemory): Promise<HookDecisionCounts> {
  const forgotten = countHookDecisions(memory);
  await memory.update(APPROVED_HOOKS_KEY, undefined);
  await memory.update(DENIED_HOOKS_KEY, undefined);
  return forgotten;
}

export interface HookDecisionCounts {
  approvals: number;
  denials: number;
}

/** How many hook approvals and denials are kept (every workspace's: they are kept by content, not by folder). */
export function countHookDecisions(memory: Pick<HookMemory, 'get'>): HookDecisionCounts {
  const count = (key: string) => {
    const value = memory.get<unknown>(key);
    return Array.isArray(value) ? value.length : 0;
  };
  return { approvals: count(APPROVED_HOOKS_KEY), denials: count(DENIED_HOOKS_KEY) };
}
