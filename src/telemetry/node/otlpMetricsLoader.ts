/** Loads the OpenTelemetry exporter (otlpMetrics.ts) when export is turned on: in the production build, dist/telemetry.js beside the bundle. */
import type * as OtlpMetrics from './otlpMetrics';
import type { ExporterFactory } from '../common';

export function loadOtlpExporter(): ExporterFactory {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load the SDK with the extension
  return (require('./otlpMetrics') as typeof OtlpMetrics).createOtlpMetricsExporter;
}
