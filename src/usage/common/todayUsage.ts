/**
 * Today's usage as a running total, for the status bar and the daily budget: the log is
 * read whole (bounded) once, then only what was appended since, by this window or any
 * other, so a request costs a read of about its own line instead of the whole log.
 * A roll-up that replaces the file, or a new local day, starts the sums over from the log.
 */
import type { Clock, Logger } from '../../base/common';
import type { LogCursor, UsageStorage } from './usageLog';
import { dayOf, parseEntries, type TokenCounts } from './usageRecord';
import { addTo, emptyTotals, type PriceOf, type Totals } from './usageSummary';

/** Models summed apart; a log naming more (it is shared, so hostile) sums the rest together, without a price. */
export const MAX_MODELS_TODAY = 200;

interface Counts extends TokenCounts {
  requests: number;
}

export class TodayUsage {
  /** The local day summed, undefined before the first read. */
  private day: string | undefined;
  private cursor: LogCursor | undefined;
  private byModel = new Map<string, Counts>();
  private others = zero();
  private reading: Promise<void> | undefined;
  private readonly newDayListeners = new Set<() => void>();
  private midnight: AbortController | undefined;

  constructor(
    private readonly storage: UsageStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Today's totals, after reading what was appended to the log since the last call; prices are applied now, so a changed price counts. */
  async totals(priceOf: PriceOf, signal: AbortSignal): Promise<Totals> {
    await this.refresh(signal);
    const totals = emptyTotals();
    for (const [model, counts] of this.byModel) addTo(totals, { model, ...counts }, counts.requests, priceOf);
    if (this.others.requests > 0) addTo(totals, { model: '', ...this.others }, this.others.requests, () => undefined);
    return totals;
  }

  /** Told at local midnight (the status bar's line starts the new day at zero). */
  onNewDay(listener: () => void): { dispose(): void } {
    this.newDayListeners.add(listener);
    return { dispose: () => this.newDayListeners.delete(listener) };
  }

  dispose(): void {
    this.midnight?.abort();
    this.newDayListeners.clear();
  }

  /** One read at a time: a second caller waits for the first, then reads what came after it. */
  private async refresh(signal: AbortSignal): Promise<void> {
    while (this.reading) await this.reading;
    this.reading = this.readAppended(signal).finally(() => (this.reading = undefined));
    await this.reading;
  }

  private async readAppended(signal: AbortSignal): Promise<void> {
    const today = dayOf(this.clock.now());
    if (today !== this.day) {
      // A new day: its records may sit before the cursor (appended before midnight was noticed), so read again.
      this.cursor = undefined;
      this.day = today;
      this.armMidnight();
    }
    const chunk = await this.storage.readFrom(this.cursor, signal);
    if (chunk.fromStart) {
      this.byModel = new Map();
      this.others = zero();
    }
    const { entries, skipped } = parseEntries(chunk.text);
    if (skipped > 0) this.logger.debug(`usage: skipped ${skipped} unreadable line(s) of the usage log`);
    for (const entry of entries) {
      if (entry.kind === 'day' ? entry.day === today : dayOf(entry.time) === today) this.add(entry.model, entry, entry.kind === 'day' ? entry.requests : 1);
    }
    this.cursor = chunk.cursor;
  }

  private add(model: string, entry: TokenCounts, requests: number): void {
    let counts = this.byModel.get(model);
    if (!counts) {
      counts = this.byModel.size < MAX_MODELS_TODAY ? zero() : this.others;
      if (counts !== this.others) this.byModel.set(model, counts);
    }
    counts.requests += requests;
    counts.input += entry.input;
    counts.output += entry.output;
    counts.reasoning += entry.reasoning;
  }

  /** A timer for the next local midnight (one at a time); an early firing (a clock adjusted) waits again. */
  private armMidnight(): void {
    this.midnight?.abort();
    const controller = new AbortController();
    this.midnight = controller;
    const now = this.clock.now();
    const date = new Date(now);
    const next = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
    this.clock.after(
      Math.max(1, next - now),
      () => {
        if (dayOf(this.clock.now()) === this.day) this.armMidnight();
        else for (const listener of this.newDayListeners) listener();
      },
      controller.signal,
    );
  }
}

function zero(): Counts {
  return { requests: 0, input: 0, output: 0, reasoning: 0 };
}
