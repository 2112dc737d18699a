/**
 * The small interfaces the core needs from its host. The core never reaches for
 * timers, the network or storage on its own, so it runs unchanged in VS Code,
 * in plain Node tests and in benchmarks.
 */
import type { ControlRollback } from '../../terminal/common';

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

/** Where the API key comes from (SecretStorage in VS Code); asked on every request so a new key applies at once. */
export interface ApiKeyProvider {
  getApiKey(signal: AbortSignal): Promise<string | undefined>;
  /**
   * The origin the key was checked against; a request to another origin is
   * refused before it leaves. Absent or undefined: the key is not bound (a key
   * being checked, a test's key).
   */
  keyOrigin?(signal: AbortSignal): Promise<string | undefined>;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

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
 * A fast engine behind list_files and search_text (ripgrep, in another process).
 * It applies the workspace's ignore files itself and prunes what it is told to
 * leave out; the tools still check every path it returns (inside the folder,
 * not protected, matching the glob), so a rule it reads differently can only
 * cost speed, never show what must stay hidden. It does not follow symlinks.
 */
export interface WorkspaceSearch {
  /** Which engine this is, for the log: "ripgrep (/path/to/rg)". */
  readonly name: string;
  /** The files under the folder (not folders), in no particular order, in batches. */
  listFiles(query: FileQuery, signal: AbortSignal): AsyncIterable<SearchBatch<string>>;
  /**
   * The matching lines (at most `maxMatchesPerFile`) of every text file with a
   * match, a file at a time, files in no particular order; binary files and
   * files over the size limit are not searched. `wanted` is asked once per file,
   * at its first match: a file it declines is read past without decoding its
   * lines (the caller keeps only the first matches in tree order). A file may
   * come in more than one item. Throws SearchPatternError for a pattern the
   * engine refuses.
   */
  searchFiles(query: TextQuery, wanted: (path: string) => boolean, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatches>>;
  /**
   * Every text file with a match, with how many of its lines match (at most
   * `maxMatchesPerFile`): what searchFiles finds, in a few bytes per file, for
   * when its lines are too many to read.
   */
  countMatches(query: TextQuery, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatchCount>>;
  /** The matching lines of these files (workspace-relative, chosen from countMatches), in no particular order. */
  matchingLines(query: TextQuery, paths: readonly string[], signal: AbortSignal): AsyncIterable<SearchBatch<TextMatch>>;
}

export interface FileQuery {
  /** Workspace-relative folder (`.` for the root), already checked by the path policy. */
  folder: string;
  /** false when the user asked for an ignored folder by name: no ignore file applies. */
  respectIgnore: boolean;
  /** Globs (this project's dialect) whose files may be left out early: protected files match case-insensitively. */
  protectedGlobs: readonly string[];
  /** Globs the host hides on top of the ignore files (VS Code's `files.exclude`). */
  excludedGlobs: readonly string[];
  /** Only files whose name (the last segment) matches this glob are wanted; the caller checks the whole glob again. */
  nameGlob?: string;
  /** Larger files are left out. */
  maxFileBytes?: number;
}

export interface TextQuery extends FileQuery {
  /** Text, or a regular expression (RE2-like syntax, linear time) when `regex`. */
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  maxFileBytes: number;
  /** Matching lines reported per file, at most. */
  maxMatchesPerFile: number;
}

export interface FileMatchCount {
  /** Workspace-relative. */
  path: string;
  /** Matching lines. */
  lines: number;
}

/** The matching lines of one file, in line order. */
export interface FileMatches {
  /** Workspace-relative. */
  path: string;
  matches: TextMatch[];
}

export interface TextMatch {
  /** Workspace-relative. */
  path: string;
  /** 1-based. */
  line: number;
  /** The whole line, without its line ending. */
  text: string;
  /** Where the first match starts in `text` (UTF-16 index). */
  column: number;
}

/** Some items, or, as the last batch, why the engine stopped before the end (too many results, too long). */
export interface SearchBatch<T> {
  items: T[];
  stopped?: string;
  /**
   * searchFiles, in its last batch: how many files the engine searched (binary
   * ones too), when it says, and only when it left out exactly the files the
   * query's globs name (then, with the same glob, it searched what a listing of
   * the files under the size limit would list).
   */
  searched?: number;
}

/** The search engine refused the pattern; the message is its own reason. */
export class SearchPatternError extends Error {}

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

/** Where agent sessions are kept between steps, reloads and crashes. */
export interface SessionStore<T> {
  save(state: T): Promise<void>;
  load(id: string): Promise<T | undefined>;
  list(): Promise<T[]>;
}

/** What the user is asked to approve. */
export interface ApprovalRequest {
  sessionId: string;
  callId: string;
  toolName: string;
  /** One line: "Edit src/app.ts", "Run npm test". */
  summary: string;
  /** For writes: the file before and after, shown as a diff. */
  preview?: { path: string; before: string | undefined; after: string };
  /** `background`: the command is started and left running (run_command with background). */
  /** `reason`: why it asks, when it is a command (approvalPolicy.ts, commandApprovalReason). */
  command?: { line: string; cwd: string; background?: boolean; reason?: string };
  /** For a host tool: its whole input (the summary shows its start and end), for "Show Full Input". */
  input?: { tool: string; text: string; chars: number; complete: boolean };
}

/** Asks the user; resolves when they answer (the session waits, saved, meanwhile). */
export interface Approver {
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
}

/**
 * A session's checkpoint folder, outside the workspace (the extension's storage):
 * file contents kept once each under their sha256, and a few named records.
 * Everything read back is checked by the caller: the folder is on disk, where
 * anything could have changed it.
 */
export interface CheckpointFolder {
  /** Stores `text` under the sha256 of its UTF-8 bytes (nothing written when that blob is there already); the hex digest and byte size. */
  putBlob(text: string, signal: AbortSignal): Promise<{ hash: string; size: number }>;
  /** The blob's text; undefined when it is not there. */
  getBlob(hash: string, signal: AbortSignal): Promise<string | undefined>;
  /** Every stored blob and its size in bytes. */
  blobSizes(signal: AbortSignal): Promise<Map<string, number>>;
  removeBlob(hash: string, signal: AbortSignal): Promise<void>;
  /** A record's text (`index`, `journal`); undefined when there is none. */
  read(name: CheckpointRecord, signal: AbortSignal): Promise<string | undefined>;
  /** Replaces a record whole: a temporary file, then a rename, so a crash leaves the old one or the new one. */
  writeAtomic(name: CheckpointRecord, text: string, signal: AbortSignal): Promise<void>;
  /** Appends `text` to a record in one write (O_APPEND), so lines of two writers never interleave; a crash may leave the last one torn. */
  append(name: CheckpointRecord, text: string, signal: AbortSignal): Promise<void>;
  remove(name: CheckpointRecord, signal: AbortSignal): Promise<void>;
}

/** `index-log`: the index's changes since it was last written whole (see checkpoints/common/indexFile.ts). */
export type CheckpointRecord = 'index' | 'index-log' | 'journal';

/**
 * Writes a restore into the workspace in two phases: every new content is first
 * staged beside its file (a temporary file in the same folder), then each staged
 * file is renamed over its target. A rename is atomic, so each file is whole;
 * the restore journal makes the set of them all-or-nothing across a crash.
 */
export interface WorkspaceRestore {
  /** Writes `content` to a temporary file beside `path` named after `nonce` (creating its folders). */
  stage(path: string, nonce: string, content: string, signal: AbortSignal): Promise<void>;
  /** Renames the file staged for `path` over it; nothing when the staged file is gone (renamed already, before a crash). */
  commit(path: string, nonce: string, signal: AbortSignal): Promise<void>;
  /** Removes `path`; nothing when it is gone. */
  remove(path: string, signal: AbortSignal): Promise<void>;
  /** Removes the file staged for `path` when it will not be committed; nothing when it is gone. */
  discard(path: string, nonce: string, signal: AbortSignal): Promise<void>;
}
