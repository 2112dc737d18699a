/** The ports of commands: running them, background commands, and the control-file guard around a sandboxed one. */
import type { ControlRollback } from './controlPaths';

export interface CommandResult {
  exitCode: number | undefined;
  /** Combined stdout and stderr as the user would see it. */
  output: string;
  timedOut: boolean;
  /** Set when the command ran in the `auto` mode's sandbox. */
  sandboxed?: { network: boolean };
}

/**
 * Keeps a sandboxed command from leaving control paths behind (files that make
 * other software run code later: see terminal/common/controlPaths.ts).
 */
export interface ControlFileGuard {
  /**
   * Before a command: a watch over the workspace when the command will run in
   * the sandbox; undefined when it will not (the user approved it: what it
   * creates is theirs). Throws when the workspace cannot be checked (too many files).
   */
  watch(signal: AbortSignal): Promise<ControlWatch | undefined>;
}

export interface ControlWatch {
  /** Aborts the moment a new control path appears while the command runs: the command must be stopped. */
  readonly tripped: AbortSignal;
  /**
   * Once the command has ended (or was stopped): stops watching, and moves every
   * control path that is new since `watch` out of the workspace. Runs even after
   * a stop; bounded in time by the guard itself.
   */
  settle(signal: AbortSignal): Promise<ControlRollback>;
}

/** Tells of control paths as they appear in a workspace (a file-system watcher). */
export interface ControlPathWatcher {
  /**
   * Calls `onControlPath` with the workspace-relative path of each new entry that
   * is, or lies in, a control path. `folders`: the workspace's folders now
   * (workspace-relative), for a watcher that needs one watch per folder.
   */
  watch(root: string, folders: readonly string[], onControlPath: (path: string) => void): { dispose(): void };
}

/** The control paths one command left, kept outside the workspace until the user restores or discards them. */
export interface QuarantinedControlPaths {
  readonly rollback: ControlRollback;
  /** Puts one kept path back where it was; throws (saying why) when something is there now or it leads outside the workspace. */
  restore(path: string, signal: AbortSignal): Promise<void>;
  /** Deletes every path still kept for this command. */
  discard(signal: AbortSignal): Promise<void>;
}

/** A command to start and leave running (a dev server, a watcher): `cwd` as for CommandRunner.run. */
export interface BackgroundStart {
  command: string;
  cwd: string;
  /** Sees the output (stdout and stderr as they come) until the command ends. */
  onOutput: (text: string) => void;
  /** Cancels the start only: a command that has started runs until it ends or `stop` is called. */
  signal: AbortSignal;
}

/** A command that was started and keeps running until it ends or is stopped. */
export interface StartedCommand {
  /** Resolves with the exit code when it ends (undefined when a signal ended it); never rejects. */
  readonly ended: Promise<number | undefined>;
  /**
   * Stops it and everything it started (its process group, or its sandbox): SIGTERM, then SIGKILL after a
   * grace period. Resolves once it has ended, or when a bounded wait for that is over; never rejects.
   */
  stop(): Promise<void>;
  /** Set when it runs in the `auto` mode's sandbox. */
  readonly sandboxed?: { network: boolean };
}

/** Runs a command line in a folder of the workspace, where the user can see it. */
export interface CommandRunner {
  run(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult>;
}
