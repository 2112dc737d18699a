/** The ports of checkpoints: the session's checkpoint folder, and writing a restore into the workspace. */

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
