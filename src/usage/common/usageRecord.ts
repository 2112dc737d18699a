/**
 * One answered request as the usage log keeps it, and the log's line format.
 * A record holds counts and names only, never a prompt or an answer. Lines come
 * back from a file other windows (and crashes) also wrote, so every line is
 * checked field by field and a line that does not check out is skipped.
 */

/** Where a request came from. */
export const USAGE_SURFACES = ['chat', 'agent', 'inline', 'lm'] as const;
export type UsageSurface = (typeof USAGE_SURFACES)[number];

export const SURFACE_LABELS: Readonly<Record<UsageSurface, string>> = {
  chat: '@gateway chat',
  agent: 'Agent sessions',
  inline: 'Inline edit',
  lm: 'Language model provider',
};

/** What the caller tells the client about a request, so its usage is recorded under the right surface. */
export interface RequestOrigin {
  surface: UsageSurface;
  /** The agent session that sent it. */
  sessionId?: string;
}

/** The token counts every figure is summed from. */
export interface TokenCounts {
  input: number;
  output: number;
  /** Part of `output` (the API counts reasoning among output tokens): shown, never added again. */
  reasoning: number;
}

/** One answered request. */
export interface UsageRecord extends TokenCounts {
  kind: 'request';
  /** Milliseconds since the epoch. */
  time: number;
  model: string;
  /** `/chat/completions` or `/responses`. */
  endpoint: string;
  surface: UsageSurface;
  sessionId?: string;
  /** How the answer ended: the finish reason (`stop`, `length`, `tool_calls`, …), or `ok`. */
  status: string;
}

/** The requests of one local day, model and surface, after their records were rolled up. */
export interface DayRollup extends TokenCounts {
  kind: 'day';
  /** `YYYY-MM-DD`, local time. */
  day: string;
  model: string;
  surface: UsageSurface;
  requests: number;
}

export type UsageEntry = UsageRecord | DayRollup;

/** Longest model name, session id, endpoint and status kept: the gateway's text is bounded like any input. */
export const MAX_NAME_CHARS = 200;
/** Longest line read back: anything longer was not written by this code. */
export const MAX_LINE_CHARS = 2_000;

/** The line appended for an entry, newline included (one write per line, so concurrent appends never interleave). */
export function encodeEntry(entry: UsageEntry): string {
  if (entry.kind === 'day') {
    const { day, model, surface, requests, input, output, reasoning } = entry;
    return `${JSON.stringify({ v: 1, kind: 'day', day, model: bounded(model), surface, requests, input, output, reasoning })}\n`;
  }
  const { time, model, endpoint, surface, sessionId, input, output, reasoning, status } = entry;
  const line = {
    v: 1,
    kind: 'request',
    time,
    model: bounded(model),
    endpoint: bounded(endpoint),
    surface,
    ...(sessionId === undefined ? {} : { sessionId: bounded(sessionId) }),
    input,
    output,
    reasoning,
    status: bounded(status),
  };
  return `${JSON.stringify(line)}\n`;
}

/** Every valid entry of the log's text; a torn last line (a crash mid-write) and any malformed line are skipped and counted. */
export function parseEntries(text: string): { entries: UsageEntry[]; skipped: number } {
  const entries: UsageEntry[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = line.length > MAX_LINE_CHARS ? undefined : parseLine(line);
    if (entry) entries.push(entry);
    else skipped++;
  }
  return { entries, skipped };
}

function parseLine(line: string): UsageEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const counts = tokenCounts(raw);
  const model = name(raw.model);
  const surface = surfaceOf(raw.surface);
  if (!counts || model === undefined || !surface) return undefined;
  if (raw.kind === 'day') {
    const requests = count(raw.requests);
    if (typeof raw.day !== 'string' || !DAY_PATTERN.test(raw.day) || requests === undefined) return undefined;
    return { kind: 'day', day: raw.day, model, surface, requests, ...counts };
  }
  if (raw.kind !== 'request') return undefined;
  const time = raw.time;
  const endpoint = name(raw.endpoint);
  const status = name(raw.status);
  if (typeof time !== 'number' || !Number.isFinite(time) || time < 0 || endpoint === undefined || status === undefined) return undefined;
  const sessionId = raw.sessionId === undefined ? undefined : name(raw.sessionId);
  if (raw.sessionId !== undefined && sessionId === undefined) return undefined;
  return { kind: 'request', time, model, endpoint, surface, ...(sessionId === undefined ? {} : { sessionId }), ...counts, status };
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function tokenCounts(raw: Record<string, unknown>): TokenCounts | undefined {
  const input = count(raw.input);
  const output = count(raw.output);
  const reasoning = count(raw.reasoning);
  if (input === undefined || output === undefined || reasoning === undefined) return undefined;
  return { input, output, reasoning };
}

/** A token count: a whole number from 0 up to what a double holds exactly. */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function name(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_NAME_CHARS ? value : undefined;
}

function bounded(text: string): string {
  return text.length <= MAX_NAME_CHARS ? text : text.slice(0, MAX_NAME_CHARS);
}

function surfaceOf(value: unknown): UsageSurface | undefined {
  return (USAGE_SURFACES as readonly unknown[]).includes(value) ? (value as UsageSurface) : undefined;
}

/** The local day of a time, `YYYY-MM-DD`. */
export function dayOf(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
