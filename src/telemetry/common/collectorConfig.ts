/**
 * The collector's address and authentication headers as the user gives them: the address as OTLP's
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is (a base, `/v1/metrics` added), the headers as `OTEL_EXPORTER_OTLP_HEADERS`
 * (`name=value,name2=value2`, values percent-decoded).
 */
import type { TelemetrySettings } from '../../settings/common';
import type { ExporterConfig } from './telemetryEvents';

/** The headers text the user gave is not `name=value` pairs. */
export class CollectorHeadersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CollectorHeadersError';
  }
}

/** Header names HTTP allows (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Most headers kept: more is not an authentication. */
const MAX_HEADERS = 20;

/** `Authorization=Bearer%20abc,X-Scope-OrgID=team` as a map; throws CollectorHeadersError naming the first bad pair (never its value). */
export function parseCollectorHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '');
  if (pairs.length > MAX_HEADERS) throw new CollectorHeadersError(`At most ${MAX_HEADERS} headers.`);
  for (const [index, pair] of pairs.entries()) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : pair.slice(0, equals).trim();
    if (!HEADER_NAME.test(name)) throw new CollectorHeadersError(`Header ${index + 1} is not name=value (for example Authorization=Bearer%20token).`);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      throw new CollectorHeadersError(`The value of "${name}" is not valid percent-encoding.`);
    }
    // A line break in a value would start a header of its own.
    if (/[\r\n\0]/.test(value)) throw new CollectorHeadersError(`The value of "${name}" holds a line break.`);
    headers[name] = value;
  }
  return headers;
}

/** The address metrics are posted to: the setting as it is when it already names `/v1/metrics`, else that path under it. */
export function metricsUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return /\/v1\/metrics$/.test(trimmed) ? trimmed : `${trimmed}/v1/metrics`;
}

/** How often the sums go to the collector, and how long one export (its retries included) may take. */
export const EXPORT_INTERVAL_MS = 60_000;
export const EXPORT_TIMEOUT_MS = 10_000;

/** What the user's `gateway.telemetry.*` settings ask for: the exporter's config, or undefined when export is off (or has nowhere to go). */
export function exporterConfigFrom(
  settings: TelemetrySettings,
  headers: Readonly<Record<string, string>>,
  about: { serviceVersion: string; hostId: string | undefined },
): ExporterConfig | undefined {
  if (!settings.enabled || settings.endpoint === '') return undefined;
  return {
    url: metricsUrl(settings.endpoint),
    protocol: settings.protocol,
    headers,
    serviceVersion: about.serviceVersion,
    userId: settings.identity === '' ? undefined : settings.identity,
    hostId: about.hostId,
    currency: settings.currency,
    exportIntervalMs: EXPORT_INTERVAL_MS,
    exportTimeoutMs: EXPORT_TIMEOUT_MS,
  };
}
