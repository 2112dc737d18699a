/**
 * The one place the features report to for the team's collector. Off (the default), a report costs a
 * check of one field and nothing is kept or sent. On, the OpenTelemetry exporter is loaded (a lazy part:
 * activation never reads it) and reports go to it; recording is in memory and synchronous, sending is the
 * exporter's own timer, so a slow or unreachable collector is never on a request's path.
 */
import type { Logger } from '../../base/common';
import type { ModelPrice } from '../../settings/common';
import type { UsageRecord } from '../../usage/common';
import type {
  ExporterConfig,
  ExporterFactory,
  MetricsExporter,
  RequestTiming,
  SessionPhase,
  TelemetryEvent,
  ToolDecision,
  WaitReason,
} from './telemetryEvents';

/** Reports kept while the exporter is being (re)started; past this they are dropped and counted. */
export const MAX_PENDING_EVENTS = 1_000;

export interface TeamTelemetryOptions {
  /** The exporter's maker, from the lazy part (its loader requires it at the first call). */
  loadExporter: () => ExporterFactory;
  logger: Logger;
  /** The model's price (`gateway.models`), read at each request so a changed price applies at once. */
  priceOf: (model: string) => ModelPrice | undefined;
  /** Told once per kind of collector problem (the window shows it), with what to do. */
  onProblem?: (message: string) => void;
}

export class TeamTelemetry {
  private exporter: MetricsExporter | undefined;
  /** On: reports are kept (pending, while the exporter starts) or recorded. */
  private on = false;
  private pending: TelemetryEvent[] = [];
  private droppedEvents = 0;
  private readonly problemsTold = new Set<string>();
  /** Each configure() waits for the one before it, so two exporters never run at once. */
  private configuring: Promise<void> = Promise.resolve();

  constructor(private readonly options: TeamTelemetryOptions) {}

  /** Whether export is on. */
  get enabled(): boolean {
    return this.on;
  }

  /** Reports dropped because the queue was full while the exporter started. */
  get dropped(): number {
    return this.droppedEvents;
  }

  /** Exports the collector did not take (down, refusing, too slow). */
  get failedExports(): number {
    return this.exporter?.failedExports ?? 0;
  }

  /**
   * Turns export on with `config`, or off with undefined. The exporter before is flushed and stopped
   * first (what it recorded is sent once more, bounded by the signal).
   */
  configure(config: ExporterConfig | undefined, signal: AbortSignal): Promise<void> {
    // On at once, so what is reported while the old exporter stops waits in the queue rather than being lost.
    this.on = config !== undefined;
    if (!config) this.pending = [];
    this.configuring = this.configuring.then(() => this.replaceExporter(config, signal));
    return this.configuring;
  }

  private async replaceExporter(config: ExporterConfig | undefined, signal: AbortSignal): Promise<void> {
    const previous = this.exporter;
    this.exporter = undefined;
    if (previous) await previous.shutdown(signal).catch((error: unknown) => this.options.logger.debug(`telemetry: stopping the exporter: ${describe(error)}`));
    // A later configure() may have turned it off while this one waited.
    if (!config || !this.on) return;
    let factory: ExporterFactory;
    try {
      factory = this.options.loadExporter();
    } catch (error) {
      this.on = false;
      this.pending = [];
      this.options.logger.error(`telemetry: the exporter could not be loaded, nothing is exported: ${describe(error)}`);
      return;
    }
    this.exporter = factory(config, {
      onProblem: (message) => this.tellProblem(message),
      debug: (message) => this.options.logger.debug(`telemetry: ${message}`),
    });
    this.options.logger.info(`telemetry: exporting metrics to ${config.url} (${config.protocol}) every ${Math.round(config.exportIntervalMs / 1000)} s`);
    const queued = this.pending;
    this.pending = [];
    for (const event of queued) this.exporter.record(event);
  }

  /** One answered request, with the record the usage log appends: the exported sums are the log's. */
  requestAnswered(record: UsageRecord, timing: RequestTiming): void {
    if (!this.on) return;
    const price = this.options.priceOf(record.model);
    // The usage view's formula (usage/common/usageSummary.ts, addTo): reasoning is part of output and priced with it.
    const cost = price ? (record.input * price.inputPerMillion + record.output * price.outputPerMillion) / 1_000_000 : undefined;
    this.report({ kind: 'request', record, timing, cost });
  }

  rateLimited(): void {
    if (this.on) this.report({ kind: 'rate_limited' });
  }

  waited(ms: number, reason: WaitReason): void {
    if (this.on && ms > 0) this.report({ kind: 'waited', ms, reason });
  }

  toolCall(tool: string, decision: ToolDecision): void {
    if (this.on) this.report({ kind: 'tool_call', tool, decision });
  }

  session(phase: SessionPhase): void {
    if (this.on) this.report({ kind: 'session', phase });
  }

  /** Sends what was recorded now (bounded by the signal); nothing when off. */
  async flush(signal: AbortSignal): Promise<void> {
    await this.configuring;
    await this.exporter?.flush(signal);
  }

  /** Stops the exporter, sending what is left (the window closes). */
  dispose(signal: AbortSignal): Promise<void> {
    return this.configure(undefined, signal);
  }

  /** Never throws: a report must not fail the request, the tool call or the session that made it. */
  private report(event: TelemetryEvent): void {
    try {
      if (this.exporter) {
        this.exporter.record(event);
        return;
      }
      if (this.pending.length < MAX_PENDING_EVENTS) {
        this.pending.push(event);
        return;
      }
      if (this.droppedEvents++ === 0)
        this.options.logger.warn(
          `telemetry: more than ${MAX_PENDING_EVENTS} reports waited for the exporter to start; later ones are dropped (counted, logged once).`,
        );
    } catch (error) {
      this.options.logger.warn(`telemetry: a report failed: ${describe(error)}`);
    }
  }

  private tellProblem(message: string): void {
    if (this.problemsTold.has(message)) return;
    this.problemsTold.add(message);
    this.options.logger.warn(`telemetry: ${message}`);
    this.options.onProblem?.(message);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
