/** The telemetry feature's common layer as other features see it: import from here, not from its files. */
export { CollectorHeadersError, EXPORT_INTERVAL_MS, exporterConfigFrom, metricsUrl, parseCollectorHeaders } from './collectorConfig';
export { TeamTelemetry, type TeamTelemetryOptions } from './teamTelemetry';
export {
  type CollectorProblemListener,
  type ExporterConfig,
  type ExporterFactory,
  type MetricsExporter,
  type RequestTiming,
  type SessionPhase,
  type TelemetryEvent,
  type ToolDecision,
  type WaitReason,
} from './telemetryEvents';
