/**
 * The approval policy of one agent session's next tool call: the settings now,
 * and whether its commands that run unasked are sandboxed in its workspace (and
 * why not). Deciding records the mode with the sandbox decision, so the command
 * the engine decides not to ask about runs in the sandbox even if the user leaves
 * `auto` before it starts.
 */
import type { SandboxDecision } from '../../../terminal/common';
import type { ApprovalMode } from '../../../settings/common';
import type { ApprovalPolicy } from '../approvals/approvalPolicy';

/** The settings the policy is made of (`gateway.agent.*`). */
export interface PolicySettings {
  approval: ApprovalMode;
  deniedCommands: readonly string[];
  protectedFiles: readonly string[];
}

/** `session`: its id and its workspace folder's path. */
export function sessionPolicy(sandbox: SandboxDecision, session: { id: string; root: string }, agent: PolicySettings): ApprovalPolicy {
  const sandboxing = sandbox.decide(session.id, { mode: agent.approval, root: session.root });
  return {
    mode: agent.approval,
    deniedCommands: agent.deniedCommands,
    protectedFiles: agent.protectedFiles,
    commandsSandboxed: sandboxing.sandboxed,
    ...(sandboxing.sandboxed ? {} : { unsandboxedReason: sandboxing.reason }),
  };
}
