/** What a WorkspaceAnchor is asked to open (anchoredPaths.ts), and what it gives back. */
import type { FileHandle } from 'node:fs/promises';
import type { AnchoredAction } from './anchoredRefusals';

/** A file opened and checked: the handle, and where it really is (workspace-relative). */
export interface OpenedFile {
  handle: FileHandle;
  real: string;
  created: boolean;
}

export interface FileRequest {
  action: AnchoredAction;
  /** Open for writing (O_WRONLY) rather than reading. */
  write?: boolean;
  /** Create the file (O_EXCL) and its missing folders when it is not there. */
  create?: boolean;
  /** The real workspace path the caller checked (and the user approved): anything else is refused. */
  expected?: string;
}

export interface FolderRequest {
  action: AnchoredAction;
  /** The path the operation was asked for (named in refusals, and by the policy). */
  requested: string;
  /** Make missing folders. */
  create?: boolean;
  /** The root's real path, when the caller has it already. */
  realRoot?: string;
}

export interface AnchorOptions {
  /** `gateway.agent.protectedFiles`, asked at each operation (the setting may change); the defaults when absent. */
  protectedFiles?: () => readonly string[];
  /** false: the way without /proc (macOS, Windows), for tests of it on Linux; absent: /proc on Linux only. */
  procFd?: boolean;
}
