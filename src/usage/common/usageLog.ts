/**
 * The usage log: one line appended per answered request, read back whole for the
 * view's sums (today's alone are kept as a running total, todayUsage.ts), and rolled up by day once records pass the retention, so it stays bounded.
 * The file itself lives behind UsageStorage (a Node file in the extension).
 */
import type { Clock, Logger } from '../../base/common';
import { TodayUsage } from './todayUsage';
import { dayOf, encodeEntry, parseEntries, type DayRollup, type UsageEntry, type UsageRecord } from './usageRecord';

/** Where the log's lines are kept. Other windows of the editor append to the same log. */
export interface UsageStorage {
  /** Appends whole lines in one write, so lines of concurrent writers (chat, agent, another window) never interleave. */
  append(text: string, signal: AbortSignal): Promise<void>;
  /** The log's text ('' when there is none yet); when it is larger than the storage reads, its newest part from a line start. */
  read(signal: AbortSignal): Promise<string>;
  /**
   * The whole lines appended since `cursor` (what an earlier call returned). From the start instead
   * (`fromStart`, bounded like `read`) when there is no cursor, when the log was replaced or rewritten
   * since (a roll-up), or when more was appended than `read` takes at once. A line still being
   * written (no newline yet) is left for the next call.
   */
  readFrom(cursor: LogCursor | undefined, signal: AbortSignal): Promise<LogChunk>;
  /**
   * Moves the log aside in one step (appends after it start a new log) and gives its text, with
   * that of roll-ups a crash interrupted; undefined when there is nothing to roll up.
   */
  takeForRollUp(signal: AbortSignal): Promise<TakenLog | undefined>;
}

/** Where a reader of the log stopped: which file (a roll-up replaces it) and how far into it. */
export interface LogCursor {
  /** The file's identity ('' when there was none). */
  file: string;
  /** Bytes read, up to a line's end. */
  offset: number;
  /** The byte before `offset` (-1 at 0): another byte there later means the file was rewritten in place. */
  lastByte: number;
}

export interface LogChunk {
  text: string;
  cursor: LogCursor;
  /** The text is the log from its start (or its newest part): whatever was summed from before is to be dropped. */
  fromStart: boolean;
}

export interface TakenLog {
  text: string;
  /** Removes what was taken; gives back what a writer that opened the log just before the move appended to it since. */
  finish(signal: AbortSignal): Promise<string>;
}

/** Days of single records kept; older ones become one line per day, model and surface. */
export const RETENTION_DAYS = 30;

export class UsageLog {
  private readonly listeners = new Set<(record: UsageRecord) => void>();
  /** Today's running total (the status bar, the budget): read from the log once, then by what is appended. */
  readonly today: TodayUsage;

  constructor(
    private readonly storage: UsageStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.today = new TodayUsage(storage, clock, logger);
  }

  /** Appends the record; a failure is logged, never thrown at the request that was answered. */
  async record(record: UsageRecord, signal: AbortSignal): Promise<void> {
    try {
      await this.storage.append(encodeEntry(record), signal);
    } catch (error) {
      this.logger.warn(`usage: could not record a request (${error instanceof Error ? error.message : String(error)})`);
    }
    for (const listener of this.listeners) listener(record);
  }

  /** Told after every record of this window (the status bar and the budget listen). */
  onRecord(listener: (record: UsageRecord) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async entries(signal: AbortSignal): Promise<UsageEntry[]> {
    const { entries, skipped } = parseEntries(await this.storage.read(signal));
    if (skipped > 0) this.logger.debug(`usage: skipped ${skipped} unreadable line(s) of the usage log`);
    return entries;
  }

  /** Rolls records older than the retention into day lines, when there are any. */
  async rollUp(signal: AbortSignal): Promise<void> {
    const now = this.clock.now();
    if (!needsRollUp(await this.entries(signal), now)) return;
    const taken = await this.storage.takeForRollUp(signal);
    if (!taken) return;
    const rolled = rollUp(parseEntries(taken.text).entries, now);
    await this.storage.append(rolled.map(encodeEntry).join(''), signal);
    const late = await taken.finish(signal);
    if (late) await this.storage.append(late.endsWith('\n') ? late : `${late}\n`, signal);
    this.logger.info(`usage: rolled the usage log up to ${rolled.length} lines`);
  }
}

/** The first day whose records are kept as they are. */
export function retentionStart(now: number): string {
  return dayOf(now - RETENTION_DAYS * DAY_MS);
}

const DAY_MS = 86_400_000;

export function needsRollUp(entries: readonly UsageEntry[], now: number): boolean {
  const keepFrom = retentionStart(now);
  return entries.some((entry) => entry.kind === 'request' && dayOf(entry.time) < keepFrom);
}

/** Records of days before the retention become one day line per day, model and surface (with the day lines already there). */
export function rollUp(entries: readonly UsageEntry[], now: number): UsageEntry[] {
  const keepFrom = retentionStart(now);
  const days = new Map<string, DayRollup>();
  const kept: UsageEntry[] = [];
  for (const entry of entries) {
    const day = entry.kind === 'day' ? entry.day : dayOf(entry.time);
    if (entry.kind === 'request' && day >= keepFrom) {
      kept.push(entry);
      continue;
    }
    const key = JSON.stringify([day, entry.model, entry.surface]);
    const sum = days.get(key) ?? { kind: 'day', day, model: entry.model, surface: entry.surface, requests: 0, input: 0, output: 0, reasoning: 0 };
    sum.requests += entry.kind === 'day' ? entry.requests : 1;
    sum.input += entry.input;
    sum.output += entry.output;
    sum.reasoning += entry.reasoning;
    days.set(key, sum);
  }
  return [...[...days.values()].sort((a, b) => a.day.localeCompare(b.day)), ...kept];
}
