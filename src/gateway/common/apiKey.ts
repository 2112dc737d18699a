/**
 * What a usable key looks like, and how a new key is checked and adopted. A key
 * travels in the Authorization header, which takes printable ASCII only: a key
 * with anything else (a line break, a zero-width space, a typographic quote)
 * can never be sent, so it is refused up front with the reason, never echoed.
 */
import type { GatewayClient } from './client';
import { AuthError, BalanceError } from './errors';
import type { LimitTracker } from '../../rateLimits/common';
import type { ModelInfo } from './types';

const SENDABLE_KEY = /^[\x21-\x7e]+$/;
/** Zero-width and other invisible characters that come along when a key is copied from a web page or a chat. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;
/** Line breaks, tabs, NUL and the other C0 / C1 control characters. */
const CONTROL = /\p{Cc}/u;

/** Why `key` (already trimmed) cannot be used, as a sentence for the user; undefined when it can. */
export function apiKeyProblem(key: string): string | undefined {
  if (key === '') return 'Enter a key.';
  if (SENDABLE_KEY.test(key)) return undefined;
  if (INVISIBLE.test(key)) return 'The key contains an invisible character (such as a zero-width space), probably copied along with it.';
  if (CONTROL.test(key)) return 'The key contains a line break or another control character.';
  if (/\s/.test(key)) return 'A key has no spaces.';
  return 'The key contains a character that is not plain ASCII (such as a typographic quote or an accented letter).';
}

export type KeyCheckOutcome =
  /** Stored: the gateway listed the key's models. */
  | { kind: 'accepted'; models: ModelInfo[] }
  /** Stored: the key authenticated, only the account is empty (402). */
  | { kind: 'empty_balance'; billingUrl: string }
  /** Stored unchecked: a request of the user's waits for the key's limits (or they are spent), so the check would take its slot; the first request checks it. */
  | { kind: 'unchecked' }
  /** Not stored: the gateway refused the key (401). */
  | { kind: 'rejected' }
  /** Not stored: the check itself failed (network, settings, cancelled). */
  | { kind: 'failed'; error: unknown };

export interface KeyCheckDeps {
  /** A client that sends the new key, with limits of its own: the check must not touch the current key's. */
  client: GatewayClient;
  /** The limit state the rest of the extension shows and paces by. */
  limits: LimitTracker;
  /** Stores the key bound to the origin it was checked against. */
  store: (key: string, origin: string) => Promise<void>;
}

/** Checks `key` with GET /v1/models and stores it only if the gateway takes it. */
export async function checkAndStoreKey(key: string, deps: KeyCheckDeps, signal: AbortSignal): Promise<KeyCheckOutcome> {
  let outcome: KeyCheckOutcome;
  // Read before the check: the key is bound to where it was actually sent.
  let origin: string | undefined;
  try {
    origin = deps.client.transport.baseOrigin();
  } catch (error) {
    return { kind: 'failed', error };
  }
  if (origin === undefined) return { kind: 'failed', error: new Error('"gateway.baseUrl" is not a full address.') };
  if (!deps.limits.roomForBackground()) {
    // The check is background work: it never spends a slot a request of the user's waits for.
    // What is known of the limits stays: the waiting request goes on that knowledge, and the next answer's headers replace it.
    await deps.store(key, origin);
    return { kind: 'unchecked' };
  }
  try {
    outcome = { kind: 'accepted', models: await deps.client.listModels({ signal }) };
  } catch (error) {
    if (!(error instanceof BalanceError)) return error instanceof AuthError ? { kind: 'rejected' } : { kind: 'failed', error };
    outcome = { kind: 'empty_balance', billingUrl: error.billingUrl };
  }
  await deps.store(key, origin);
  // Only now does the old key's limit and balance state stop applying: a mistyped key leaves it as it was.
  deps.limits.reset();
  // The check's request counted against the new key: the window it saw (the Gateway's limits, the slot it took) is this key's.
  deps.limits.adopt(deps.client.limits);
  deps.limits.recordBalance(outcome.kind === 'accepted' ? 'ok' : 'depleted');
  return outcome;
}
