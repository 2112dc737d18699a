/**
 * Making a checkpoint: the files' versions (each content stored once under its sha256), the
 * conversation as slices shared with the checkpoints before, and keeping the session's blobs
 * under the bound by dropping the oldest checkpoints.
 */
import type { WorkspaceFiles } from '../../base/common';
import type { CheckpointFolder } from './checkpointPorts';
import type { AgentSessionState } from '../../sessionModel/common';
import type { Checkpoint, DroppedCheckpoint, FileVersion, Index, Manifest } from './checkpointIndex';
import type { CheckpointStoreOptions } from './checkpointTypes';
import { CONVERSATION_FIELDS } from './conversation';
import type { IndexFile } from './indexFile';

const MAX_DROPPED_KEPT = 20;
const DEFAULT_MAX_CHECKPOINTS = 200;
const DEFAULT_MAX_SEGMENTS = 64;

/** The store's index file and bounds, as the functions here need them. */
export interface StoreParts {
  file: IndexFile;
  options: CheckpointStoreOptions;
}

/** What a new checkpoint records; `restoredTo` for a restore's own checkpoint (the one it went back to). */
export interface NewCheckpoint {
  index: Index;
  state: AgentSessionState;
  kind: Checkpoint['kind'];
  label: string;
  files: Manifest;
  changed: string[];
  restoredTo?: number;
}

/** A file's content now, stored as a blob; null when there is no file. */
export async function versionOnDisk(folder: CheckpointFolder, path: string, files: WorkspaceFiles, signal: AbortSignal): Promise<FileVersion> {
  const stat = await files.stat(path, signal);
  if (!stat || stat.type !== 'file') return null;
  return (await folder.putBlob(await files.readText(path, signal), signal)).hash;
}

/** A checkpoint of `made` (its conversation's blobs stored), numbered next; not yet in the index. */
export async function checkpointOf(made: NewCheckpoint, store: StoreParts, signal: AbortSignal): Promise<Checkpoint> {
  const { index, state, kind, label, files, changed, restoredTo } = made;
  const { file, options } = store;
  const { folder } = file;
  const { head } = index;
  // A long session would list ever more slices in every checkpoint: past the cap, one slice again.
  const continues = state.transcript.length >= head.length && head.segments.length < (options.maxSegments ?? DEFAULT_MAX_SEGMENTS);
  const from = continues ? head.length : 0;
  const segments = continues ? [...head.segments] : [];
  if (state.transcript.length > from) segments.push((await folder.putBlob(JSON.stringify(state.transcript.slice(from)), signal)).hash);
  const restFields: Record<string, unknown> = {};
  for (const key of CONVERSATION_FIELDS) restFields[key] = state[key];
  const rest = (await folder.putBlob(JSON.stringify(restFields), signal)).hash;
  return {
    id: index.next++,
    kind,
    label,
    at: options.now(),
    turn: state.turns,
    files: new Map(files),
    changed,
    conversation: { segments, length: state.transcript.length, rest, commandsRun: state.commandsRun.length },
    ...(restoredTo !== undefined ? { restoredTo } : {}),
  };
}

/**
 * Adds a checkpoint, drops the oldest (never `keep`) while the session's blobs pass the bound,
 * writes the index, removes unused blobs.
 */
export async function addCheckpoint(
  store: StoreParts,
  added: { index: Index; checkpoint: Checkpoint; keep?: number },
  signal: AbortSignal,
): Promise<DroppedCheckpoint[]> {
  const { file, options } = store;
  const { index, checkpoint, keep } = added;
  index.checkpoints.push(checkpoint);
  const sizes = await file.folder.blobSizes(signal);
  const dropped: DroppedCheckpoint[] = [];
  for (;;) {
    const total = sumOf(referencedBlobs(index), sizes);
    const candidate = index.checkpoints.findIndex((c) => c !== checkpoint && c.id !== keep);
    const tooMany = index.checkpoints.length > (options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS);
    if ((total <= options.maxBytes && !tooMany) || candidate < 0) break;
    const [gone] = index.checkpoints.splice(candidate, 1);
    dropped.push({ id: gone.id, label: gone.label, at: gone.at });
  }
  index.dropped = [...index.dropped, ...dropped].slice(-MAX_DROPPED_KEPT);
  await file.write(index, signal);
  const used = referencedBlobs(index);
  for (const hash of sizes.keys()) if (!used.has(hash)) await file.folder.removeBlob(hash, signal);
  return dropped;
}

function referencedBlobs(index: Index): Set<string> {
  const used = new Set<string>();
  const addManifest = (manifest: Manifest) => {
    for (const version of manifest.values()) if (version !== null) used.add(version);
  };
  addManifest(index.baseline);
  addManifest(index.head.files);
  for (const segment of index.head.segments) used.add(segment);
  for (const checkpoint of index.checkpoints) {
    addManifest(checkpoint.files);
    for (const segment of checkpoint.conversation.segments) used.add(segment);
    used.add(checkpoint.conversation.rest);
  }
  return used;
}

function sumOf(hashes: Set<string>, sizes: Map<string, number>): number {
  let total = 0;
  for (const hash of hashes) total += sizes.get(hash) ?? 0;
  return total;
}
