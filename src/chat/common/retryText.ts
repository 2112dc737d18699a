/** The chat's progress line while a request waits or is retried. */
import type { RetryNotice } from '../../gateway/common';

export function retryText(notice: RetryNotice): string {
  const seconds = Math.ceil(notice.delayMs / 1000);
  switch (notice.reason) {
    // A paced wait reads as a 429's: the user waits for the key's limit either way.
    case 'rate_limit':
    case 'pacing':
      return `Rate limit reached — waiting ${seconds} s, then the answer follows.`;
    case 'too_large':
      return notice.message;
    case 'unavailable':
      return `The Gateway is overloaded (503) — retrying in ${seconds} s (attempt ${notice.attempt}).`;
    case 'server_error':
      return `The Gateway had an error — retrying in ${seconds} s (attempt ${notice.attempt}).`;
    case 'connection':
      return `Could not reach the Gateway — retrying in ${seconds} s (attempt ${notice.attempt}).`;
  }
}

/** A later wait that ends at most this much after the one already said is the same wait (the pacing's and a 429's ends differ by rounding). */
export const SAME_WAIT_MS = 2_000;

/**
 * The chat's lines for one request's waits. A line in the chat cannot be updated once
 * shown, and each new progress line stacks under the last: so one line says the wait
 * and when it ends (the status bar counts it down), and a later notice for the same
 * wait adds nothing. Only a wait that ends later than said gets a line of its own.
 */
export class WaitLines {
  private saidUntil: number | undefined;

  constructor(private readonly now: () => number) {}

  /** The progress line for this notice; undefined when a line already says this wait. */
  lineFor(notice: RetryNotice): string | undefined {
    if (notice.reason !== 'rate_limit' && notice.reason !== 'pacing') return retryText(notice);
    const until = this.now() + notice.delayMs;
    if (this.saidUntil !== undefined && until <= this.saidUntil + SAME_WAIT_MS) return undefined;
    const first = this.saidUntil === undefined;
    this.saidUntil = until;
    const seconds = Math.ceil(notice.delayMs / 1000);
    const at = new Date(until).toLocaleTimeString();
    return first
      ? `Rate limit reached — waiting ${seconds} s (until ${at}; the status bar counts down), then the answer follows.`
      : `The rate limit frees later than the Gateway said — waiting ${seconds} s more (until ${at}).`;
  }
}
