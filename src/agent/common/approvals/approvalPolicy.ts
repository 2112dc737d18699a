/**
 * Which tool calls need the user's approval: `ask` (every write and command),
 * `auto-edit` (edits apply, commands ask), `auto` (both run, commands in the
 * sandbox; a denied command still asks, wherever it hides in the command line).
 * Without a sandbox, or in a workspace that is or holds the home folder (the
 * sandbox cannot keep it out: terminal/common/sandboxDecision.ts), `auto` asks for
 * commands as `auto-edit` does: a deny list alone cannot tell what a shell line
 * will do. A write to a file that changes what runs or who decides asks in every mode.
 */
import { ApprovalMode } from '../../../settings/common';

import { configNamesPrograms, findDeniedCommand, isAgentConfigCandidate, isHeldByName, NO_SANDBOX_REASON } from '../../../terminal/common';

import { protectingPattern } from '../../../base/common';
import { type ToolKind } from '../../../tools/common';

export interface ApprovalPolicy {
  mode: ApprovalMode;
  deniedCommands: readonly string[];
  /** `gateway.agent.protectedFiles`: a write there asks in every mode (the file tools refuse it anyway). */
  protectedFiles?: readonly string[];
  /** Whether commands that run unasked run in the sandbox (src/terminal/common/sandbox.ts); without it `auto` asks. */
  commandsSandboxed?: boolean;
  /** Why they are not (no sandbox here, the workspace holds the home folder), said in each command's approval; default: no sandbox. */
  unsandboxedReason?: string;
}

/**
 * True when a write to `path` (workspace-relative, `/`-separated) must ask in
 * every approval mode: it is or lies in what the sandbox's review holds back by
 * name (repositories, VS Code's settings, tasks and workspace files, the editors'
 * and agents' configs and hooks, runner and hook-manager configs,
 * `.gitattributes`, `.gitmodules`, `.lfsconfig`…: the same predicate,
 * terminal/common/changeReview.ts isHeldByName), or matches the protected list.
 * Case-insensitive, as on the file systems of macOS and Windows.
 */
export function needsApprovalAlways(path: string, protectedFiles: readonly string[]): boolean {
  return isHeldByName(path) || protectingPattern(path, protectedFiles) !== undefined;
}

/** What a file tool's write would do: every path it touches (as named, and where links lead) and the text it leaves. */
export interface PlannedWrite {
  paths: readonly string[];
  /** The file's whole text after the write; undefined when the tool cannot tell before it runs. */
  text?: string;
}

/**
 * Whether a write asks in every mode: a path needsApprovalAlways names, or an agent's config found by what it says
 * (terminal/common/agentConfigShape.ts: the rule the sandbox's review holds a command's files by), so a model cannot
 * write with a file tool what a command of its would have held back. Fail closed: a config whose text is unknown asks.
 */
export function writeNeedsApproval(policy: ApprovalPolicy, write: PlannedWrite): boolean {
  return write.paths.some(
    (path) =>
      needsApprovalAlways(path, policy.protectedFiles ?? []) ||
      (isAgentConfigCandidate(path) && (write.text === undefined || configNamesPrograms(write.text, path))),
  );
}

export function needsApproval(policy: ApprovalPolicy, kind: ToolKind, commandLine?: string, write: PlannedWrite = { paths: [] }): boolean {
  if (kind === 'read') return false;
  if (kind === 'write') return policy.mode === 'ask' || writeNeedsApproval(policy, write);
  if (policy.mode !== 'auto' || policy.commandsSandboxed !== true) return true;
  if (commandLine === undefined) return true;
  try {
    return findDeniedCommand(commandLine, policy.deniedCommands) !== undefined;
  } catch {
    // A line the reader cannot take apart cannot be shown to be safe: ask.
    return true;
  }
}

/**
 * Why a command asks, in a sentence for the approval (issue 27): in `auto` the user expects
 * commands to run unasked, so the one that does not says which denied pattern it matched.
 * Undefined when the command would not ask.
 */
export function commandApprovalReason(policy: ApprovalPolicy, commandLine: string): string | undefined {
  if (policy.mode !== 'auto') return `the approval mode is "${policy.mode}" (gateway.agent.approval): every command asks.`;
  if (policy.commandsSandboxed !== true) return policy.unsandboxedReason ?? NO_SANDBOX_REASON;
  try {
    const found = findDeniedCommand(commandLine, policy.deniedCommands);
    if (found === undefined) return undefined;
    // A command no list can clear (its name computed at run time, a shell reading stdin) matches any pattern.
    if (findDeniedCommand(commandLine, [UNLISTED_COMMAND]) !== undefined)
      return `nobody can tell what "${found}" runs, so it asks whatever gateway.agent.deniedCommands lists.`;
    const pattern = policy.deniedCommands.find((candidate) => findDeniedCommand(commandLine, [candidate]) !== undefined);
    return `"${found}" matches the denied command "${pattern ?? found}" (gateway.agent.deniedCommands).`;
  } catch {
    return 'the command line could not be taken apart to check it against gateway.agent.deniedCommands.';
  }
}

/** A pattern no real command is named after: what it "matches" is matched by every pattern. */
const UNLISTED_COMMAND = 'gateway-unlisted-command-name';
