/**
 * What the extension tells the team's collector, as events of its own: counts, names and durations,
 * never a prompt, an answer, a file path, a command line or the key. The exporter (a lazily loaded
 * part, telemetry/node/otlpMetrics.ts) turns each into OpenTelemetry metrics; nothing here knows OpenTelemetry,
 * so the features that report need none of it loaded.
 */
import type { UsageRecord } from '../../usage/common';

/** What the client measured of one answered request, beside the counts the usage log keeps. */
export interface RequestTiming {
  /** From the call to the answer's end, waits for the rate window included (what the user waited). */
  durationMs: number;
  /** From the call to the stream's first chunk; undefined for a request that was not streamed. */
  firstChunkMs?: number;
  /** The model the Gateway says answered, when it said. */
  responseModel?: string;
  /** Input tokens the Gateway served from its cache, when it reports them (part of the input count). */
  cachedInputTokens?: number;
}

/** Why a request waited for the rate window: the client's own pacing, or a 429's Retry-After. */
export type WaitReason = 'pacing' | 'retry_after';

/** What became of an agent's tool call: run after an approval (or unasked), refused, or run inside the sandbox. */
export type ToolDecision = 'approved' | 'denied' | 'sandboxed';

export type TelemetryEvent =
  /** One answered request: the usage log's record (the same object it appends, so the sums are the same) and its cost. */
  | { kind: 'request'; record: UsageRecord; timing: RequestTiming; cost: number | undefined }
  /** The Gateway answered 429. */
  | { kind: 'rate_limited' }
  | { kind: 'waited'; ms: number; reason: WaitReason }
  | { kind: 'tool_call'; tool: string; decision: ToolDecision }
  | { kind: 'session'; phase: SessionPhase };

/**
 * A session started, or one of its runs ended: `finished` (the task done), or `paused` (an error, the user's Stop, a
 * budget or the loop guard: it can be continued, and a continued run that ends is counted again).
 */
export type SessionPhase = 'started' | 'finished' | 'paused';

/** Where the metrics go and what they say of who sends them. */
export interface ExporterConfig {
  /** The full address metrics are posted to (`…/v1/metrics`). */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** The collector's authentication, from secret storage; never logged. */
  headers: Readonly<Record<string, string>>;
  /** The extension's version (`service.version`). */
  serviceVersion: string;
  /** `user.id`, as the user set it; undefined sends none. */
  userId: string | undefined;
  /** `host.id`: an anonymous id of this machine's editor (never its name). */
  hostId: string | undefined;
  /** The cost metric's unit (the prices' currency), '' when not said. */
  currency: string;
  /** How often the sums are sent. */
  exportIntervalMs: number;
  /** How long one export may take, its retries included. */
  exportTimeoutMs: number;
}

/** The exporter the lazy part makes: recording is synchronous and in memory; sending happens on its own timer. */
export interface MetricsExporter {
  record(event: TelemetryEvent): void;
  /** Sends what was recorded now (the tests, and before a shutdown). */
  flush(signal: AbortSignal): Promise<void>;
  /** Sends what is left and stops the timer. */
  shutdown(signal: AbortSignal): Promise<void>;
  /** Exports that failed so far (the collector down, refusing, or too slow). */
  readonly failedExports: number;
}

/** Told once per kind of problem with the collector, with what to do. */
export type CollectorProblemListener = (message: string) => void;

export type ExporterFactory = (config: ExporterConfig, options: { onProblem: CollectorProblemListener; debug: (message: string) => void }) => MetricsExporter;
