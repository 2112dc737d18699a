/**
 * The small interfaces the core needs from its host. The core never reaches for
 * timers, the network or storage on its own, so it runs unchanged in VS Code,
 * in plain Node tests and in benchmarks.
 */

/** Wall-clock time and waiting; tests substitute one that records waits. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `onFire` once, `ms` from now, unless `signal` aborts first. For
   * watchdogs and deadlines that run beside other work, where `sleep` would
   * read as a wait of its own (tests record sleeps and pass them at once).
   */
  after(ms: number, onFire: () => void, signal: AbortSignal): void;
}

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * The reason to stop a timer or a wait of one's own with, where nobody reads the reason: `abort()` with
 * none builds a DOMException and its stack trace every time, and a request stopped several such timers.
 */
export const TIMER_STOPPED = 'timer stopped';

/** The longest delay a JavaScript timer holds: a longer one fires after 1 ms instead (and a loop around it spins). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay a timer can hold: NaN and negatives are 0, anything past MAX_TIMER_MS is MAX_TIMER_MS. */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, timerDelay(ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  after: (ms, onFire, signal) => {
    if (signal.aborted) return;
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancel);
      onFire();
    }, timerDelay(ms));
    const cancel = () => clearTimeout(timer);
    signal.addEventListener('abort', cancel, { once: true });
  },
};

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * The workspace as the agent's tools see it. Paths are workspace-relative with
 * `/` separators and have already passed the core's path policy; the host
 * resolves them against its root.
 */
export interface WorkspaceFiles {
  /** The file's text, including unsaved changes where the host has them (an open editor). */
  readText(path: string, signal: AbortSignal): Promise<string>;
  /** undefined when nothing is there. */
  stat(path: string, signal: AbortSignal): Promise<FileStat | undefined>;
  /** The entries of a folder, not recursive. */
  list(path: string, signal: AbortSignal): Promise<DirectoryEntry[]>;
  /**
   * Where the path really leads once symlinks are followed, relative to the
   * workspace root (`/`-separated), or undefined when that is outside the root.
   * The nearest existing ancestor is resolved for a path that does not exist yet.
   */
  realPathInside(path: string, signal: AbortSignal): Promise<string | undefined>;
  /** Whether the host's ignore rules (.gitignore, files.exclude) hide this path. */
  isIgnored(path: string, signal: AbortSignal): Promise<boolean>;
  /**
   * For one walk: isIgnored for each entry the walk meets, with each ignore
   * file read once for all of them and the entry's kind as the walk saw it
   * (absent: isIgnored per entry).
   */
  ignoredInWalk?(signal: AbortSignal): (path: string, isDirectory: boolean) => Promise<boolean>;
  /** The globs the host hides on top of the ignore files (`files.exclude`), for a WorkspaceSearch; none when absent. */
  excludedGlobs?(): readonly string[];
  /** Files whose text here differs from the disk (unsaved editors): a WorkspaceSearch reads the disk, so they are searched here. */
  unsavedPaths?(): readonly string[];
}

export interface FileStat {
  type: 'file' | 'directory';
  size: number;
  /**
   * How many names (hard links) the file has, where the host knows. The tools
   * refuse a file with more than one: its other name may be `.env` or a key,
   * and finding every name would mean searching the whole disk.
   */
  links?: number;
}

export interface DirectoryEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
}

/**
 * Applies a change the user approved. In VS Code it is a WorkspaceEdit, so undo
 * works and unsaved editors are never overwritten silently; in Node it writes the file.
 */
export interface FileChanges {
  /**
   * Replaces the file's whole content, creating it (and its folders) when missing.
   * With `expected`, the write lands on that real path or nowhere.
   */
  write(path: string, content: string, signal: AbortSignal, expected?: WriteExpectation): Promise<void>;
  /** Removes a file the session created (for "Revert session changes"); nothing when it is already gone. */
  delete(path: string, signal: AbortSignal): Promise<void>;
}

/** Where the caller's last check found that a write of a path lands. */
export interface WriteExpectation {
  /** The workspace-relative real path (symlinks inside the workspace followed), as WorkspaceFiles.realPathInside gave it. */
  realPath: string;
}
