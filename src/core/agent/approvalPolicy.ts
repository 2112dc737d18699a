/**
 * Which tool calls need the user's approval: `ask` (every write and command),
 * `auto-edit` (edits apply, commands ask), `auto` (both run, commands in the
 * sandbox; a denied command still asks, wherever it hides in the command line).
 * Without a sandbox `auto` asks for commands as `auto-edit` does: a deny list
 * alone cannot tell what a shell line will do. A write to a file that changes
 * what runs or who decides asks in every mode.
 */
import { findDeniedCommand } from '../tools/commandPolicy';
import { protectingPattern } from '../tools/pathPolicy';
import type { ToolKind } from '../tools/tool';

export const APPROVAL_MODES = ['ask', 'auto-edit', 'auto'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface ApprovalPolicy {
  mode: ApprovalMode;
  deniedCommands: readonly string[];
  /** `gateway.agent.protectedFiles`: a write there asks in every mode (the file tools refuse it anyway). */
  protectedFiles?: readonly string[];
  /** Whether commands that run unasked run in the sandbox (src/core/terminal/sandbox.ts); without it `auto` asks. */
  commandsSandboxed?: boolean;
}

/**
 * Folders whose files change what runs or who decides: VS Code's settings,
 * tasks, launch configurations, extensions and MCP servers (`.vscode`), Git's
 * config and hooks (`.git`, at any depth, as submodules have their own), and
 * hooks run by Git through husky.
 */
const CONTROL_FOLDERS = new Set(['.vscode', '.git', '.husky']);

/**
 * True when a write to `path` (workspace-relative, `/`-separated) must ask in
 * every approval mode: it is in a control folder, is a `.code-workspace` file
 * (which holds settings too), or matches the protected list. Case-insensitive,
 * as on the file systems of macOS and Windows.
 */
export function needsApprovalAlways(path: string, protectedFiles: readonly string[]): boolean {
  return isControlPath(path) || protectingPattern(path, protectedFiles) !== undefined;
}

/**
 * Whether `path` (workspace-relative, `/`-separated) is in a control folder or is a
 * `.code-workspace` file: a file that changes what runs or who decides. Case-insensitive.
 */
export function isControlPath(path: string): boolean {
  const segments = path.toLowerCase().split('/');
  if (segments.some((segment) => CONTROL_FOLDERS.has(segment))) return true;
  return segments[segments.length - 1]?.endsWith('.code-workspace') ?? false;
}

/** `writePaths`: every path the write touches (as named, and where links lead), checked with needsApprovalAlways. */
export function needsApproval(policy: ApprovalPolicy, kind: ToolKind, commandLine?: string, writePaths: readonly string[] = []): boolean {
  if (kind === 'read') return false;
  if (kind === 'write') return policy.mode === 'ask' || writePaths.some((path) => needsApprovalAlways(path, policy.protectedFiles ?? []));
  if (policy.mode !== 'auto' || policy.commandsSandboxed !== true) return true;
  if (commandLine === undefined) return true;
  try {
    return findDeniedCommand(commandLine, policy.deniedCommands) !== undefined;
  } catch {
    // A line the reader cannot take apart cannot be shown to be safe: ask.
    return true;
  }
}
