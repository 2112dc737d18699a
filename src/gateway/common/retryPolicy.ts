/**
 * When to retry, and after how long, as the spec says: 429 after Retry-After,
 * 500 with exponential backoff and jitter, 503 after 5 to 30 seconds. Bounded.
 */
import { ConnectionError, GatewayError, RateLimitError, ServerError } from './errors';
import type { RetryNotice } from './types';

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff for 500s and connection failures; doubles each time. */
  baseDelayMs: number;
  maxBackoffMs: number;
  /** The spec's window for 503. */
  unavailableMinMs: number;
  unavailableMaxMs: number;
  /** A 429 asking for a longer wait than this is reported instead of waited out. */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxBackoffMs: 8_000,
  unavailableMinMs: 5_000,
  unavailableMaxMs: 30_000,
  maxRateLimitWaitMs: 60_000,
};

export interface RetryDecision {
  delayMs: number;
  reason: RetryNotice['reason'];
}

/** The wait before retry number `attempt + 1`, or undefined when the error must reach the caller. */
export function decideRetry(
  error: GatewayError,
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  if (error instanceof RateLimitError) {
    const delayMs = retryAfterMs ?? error.retryAfterMs;
    return delayMs <= policy.maxRateLimitWaitMs ? { delayMs, reason: 'rate_limit' } : undefined;
  }
  if (error instanceof ServerError && error.status === 503) {
    const wanted = retryAfterMs ?? policy.unavailableMinMs * 2 ** attempt * (1 + random());
    const delayMs = Math.min(policy.unavailableMaxMs, Math.max(policy.unavailableMinMs, wanted));
    return { delayMs, reason: 'unavailable' };
  }
  if ((error instanceof ServerError && (error.status ?? 0) >= 500) || error instanceof ConnectionError) {
    const ceiling = Math.min(policy.maxBackoffMs, policy.baseDelayMs * 2 ** attempt);
    // Jitter keeps many clients from retrying in lockstep after an outage.
    const delayMs = ceiling / 2 + (random() * ceiling) / 2;
    return { delayMs, reason: error instanceof ConnectionError ? 'connection' : 'server_error' };
  }
  return undefined;
}
