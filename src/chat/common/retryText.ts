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
