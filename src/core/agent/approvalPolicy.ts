/**
 * Which tool calls need the user's approval: `ask` (every write and command),
 * `auto-edit` (edits apply, commands ask), `auto` (both run, but a denied
 * command still asks, wherever it hides in the command line).
 */
import { findDeniedCommand } from '../tools/commandPolicy';
import type { ToolKind } from '../tools/tool';

export const APPROVAL_MODES = ['ask', 'auto-edit', 'auto'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface ApprovalPolicy {
  mode: ApprovalMode;
  deniedCommands: readonly string[];
}

export function needsApproval(policy: ApprovalPolicy, kind: ToolKind, commandLine?: string): boolean {
  if (kind === 'read') return false;
  if (kind === 'write') return policy.mode === 'ask';
  if (policy.mode !== 'auto') return true;
  if (commandLine === undefined) return true;
  try {
    return findDeniedCommand(commandLine, policy.deniedCommands) !== undefined;
  } catch {
    // A line the reader cannot take apart cannot be shown to be safe: ask.
    return true;
  }
}
