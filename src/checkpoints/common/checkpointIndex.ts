/**
 * A session's checkpoint index and restore journal as they are kept on disk, and
 * their reading back: anything may have changed those files, so every field is
 * checked and what does not fit is dropped (see checkpoints.ts for the store).
 */

export const HASH = /^[0-9a-f]{64}$/;

/** A file's content as a blob hash; null: there was no file. */
export type FileVersion = string | null;
export type Manifest = Map<string, FileVersion>;

export interface Checkpoint {
  id: number;
  kind: 'step' | 'restore';
  /** "Step 3: src/a.ts, src/b.ts", "Before restoring to step 1". */
  label: string;
  at: number;
  /** The session's turn count then (a step: the response whose calls made it). */
  turn: number;
  /** Every file the session had touched by then, as it was then. */
  files: Manifest;
  /** The files this step changed; for a restore, the files it put back. */
  changed: string[];
  conversation: ConversationAt;
  /** For a restore: the checkpoint it went back to (this one holds what was there before, to undo it). */
  restoredTo?: number;
}

/** The conversation at a checkpoint: the transcript as consecutive slices, and the rest of the chain's fields. */
export interface ConversationAt {
  segments: string[];
  length: number;
  /** Blob: JSON of the fields of CONVERSATION_FIELDS. */
  rest: string;
  /** How many commands had run by then. */
  commandsRun: number;
}

/** A checkpoint dropped to keep the session's checkpoints under the bound. */
export interface DroppedCheckpoint {
  id: number;
  label: string;
  at: number;
}

export interface Head {
  /** What the session (or the last restore) left each file as: a file that differs now was changed by someone else. */
  files: Manifest;
  segments: string[];
  length: number;
}

export interface Index {
  next: number;
  /** Every touched file as it was before the session first changed it. */
  baseline: Manifest;
  head: Head;
  checkpoints: Checkpoint[];
  dropped: DroppedCheckpoint[];
  /** A restore whose files are in place but whose conversation the session has not taken yet (a crash in between). */
  rewindTo?: number;
  /** The nonce of a revert whose files are in place but which the session has not noted yet (a crash in between). */
  revertPending?: string;
}

export interface Journal {
  phase: 'staging' | 'commit';
  /** A restore to a checkpoint, or "Revert session changes" (back to the baseline: no checkpoint, no conversation). */
  kind: 'restore' | 'revert';
  /** The checkpoint restored to (0 for a revert). */
  target: number;
  nonce: string;
  writes: { path: string; version: FileVersion }[];
  /** The index as it is once the restore is done. */
  index: string;
}

// ---- the index and the journal on disk (checked: anything may have changed them) ---------

type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function emptyIndex(): Index {
  return { next: 1, baseline: new Map(), head: { files: new Map(), segments: [], length: 0 }, checkpoints: [], dropped: [] };
}

const isVersion = (value: unknown): value is FileVersion => value === null || (typeof value === 'string' && HASH.test(value));
const isHash = (value: unknown): value is string => typeof value === 'string' && HASH.test(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function manifestOf(value: unknown): Manifest {
  const manifest: Manifest = new Map();
  if (!Array.isArray(value)) return manifest;
  for (const entry of value) {
    if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && isVersion(entry[1])) manifest.set(entry[0], entry[1]);
  }
  return manifest;
}

function checkpointOf(value: unknown): Checkpoint | undefined {
  if (!isRecord(value) || !isCount(value.id) || (value.kind !== 'step' && value.kind !== 'restore') || !isRecord(value.conversation)) return undefined;
  const conversation = value.conversation;
  if (!Array.isArray(conversation.segments) || !conversation.segments.every(isHash) || !isCount(conversation.length) || !isHash(conversation.rest)) {
    return undefined;
  }
  return {
    id: value.id,
    kind: value.kind,
    label: typeof value.label === 'string' ? value.label.slice(0, 500) : `Checkpoint ${value.id}`,
    at: isCount(value.at) ? value.at : 0,
    turn: isCount(value.turn) ? value.turn : 0,
    files: manifestOf(value.files),
    changed: Array.isArray(value.changed) ? value.changed.filter((p): p is string => typeof p === 'string') : [],
    conversation: {
      segments: conversation.segments,
      length: conversation.length,
      rest: conversation.rest,
      commandsRun: isCount(conversation.commandsRun) ? conversation.commandsRun : 0,
    },
    ...(isCount(value.restoredTo) ? { restoredTo: value.restoredTo } : {}),
  };
}

/** The text's JSON; undefined when there is no text or it is not JSON (a torn write). */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The index an index's JSON (or what the log rebuilt of it, see indexFile.ts) holds, every field checked. */
export function indexOfJson(json: unknown): Index {
  if (!isRecord(json) || !isRecord(json.head)) return emptyIndex();
  const checkpoints = Array.isArray(json.checkpoints) ? json.checkpoints.map(checkpointOf).filter((c): c is Checkpoint => c !== undefined) : [];
  const head = json.head;
  const segments = Array.isArray(head.segments) && head.segments.every(isHash) ? head.segments : [];
  const dropped = Array.isArray(json.dropped)
    ? json.dropped.filter((d): d is DroppedCheckpoint => isRecord(d) && isCount(d.id) && typeof d.label === 'string' && isCount(d.at))
    : [];
  const next = Math.max(isCount(json.next) ? json.next : 1, ...checkpoints.map((c) => c.id + 1));
  return {
    next,
    baseline: manifestOf(json.baseline),
    head: { files: manifestOf(head.files), segments, length: segments.length > 0 && isCount(head.length) ? head.length : 0 },
    checkpoints,
    dropped,
    ...(isCount(json.rewindTo) ? { rewindTo: json.rewindTo } : {}),
    ...(typeof json.revertPending === 'string' ? { revertPending: json.revertPending } : {}),
  };
}

/**
 * The index whole. `generation` names this write: the log lines written after it carry it, and
 * lines of any other generation (written before it) no longer apply (see indexFile.ts).
 */
export function serializeIndex(index: Index, generation?: string): string {
  return JSON.stringify({
    version: 1,
    ...(generation !== undefined ? { generation } : {}),
    ...indexFields(index),
    checkpoints: index.checkpoints.map(checkpointJson),
  });
}

/** A log line: every field of the index but the checkpoints, which are named by id, with only those not written before. */
export function serializeIndexLine(index: Index, generation: string, added: readonly Checkpoint[]): string {
  return JSON.stringify({ generation, ...indexFields(index), ids: index.checkpoints.map((c) => c.id), added: added.map(checkpointJson) });
}

const manifestJson = (m: Manifest) => [...m.entries()];
const checkpointJson = (c: Checkpoint) => ({ ...c, files: manifestJson(c.files) });

function indexFields(index: Index): Record<string, unknown> {
  return {
    next: index.next,
    baseline: manifestJson(index.baseline),
    head: { files: manifestJson(index.head.files), segments: index.head.segments, length: index.head.length },
    dropped: index.dropped,
    ...(index.rewindTo !== undefined ? { rewindTo: index.rewindTo } : {}),
    ...(index.revertPending !== undefined ? { revertPending: index.revertPending } : {}),
  };
}

export function parseJournal(text: string | undefined): Journal | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(json) || (json.phase !== 'staging' && json.phase !== 'commit') || typeof json.nonce !== 'string' || !/^[0-9a-z]{1,32}$/.test(json.nonce)) {
    return undefined;
  }
  if (typeof json.index !== 'string' || !Array.isArray(json.writes) || !isCount(json.target)) return undefined;
  const writes = json.writes.filter((w): w is Journal['writes'][number] => isRecord(w) && typeof w.path === 'string' && isVersion(w.version));
  return { phase: json.phase, kind: json.kind === 'revert' ? 'revert' : 'restore', target: json.target, nonce: json.nonce, writes, index: json.index };
}
