/**
 * The exporter itself, a lazily loaded part (dist/telemetry.js, required by otlpMetricsLoader.ts only when
 * export is turned on): the official OpenTelemetry metrics SDK and OTLP/HTTP exporters, protobuf or JSON.
 *
 * Each event becomes measurements on instruments named by the GenAI semantic conventions where they name one
 * (gen_ai.client.token.usage, gen_ai.client.operation.duration, gen_ai.client.operation.time_to_first_chunk)
 * and `gateway.*` for what is ours. The SDK sums in memory (bounded by its cardinality limit) and a periodic
 * reader sends the sums; the OTLP transport retries 429/502/503/504 and network failures with exponential
 * back-off within the export timeout. Sums are cumulative, so an export that failed loses nothing: the next
 * one carries the totals.
 */
import type { Attributes, Counter } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  type InstrumentType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOST_ID,
  ATTR_USER_ID,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_TOKEN_TYPE_VALUE_INPUT,
  GEN_AI_TOKEN_TYPE_VALUE_OUTPUT,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from '@opentelemetry/semantic-conventions/incubating';
import type { CollectorProblemListener, ExporterConfig, MetricsExporter, TelemetryEvent } from '../common';

/** Our own metrics' names, beside the GenAI conventions' (the README's "For teams" lists them). */
export const GATEWAY_METRICS = {
  cost: 'gateway.client.cost',
  requests: 'gateway.client.requests',
  reasoningTokens: 'gateway.client.token.reasoning',
  cachedTokens: 'gateway.client.token.cached',
  rateLimited: 'gateway.client.rate_limited',
  waitTime: 'gateway.client.rate_limit.wait',
  toolCalls: 'gateway.agent.tool_calls',
  sessions: 'gateway.agent.sessions',
} as const;

/** `gen_ai.provider.name`: the requests go to the Gateway, whichever provider serves the model behind it. */
export const PROVIDER_NAME = 'gateway';
export const SERVICE_NAME = 'gateway-vscode';

/** The conventions' advised buckets for gen_ai.client.token.usage and for durations in seconds. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const SECONDS_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** Most series per instrument: more (a model name per request?) folds into one overflow series rather than growing memory. */
const CARDINALITY_LIMIT = 500;

export function createOtlpMetricsExporter(
  config: ExporterConfig,
  options: { onProblem: CollectorProblemListener; debug: (message: string) => void },
): MetricsExporter {
  // No diag.setLogger: @opentelemetry/api keeps its logger in a global every extension of the host shares, and setting
  // it would take another extension's. What the SDK would log there (a failed export) CountingExporter tells once.
  const exporterConfig = {
    url: config.url,
    headers: { ...config.headers },
    timeoutMillis: config.exportTimeoutMs,
    temporalityPreference: AggregationTemporality.CUMULATIVE,
    // One export at a time: a slow collector makes later sums wait (and fold into the next), never pile up.
    concurrencyLimit: 1,
  };
  const inner: PushMetricExporter = config.protocol === 'http/json' ? new JsonMetricExporter(exporterConfig) : new ProtobufMetricExporter(exporterConfig);
  const counted = new CountingExporter(inner, config.url, options.onProblem, options.debug);
  const provider = new MeterProvider({
    resource: resourceFromAttributes(resourceAttributes(config)),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: counted,
        exportIntervalMillis: config.exportIntervalMs,
        exportTimeoutMillis: config.exportTimeoutMs,
        cardinalityLimits: { counter: CARDINALITY_LIMIT, histogram: CARDINALITY_LIMIT },
      }),
    ],
  });
  const instruments = createInstruments(provider, config.currency);
  return {
    record: (event) => instruments.record(event),
    flush: (signal) => bounded(provider.forceFlush({ timeoutMillis: config.exportTimeoutMs }), signal),
    shutdown: (signal) => bounded(provider.shutdown({ timeoutMillis: config.exportTimeoutMs }), signal),
    get failedExports() {
      return counted.failed;
    },
  };
}

/** Who sends, without content: the user-set identity, an anonymous machine id, the extension's version. */
function resourceAttributes(config: ExporterConfig): Attributes {
  return {
    [ATTR_SERVICE_NAME]: SERVICE_NAME,
    [ATTR_SERVICE_VERSION]: config.serviceVersion,
    ...(config.userId ? { [ATTR_USER_ID]: config.userId } : {}),
    ...(config.hostId ? { [ATTR_HOST_ID]: config.hostId } : {}),
  };
}

function createInstruments(provider: MeterProvider, currency: string) {
  const meter = provider.getMeter(SERVICE_NAME);
  const tokenUsage = meter.createHistogram(METRIC_GEN_AI_CLIENT_TOKEN_USAGE, {
    unit: '{token}',
    description: 'Tokens used per request, by gen_ai.token.type (input, output).',
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  });
  const duration = meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_DURATION, {
    unit: 's',
    description: 'From the call to the end of the answer, waits for the rate window included.',
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  });
  const firstChunk = meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK, {
    unit: 's',
    description: "From the call to a streamed answer's first chunk.",
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  });
  const counter = (name: string, unit: string, description: string): Counter => meter.createCounter(name, { unit, description });
  const cost = counter(GATEWAY_METRICS.cost, currency || '1', 'Cost of the requests of priced models (gateway.models), in the configured currency.');
  const requests = counter(GATEWAY_METRICS.requests, '{request}', 'Answered requests, by surface (chat, agent, inline, lm).');
  const reasoning = counter(GATEWAY_METRICS.reasoningTokens, '{token}', 'Reasoning tokens (part of the output tokens), where the Gateway reports them.');
  const cached = counter(
    GATEWAY_METRICS.cachedTokens,
    '{token}',
    'Input tokens served from the cache (part of the input tokens), where the Gateway reports them.',
  );
  const rateLimited = counter(GATEWAY_METRICS.rateLimited, '{response}', 'Answers 429 (rate limited) from the Gateway.');
  const waited = counter(GATEWAY_METRICS.waitTime, 's', "Time requests waited for the key's rate window (pacing, or a 429's Retry-After).");
  const toolCalls = counter(GATEWAY_METRICS.toolCalls, '{call}', 'Agent tool calls, by tool and decision (approved, denied, sandboxed).');
  const sessions = counter(GATEWAY_METRICS.sessions, '{session}', 'Agent sessions started and finished.');

  const record = (event: TelemetryEvent): void => {
    switch (event.kind) {
      case 'request': {
        const { record, timing } = event;
        const attributes: Attributes = {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
          [ATTR_GEN_AI_PROVIDER_NAME]: PROVIDER_NAME,
          [ATTR_GEN_AI_REQUEST_MODEL]: record.model,
          ...(timing.responseModel ? { [ATTR_GEN_AI_RESPONSE_MODEL]: timing.responseModel } : {}),
          'gateway.surface': record.surface,
        };
        tokenUsage.record(record.input, { ...attributes, [ATTR_GEN_AI_TOKEN_TYPE]: GEN_AI_TOKEN_TYPE_VALUE_INPUT });
        tokenUsage.record(record.output, { ...attributes, [ATTR_GEN_AI_TOKEN_TYPE]: GEN_AI_TOKEN_TYPE_VALUE_OUTPUT });
        if (record.reasoning > 0) reasoning.add(record.reasoning, attributes);
        if (timing.cachedInputTokens !== undefined && timing.cachedInputTokens > 0) cached.add(timing.cachedInputTokens, attributes);
        duration.record(timing.durationMs / 1000, attributes);
        if (timing.firstChunkMs !== undefined) firstChunk.record(timing.firstChunkMs / 1000, attributes);
        requests.add(1, { ...attributes, 'gateway.finish_reason': record.status });
        if (event.cost !== undefined) cost.add(event.cost, attributes);
        return;
      }
      case 'rate_limited':
        rateLimited.add(1);
        return;
      case 'waited':
        waited.add(event.ms / 1000, { 'gateway.wait.reason': event.reason });
        return;
      case 'tool_call':
        toolCalls.add(1, { [ATTR_GEN_AI_TOOL_NAME]: event.tool, 'gateway.tool.decision': event.decision });
        return;
      case 'session':
        sessions.add(1, { 'gateway.session.phase': event.phase });
        return;
    }
  };
  return { record };
}

/**
 * The OTLP exporter, its failures counted and each kind told once with what to do: a collector refusing
 * (4xx), failing (5xx), or not reached. The SDK would only pass them to its diagnostic logger.
 */
class CountingExporter implements PushMetricExporter {
  failed = 0;
  private failing = false;

  constructor(
    private readonly inner: PushMetricExporter,
    private readonly url: string,
    private readonly onProblem: CollectorProblemListener,
    private readonly debug: (message: string) => void,
  ) {}

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    this.inner.export(metrics, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        this.failed++;
        this.failing = true;
        // Told once per kind by the listener; each one still goes to the debug log, for whoever looks into it.
        this.onProblem(problemOf(result.error, this.url));
        this.debug(`export ${this.failed} failed: ${result.error?.message ?? 'no reason given'}`);
      } else if (this.failing) {
        this.failing = false;
        this.debug(`the collector at ${this.url} takes the metrics again`);
      }
      resultCallback(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  selectAggregationTemporality(instrumentType: InstrumentType): AggregationTemporality {
    return this.inner.selectAggregationTemporality?.(instrumentType) ?? AggregationTemporality.CUMULATIVE;
  }
}

/** What went wrong, in words that say what to do; one sentence per kind (they are told once each). */
export function problemOf(error: Error | undefined, url: string): string {
  const status = (error as { code?: unknown } | undefined)?.code;
  const code = typeof status === 'number' ? status : undefined;
  const tail = 'Requests are not affected; the sums are sent again with the next export.';
  if (code === 401 || code === 403)
    return `the collector at ${url} refused the metrics (HTTP ${code}): set the headers it expects with "Gateway: Set Collector Headers". ${tail}`;
  if (code === 404 || code === 405)
    return `the collector at ${url} has no OTLP metrics endpoint there (HTTP ${code}): check "gateway.telemetry.endpoint" (metrics go to /v1/metrics under it). ${tail}`;
  if (code === 415 || code === 400)
    return `the collector at ${url} could not read the metrics (HTTP ${code}): try the other "gateway.telemetry.protocol" (http/protobuf or http/json). ${tail}`;
  if (code !== undefined && code >= 400 && code < 500) return `the collector at ${url} refused the metrics (HTTP ${code}). ${tail}`;
  if (code !== undefined && code >= 500) return `the collector at ${url} failed (HTTP ${code}) after retries: ask whoever runs it. ${tail}`;
  return `the collector at ${url} could not be reached or did not answer in time: check that it runs and "gateway.telemetry.endpoint". ${tail}`;
}

/** The SDK's promise, or the signal's end, whichever is first (the SDK's own timeout bounds it too). */
function bounded(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
