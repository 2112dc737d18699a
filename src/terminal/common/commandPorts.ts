/** The ports of commands: running them, background commands, and the control-file guard around a sandboxed one. */
import type { ControlRollback } from './controlPaths';

export interface CommandResult {
  exitCode: number | undefined;
  /** Combined stdout and stderr as the user would see it. */
  output: string;
  timedOut: boolean;
  /** Set when the command ran in the `auto` mode's sandbox. */
  sandboxed?: { network: boolean };
  /** Set when it was stopped and a process of it could not be confirmed gone (what it changed must not land unasked). */
  lingering?: true;
}

/**
 * Reviews what a sandboxed command changed before it reaches the workspace
 * (terminal/common/changeReview.ts): ordinary changes land, code that other
 * software would run later, links and protected files are held for the user.
 */
export interface ControlFileGuard {
  /**
   * Before a command: its change layer, prepared for the sandbox's next launch, when
   * the command will run in the sandbox; undefined when it will not (the user approved
   * it: what it creates is theirs). Throws when no layer can be made.
   */
  watch(signal: AbortSignal): Promise<ControlWatch | undefined>;
}

export interface ControlWatch {
  /** Aborts the moment a protected file appears in the workspace while the command runs: the command must be stopped. */
  readonly tripped: AbortSignal;
  /**
   * Once the command has ended (or was stopped): reads its change set, lands what
   * may land and holds the rest for the user. Runs even after a stop; bounded in
   * time by the guard itself; once per watch (a second call gives the first's result). `holdAll`: why nothing
   * may land unasked (a process of the command could not be confirmed gone): every change is held, with it.
   */
  settle(signal: AbortSignal, holdAll?: string): Promise<ControlRollback>;
  /**
   * While the command still runs (a background command, at each read of its output): lands what may land so
   * far, copied so the command goes on seeing its own files, and tells what is newly held.
   */
  review?(signal: AbortSignal): Promise<ControlRollback>;
}

/** Tells of paths as they appear or change in a workspace (a file-system watcher). */
export interface ControlPathWatcher {
  /**
   * Calls `onPath` with the workspace-relative path of each entry created or changed
   * in the workspace, and `onGone` (when given) with each one deleted or moved away. `folders`: the workspace's
   * folders to watch (workspace-relative), for a watcher that needs one watch per folder; a recursive watcher ignores it.
   */
  watch(root: string, folders: readonly string[], onPath: (path: string) => void, onGone?: (path: string) => void): { dispose(): void };
}

/** The changes of one command that were held back, kept outside the workspace until the user applies or discards them. */
export interface QuarantinedControlPaths {
  readonly rollback: ControlRollback;
  /** Applies one held path (and what is below it) to the workspace; throws, saying why, when it cannot. */
  restore(path: string, signal: AbortSignal): Promise<void>;
  /** Deletes every change still held for this command. */
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
  /** Once it ended: whether a stop gave up waiting while a process of it still ran (what it changed must not land unasked). */
  lingering?(): boolean;
}

/** Why a command's change set waits whole when a process of it outlived its stop: it may still be writing. */
export const LINGERING_REASON = 'a process of the command could not be confirmed gone after it was stopped';

/** Runs a command line in a folder of the workspace, where the user can see it. */
export interface CommandRunner {
  run(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult>;
}
