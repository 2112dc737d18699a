/**
 * The approval policy of one agent session's next tool call: the settings now,
 * and whether its commands that run unasked are sandboxed. Deciding records the
 * mode with the sandbox decision, so the command the engine decides not to ask
 * about runs in the sandbox even if the user leaves `auto` before it starts.
 */
import type { SandboxDecision } from '../../terminal/common';
import type { ApprovalMode, ApprovalPolicy } from './approvalPolicy';

/** The settings the policy is made of (`gateway.agent.*`). */
export interface PolicySettings {
  approval: ApprovalMode;
  deniedCommands: readonly string[];
  protectedFiles: readonly string[];
}

export function sessionPolicy(sandbox: SandboxDecision, sessionId: string, agent: PolicySettings): ApprovalPolicy {
  const commandsSandboxed = sandbox.decide(sessionId, agent.approval);
  return { mode: agent.approval, deniedCommands: agent.deniedCommands, protectedFiles: agent.protectedFiles, commandsSandboxed };
}
