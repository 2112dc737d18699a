// Identifiers and token estimates.
import { randomBytes } from 'node:crypto';

export const hex = (bytes = 12): string => randomBytes(bytes).toString('hex');
export const requestId = (): string => `req_${hex()}`;
export const callId = (): string => `call_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
export const nowSec = (): number => Math.floor(Date.now() / 1000);

/** Token estimate: ceil(chars / 4), at least 1. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Tokens of a piece that may be empty (0 when empty). */
export function tokensOrZero(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}
