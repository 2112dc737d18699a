/**
 * What a session needs from the machine its files are on. This is a workspace
 * extension, so they are local: the composition root passes the Node implementations.
 */
import type { GitWorktrees } from './worktreePorts';
import type { FileChanges, WorkspaceFiles } from '../../../base/common';
import type { WorkspaceSearch } from '../../../tools/common';
import type { CheckpointShelf, CheckpointFolder, WorkspaceRestore } from '../../../checkpoints/common';
import type {
  SandboxLaunch,
  HomeFolder,
  MachineSandbox,
  BackgroundStart,
  CommandResult,
  ControlFileGuard,
  ControlPathWatcher,
  QuarantinedControlPaths,
  StartedCommand,
} from '../../../terminal/common';
import type { HookFiles } from '../../../customization/common';
import type { HookHost } from '../../../customization/common';

/** A command to run as a child process of the extension host. */
export interface ChildProcessRequest {
  /** The workspace folder's path. */
  rootPath: string;
  command: string;
  /** Relative to the root. */
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Sees the output as it arrives. */
  onOutput: (text: string) => void;
  /** Runs it in this sandbox when given. */
  sandbox?: SandboxLaunch;
}

/** A command to start as a child process of the extension host and leave running: `cwd` relative to `rootPath`. */
export interface ChildStartRequest extends BackgroundStart {
  rootPath: string;
  /** Runs it in this sandbox when given. */
  sandbox?: SandboxLaunch;
}

/** What the control-file guard needs from VS Code: its file watcher, whether a command goes into the sandbox, and the user. */
export interface ControlGuardHooks {
  watcher: ControlPathWatcher;
  willSandbox: () => boolean;
  onRollback: (quarantined: QuarantinedControlPaths) => void;
}

export interface LocalMachine {
  /** The folder's files on disk (unsaved editors are layered on top by the VS Code side). */
  files(rootPath: string): WorkspaceFiles;
  /** VS Code's own ripgrep over the folder, for list_files and search_text; undefined where none was found (the tools walk the files). */
  search(rootPath: string): WorkspaceSearch | undefined;
  /** Runs a command as a child process; streams its output to `onOutput`; in `sandbox` when given. */
  runChildProcess(request: ChildProcessRequest): Promise<CommandResult>;
  /** Starts a command as a child process and leaves it running (run_command with background); in `sandbox` when given. */
  startChildProcess(request: ChildStartRequest): Promise<StartedCommand>;
  /**
   * The folder's writes and removals on disk, each through a handle checked after it
   * was opened (inside the root, not protected, not a hard link, where the check said).
   */
  fileChanges(rootPath: string): FileChanges;
  /** A session's checkpoint folder, in the extension's storage (never in the workspace). */
  checkpointFolder(sessionId: string): CheckpointFolder;
  /** The folder of every session's checkpoint folder, for deleting and retention across sessions. */
  checkpointShelf: CheckpointShelf;
  /** The total bound of every session's checkpoints in this workspace, in bytes (the user's setting). */
  checkpointStorageBytes(): number;
  /** A checkpoint restore's two-phase writes into the folder at `rootPath`. */
  workspaceRestore(rootPath: string): WorkspaceRestore;
  /** Terminal output without colours and shell-integration sequences. */
  plainTerminalText(output: string): string;
  /**
   * Issue 21: the guard that moves out the control files (a new .git, .vscode …) a
   * sandboxed command of session `sessionId` leaves in `rootPath` (src/terminal/node/controlGuard.ts).
   */
  controlGuard?(rootPath: string, sessionId: string, hooks: ControlGuardHooks): ControlFileGuard;
  /** The `auto` mode's sandbox on this machine. */
  sandbox: MachineSandbox;
  /** The user's home folder, as the sandbox empties it: a workspace that is it or holds it is not sandboxed. */
  home: HomeFolder;
  /** The user's home folder's files (paths relative to it; symlinks out refused), for personal skills; undefined when there is none. */
  homeFiles?(): WorkspaceFiles | undefined;
  /** The system hooks run on, as Node names it (`process.platform`): VS Code's hook files give a line per system. */
  platform: string;
  /** Runs the workspace's hooks in `rootPath`, in the launch `sandboxFor` gives (the `auto` mode's sandbox) or outside it when none. */
  hookHost?(rootPath: string, sandboxFor: (command: string, cwd: string, signal: AbortSignal) => Promise<SandboxLaunch | undefined>): HookHost;
  /** The files hooks' lines name in `rootPath` and the home folder, digested for their approval (read through checked handles). */
  hookFiles?(rootPath: string): HookFiles;
  /** The sessions' own Git worktrees (issue 40). */
  worktrees?: GitWorktrees;
}
