/** Parses the rate-limit reset durations of the interface: `1s`, `6m0s`, `250ms`, `1h2m3.5s`, or a bare number of seconds. */
export function parseDuration(text: string | null | undefined): number | undefined {
  if (text == null) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const unitMs: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
  const part = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = part.exec(trimmed); match; match = part.exec(trimmed)) {
    total += Number(match[1]) * unitMs[match[2]];
    consumed = part.lastIndex;
  }
  return consumed === trimmed.length && consumed > 0 ? Math.round(total) : undefined;
}

/** `Retry-After` is whole seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A wait for a message: `45 s`, `12 min`, `5 h`, `40 days`, `31 years`. */
export function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (!Number.isFinite(seconds)) return 'forever';
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 120 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h`;
  if (seconds < 730 * 86_400) return `${Math.round(seconds / 86_400)} days`;
  return `${Math.round(seconds / (365.25 * 86_400)).toLocaleString('en-US')} years`;
}
