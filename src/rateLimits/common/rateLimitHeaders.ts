/**
 * Reading the gateway's `x-ratelimit-*` headers into one report of its window.
 * Apart from the tracker (limitTracker.ts) because it is only parsing: what a header
 * may hold, what is believed of it, and what stands in when it is missing.
 * Every value is the gateway's (hostile) text: a number must be finite and not
 * negative, and a reset is never believed past one window.
 */
import { parseDuration } from './duration';

/** What one answer's headers said, with the resets as delays from its arrival. */
export interface RateLimitReport {
  requestLimit: number;
  requestsRemaining: number;
  requestsResetInMs: number;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetInMs: number;
}

/** Where header values are read from: a web Headers, or the client's lean answer (gateway/node). */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The report in an answer's headers, or undefined when they hold no request
 * limit (the gateway does not send them, or sent none with this answer).
 * `fallbackTokenLimit`: the configured TPM, for a gateway that reports requests only.
 */
export function readRateLimitHeaders(headers: HeaderSource, fallbackTokenLimit: number, windowMs: number): RateLimitReport | undefined {
  const requestLimit = numberHeader(headers, 'x-ratelimit-limit-requests');
  const requestsRemaining = numberHeader(headers, 'x-ratelimit-remaining-requests');
  const tokenLimit = numberHeader(headers, 'x-ratelimit-limit-tokens') ?? fallbackTokenLimit;
  const tokensRemaining = numberHeader(headers, 'x-ratelimit-remaining-tokens') ?? tokenLimit;
  if (requestLimit === undefined || requestsRemaining === undefined) return undefined;
  return {
    requestLimit,
    requestsRemaining,
    requestsResetInMs: resetDelay(headers.get('x-ratelimit-reset-requests'), windowMs),
    tokenLimit,
    tokensRemaining,
    tokensResetInMs: resetDelay(headers.get('x-ratelimit-reset-tokens'), windowMs),
  };
}

/**
 * A reset later than the window is not believed: the limits are per window, so
 * the window refills within one (a hostile or broken `reset` of years must not
 * stall every later request). Missing or unreadable: a whole window.
 */
function resetDelay(text: string | null, windowMs: number): number {
  const ms = parseDuration(text);
  return ms === undefined ? windowMs : Math.min(ms, windowMs);
}

function numberHeader(headers: HeaderSource, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw == null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
