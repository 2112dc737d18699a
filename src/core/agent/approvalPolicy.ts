/**
 * Which tool calls need the user's approval: `ask` (every write and command),
 * `auto-edit` (edits apply, commands ask), `auto` (both run, commands in the
 * sandbox; a denied command still asks, wherever it hides in the command line).
 * Without a sandbox `auto` asks for commands as `auto-edit` does: a deny list
 * alone cannot tell what a shell line will do.
 */
import { findDeniedCommand } from '../tools/commandPolicy';
import type { ToolKind } from '../tools/tool';

export const APPROVAL_MODES = ['ask', 'auto-edit', 'auto'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface ApprovalPolicy {
  mode: ApprovalMode;
  deniedCommands: readonly string[];
  /** Whether commands that run unasked run in the sandbox (src/core/terminal/sandbox.ts); without it `auto` asks. */
  commandsSandboxed?: boolean;
}

export function needsApproval(policy: ApprovalPolicy, kind: ToolKind, commandLine?: string): boolean {
  if (kind === 'read') return false;
  if (kind === 'write') return policy.mode === 'ask';
  if (policy.mode !== 'auto' || policy.commandsSandboxed !== true) return true;
  if (commandLine === undefined) return true;
  try {
    return findDeniedCommand(commandLine, policy.deniedCommands) !== undefined;
  } catch {
    // A line the reader cannot take apart cannot be shown to be safe: ask.
    return true;
  }
}
