/**
 * A session's checkpoint index on disk, read once and kept in memory until something makes the copy stale.
 *
 * Written whole, the index cost every capture as much as all the checkpoints before it (each lists
 * every touched file). So a capture appends one line to `index-log` instead: the index's fields
 * but the checkpoints, which it names by id, adding only the checkpoints not written before. A
 * line goes in one O_APPEND write; a crash can tear only the last one, which reads as nothing, so
 * the index is the one before it. Once the log outgrows the whole index (or MAX_LOG_LINES), the
 * index is written whole again (a temporary file and a rename) under a new generation: log lines
 * of an older generation no longer apply, so a crash before the old log is removed loses nothing
 * and brings nothing back. Anything that writes the index whole (a restore's journal) does the same.
 */
import type { CheckpointFolder } from './checkpointPorts';
import { HASH, indexOfJson, isRecord, jsonOf, serializeIndex, serializeIndexLine, type Checkpoint, type Index } from './checkpointIndex';
import { CheckpointUnavailable } from './checkpointTypes';

/** The log is folded into the index once it is larger than the index and this. */
const MIN_LOG_BYTES = 64 * 1024;
/** …or has this many lines (each is read at the session's next load). */
export const MAX_LOG_LINES = 200;

/** What is on disk now, as this window last read or wrote it. */
interface OnDisk {
  generation: string;
  indexBytes: number;
  logBytes: number;
  logLines: number;
  /** The log ends in a torn line: the next one starts on a line of its own. */
  torn: boolean;
  /** The checkpoints written, by id: one that is the same object since is not written again. */
  written: Map<number, Checkpoint>;
}

export class IndexFile {
  private index: Index | undefined;
  private onDisk: OnDisk | undefined;

  constructor(readonly folder: CheckpointFolder) {}

  async load(signal: AbortSignal): Promise<Index> {
    if (this.index) return this.index;
    const whole = await this.folder.read('index', signal);
    const log = await this.folder.read('index-log', signal);
    const { index, generation, lines } = replay(whole, log);
    this.index = index;
    this.onDisk =
      generation === undefined
        ? undefined
        : {
            generation,
            indexBytes: whole?.length ?? 0,
            logBytes: log?.length ?? 0,
            logLines: lines,
            torn: log !== undefined && log.length > 0 && !log.endsWith('\n'),
            written: writtenOf(index),
          };
    return index;
  }

  async write(index: Index, signal: AbortSignal): Promise<void> {
    const disk = this.onDisk;
    if (disk === undefined || disk.logLines >= MAX_LOG_LINES || disk.logBytes > Math.max(MIN_LOG_BYTES, disk.indexBytes)) {
      return this.writeWhole(index, signal);
    }
    const added = index.checkpoints.filter((c) => disk.written.get(c.id) !== c);
    const line = `${disk.torn ? '\n' : ''}${serializeIndexLine(index, disk.generation, added)}\n`;
    // Until the line is known whole, the next write is a whole one.
    this.onDisk = undefined;
    await this.folder.append('index-log', line, signal);
    this.onDisk = { ...disk, logBytes: disk.logBytes + line.length, logLines: disk.logLines + 1, torn: false, written: writtenOf(index) };
  }

  /** The index whole, under a new generation; then the log of the old one is removed. */
  async writeWhole(index: Index, signal: AbortSignal): Promise<void> {
    const generation = newGeneration();
    const text = serializeIndex(index, generation);
    this.onDisk = undefined;
    await this.folder.writeAtomic('index', text, signal);
    // Its lines no longer apply: removed only to keep the folder small, so a failure here is no failure of the write.
    const removed = await this.folder.remove('index-log', signal).then(
      () => true,
      () => false,
    );
    this.onDisk = {
      generation,
      indexBytes: text.length,
      logBytes: removed ? 0 : Number.POSITIVE_INFINITY,
      logLines: 0,
      torn: false,
      written: writtenOf(index),
    };
  }

  /** Writes an index serialized before (a restore's journal holds it): it has no generation, so no log line applies to it, and the next write is whole. */
  async writeSerialized(text: string, signal: AbortSignal): Promise<void> {
    this.onDisk = undefined;
    await this.folder.writeAtomic('index', text, signal);
  }

  /** The index on disk changed behind the copy (a journal's index written, a failed stage): read it again next time. */
  forget(): void {
    this.index = undefined;
    this.onDisk = undefined;
  }

  /** A blob's text; undefined when it is gone (or the hash is not one). */
  blob(hash: string, signal: AbortSignal): Promise<string | undefined> {
    return HASH.test(hash) ? this.folder.getBlob(hash, signal) : Promise.resolve(undefined);
  }

  async blobOrThrow(hash: string, signal: AbortSignal): Promise<string> {
    const text = await this.blob(hash, signal);
    if (text === undefined) throw new CheckpointUnavailable('A file of that checkpoint is missing from the checkpoint store; nothing was changed.');
    return text;
  }
}

/**
 * The index the whole one and the log lines of its generation make: the fields of the last whole
 * line, its checkpoints found by id in the whole index or any line before. Every field is then
 * checked as in a whole index (indexOfJson): anything may have changed these files.
 */
function replay(whole: string | undefined, log: string | undefined): { index: Index; generation: string | undefined; lines: number } {
  const snapshot = jsonOf(whole);
  if (!isRecord(snapshot)) return { index: indexOfJson(undefined), generation: undefined, lines: 0 };
  const generation = typeof snapshot.generation === 'string' ? snapshot.generation : undefined;
  const bodies = new Map<unknown, unknown>();
  const addBodies = (list: unknown) => {
    if (Array.isArray(list)) for (const c of list) if (isRecord(c)) bodies.set(c.id, c);
  };
  addBodies(snapshot.checkpoints);
  let state: Record<string, unknown> = snapshot;
  let ids: unknown[] = Array.isArray(snapshot.checkpoints) ? snapshot.checkpoints.map((c) => (isRecord(c) ? c.id : undefined)) : [];
  let lines = 0;
  for (const text of generation !== undefined && log ? log.split('\n') : []) {
    const line = text === '' ? undefined : jsonOf(text);
    // A torn line, or one of another generation (written before the whole index was), is not part of it.
    if (!isRecord(line) || line.generation !== generation || !Array.isArray(line.ids)) continue;
    addBodies(line.added);
    state = line;
    ids = line.ids;
    lines++;
  }
  const checkpoints = ids.map((id) => bodies.get(id)).filter((c) => c !== undefined);
  return { index: indexOfJson({ ...state, checkpoints }), generation, lines };
}

function writtenOf(index: Index): Map<number, Checkpoint> {
  return new Map(index.checkpoints.map((c) => [c.id, c]));
}

/** Names a whole write of the index; unique enough that two writes never share one. */
function newGeneration(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
