/**
 * Saving a session in proportion to the step, not to the session: a snapshot
 * (`<id>.json`, the whole state) and an append-only journal (`<id>.journal`,
 * one JSON line per save with only what changed). Rewriting the whole file
 * after every step cost O(turns²) bytes over a session. Every SNAPSHOT_EVERY
 * records (and on the first save after a load) the snapshot is rewritten and the
 * journal starts over. Records carry a sequence number and the snapshot the last
 * one it includes, so a crash between the two writes replays nothing twice; a
 * torn last line (a crash mid-append) is ignored: that step alone is lost.
 */
import type { AgentSessionState } from './sessionState';

/** The session folder, as the journal needs it. */
export interface JournalFolder {
  /** The file's text; undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  /** Replaces the file as a whole, never leaving it half-written (a temporary file and a rename). */
  writeAtomic(name: string, text: string): Promise<void>;
  append(name: string, text: string): Promise<void>;
  /** Removes the file; nothing when it does not exist. */
  remove(name: string): Promise<void>;
}

export const SNAPSHOT_EVERY = 100;
/** Lists that only grow between snapshots: a record carries their new tail. */
const GROWING = ['transcript', 'originals', 'commandsRun', 'compactions'] as const;
type Growing = (typeof GROWING)[number];

interface Written {
  seq: number;
  /** Records since the snapshot. */
  records: number;
  lengths: Record<Growing, number>;
  /** JSON of every other top-level field as last written. */
  fields: Map<string, string>;
}

interface JournalRecord {
  seq: number;
  set?: Record<string, unknown>;
  unset?: string[];
  push?: Partial<Record<Growing, unknown[]>>;
}

export const snapshotName = (id: string): string => `${id}.json`;
export const journalName = (id: string): string => `${id}.journal`;

export class SessionJournal {
  private readonly written = new Map<string, Written>();
  /** Saves of one session run one after another: a record is a diff against the one before. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly folder: JournalFolder,
    private readonly snapshotEvery = SNAPSHOT_EVERY,
  ) {}

  save(state: AgentSessionState): Promise<void> {
    const previous = this.queues.get(state.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.saveNow(state));
    this.queues.set(state.id, next);
    return next;
  }

  /** Forgets what was written of a session (deleted, or changed by someone else): the next save is a snapshot. */
  forget(id: string): void {
    this.written.delete(id);
  }

  private async saveNow(state: AgentSessionState): Promise<void> {
    const written = this.written.get(state.id);
    const record = written && written.records < this.snapshotEvery ? recordOf(state, written) : undefined;
    if (!written || !record) return this.snapshot(state, written?.seq ?? 0);
    if (!record.set && !record.unset && !record.push) return;
    try {
      await this.folder.append(journalName(state.id), `${JSON.stringify(record)}\n`);
    } catch {
      // A journal that cannot be appended to: the whole state, as before, rather than a lost step.
      return this.snapshot(state, written.seq);
    }
    remember(state, written, record.seq);
  }

  private async snapshot(state: AgentSessionState, seq: number): Promise<void> {
    await this.folder.writeAtomic(snapshotName(state.id), JSON.stringify({ ...state, journalSeq: seq }));
    this.written.set(state.id, { seq, records: 0, lengths: lengthsOf(state), fields: fieldsOf(state) });
    // Records up to `seq` are in the snapshot now; a journal left behind by a crash here is skipped by its numbers.
    await this.folder.remove(journalName(state.id)).catch(() => undefined);
  }
}

function lengthsOf(state: AgentSessionState): Record<Growing, number> {
  const lengths = {} as Record<Growing, number>;
  for (const key of GROWING) lengths[key] = (state[key] ?? []).length;
  return lengths;
}

function fieldsOf(state: AgentSessionState): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(state)) {
    if ((GROWING as readonly string[]).includes(key)) continue;
    const json = JSON.stringify(value);
    if (json !== undefined) fields.set(key, json);
  }
  return fields;
}

/** The record of what changed since `written`; undefined when a list shrank (only a snapshot says that). */
function recordOf(state: AgentSessionState, written: Written): JournalRecord | undefined {
  const record: JournalRecord = { seq: written.seq + 1 };
  for (const key of GROWING) {
    const list: readonly unknown[] = state[key] ?? [];
    if (list.length < written.lengths[key]) return undefined;
    if (list.length > written.lengths[key]) (record.push ??= {})[key] = list.slice(written.lengths[key]);
  }
  const now = fieldsOf(state);
  for (const [key, json] of now) if (written.fields.get(key) !== json) (record.set ??= {})[key] = JSON.parse(json) as unknown;
  for (const key of written.fields.keys()) if (!now.has(key)) (record.unset ??= []).push(key);
  return record;
}

function remember(state: AgentSessionState, written: Written, seq: number): void {
  written.seq = seq;
  written.records++;
  written.lengths = lengthsOf(state);
  written.fields = fieldsOf(state);
}

/**
 * The session JSON a snapshot and its journal make: the records after the
 * snapshot's, in order, up to the first torn or missing one.
 */
export function replayJournal(snapshotText: string, journalText: string | undefined): unknown {
  const base: unknown = JSON.parse(snapshotText);
  if (typeof base !== 'object' || base === null || Array.isArray(base) || !journalText) return base;
  const state = base as Record<string, unknown>;
  const from = typeof state.journalSeq === 'number' ? state.journalSeq : 0;
  let expected = from + 1;
  for (const line of journalText.split('\n')) {
    if (line.trim() === '') continue;
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      break;
    }
    if (typeof record !== 'object' || record === null || typeof record.seq !== 'number') break;
    if (record.seq <= from) continue;
    if (record.seq !== expected) break;
    apply(state, record);
    expected++;
  }
  return state;
}

function apply(state: Record<string, unknown>, record: JournalRecord): void {
  if (record.set && typeof record.set === 'object') {
    for (const [key, value] of Object.entries(record.set)) if (!(GROWING as readonly string[]).includes(key)) state[key] = value;
  }
  if (Array.isArray(record.unset)) for (const key of record.unset) if (typeof key === 'string') delete state[key];
  if (record.push && typeof record.push === 'object') {
    for (const key of GROWING) {
      const added = record.push[key];
      if (!Array.isArray(added)) continue;
      const list = Array.isArray(state[key]) ? (state[key] as unknown[]) : [];
      for (const item of added) list.push(item);
      state[key] = list;
    }
  }
}
