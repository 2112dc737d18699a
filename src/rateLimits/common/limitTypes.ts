/** What the limit tracker tells of the window, what it is configured with, and a request's share of it (limitTracker.ts). */

import type { LimitsOrigin } from './windowLedger';

export type BalanceState = 'unknown' | 'ok' | 'depleted';

/**
 * What the last request learned of the Gateway itself: it answered (`ok`), could not be reached
 * (refused connection, DNS, TLS, a proxy, an address that is not the API), refused the key (401),
 * or `gateway.baseUrl` is not a usable address; `unknown` before any request to this key and address.
 */
export type GatewayReach = 'unknown' | 'ok' | 'unreachable' | 'key_refused' | 'address_invalid';

export interface LimitSnapshot {
  /** 'headers' when the gateway reported its limits, 'local' when counted here. */
  source: 'headers' | 'local';
  /**
   * Whether the limits below are the Gateway's: 'reported' (its x-ratelimit-* headers said so),
   * 'unknown' (no answer yet: the configured ones stand in), 'not_sent' (it sends none: the configured ones apply).
   */
  limits: LimitsOrigin;
  requestLimit: number;
  requestsRemaining: number;
  /** Epoch ms when a request slot frees up (undefined when none is used). */
  requestsResetAt: number | undefined;
  tokenLimit: number;
  tokensRemaining: number;
  tokensResetAt: number | undefined;
  /** Tokens this client spent or reserved in the current window. */
  tokensSpentThisWindow: number;
  /**
   * Set while a request waits for the limits, the gateway's 429 or the client's own
   * pacing alike: the epoch ms the wait ends (the status bar counts down to it).
   */
  rateLimitedUntil: number | undefined;
  /** Requests waiting for room in the window. */
  requestsWaiting: number;
  balance: BalanceState;
  reach: GatewayReach;
  /** Why, when `reach` is a failure: the error's message (never holds the key: the client's errors are redacted). */
  reachProblem?: string;
}

/** A request's share of the window, taken when it is sent. */
export interface Reservation {
  /** The gateway answered (its headers arrived): the request is counted from now. */
  answered(): void;
  /**
   * The real usage arrived. The gateway subtracts a request's prompt from
   * x-ratelimit-remaining-tokens when it admits it, so when the answer carried
   * headers they already hold `countedByHeaders` (the prompt) and only the rest
   * (the completion) is still to come off them.
   */
  settle(totalTokens: number, countedByHeaders?: number): void;
  /** The gateway did not count the request: its share goes back to the window. */
  release(): void;
}

/**
 * Whose request it is, for the order requests wait in (pacingQueue.ts). Foreground: the user waits for it
 * (a chat question, an inline edit, the session the user watches, another extension's request); background:
 * an agent session nobody watches. Absent: foreground, in a share of its own.
 */
export interface PacingTag {
  foreground: boolean;
  /** The share it is counted in (an agent session's id): background requests of different keys take turns. */
  key: string;
}

export interface AcquireOptions {
  /** A retry of a request already admitted to the queue once: it goes before the others of its class and key. */
  front?: boolean;
  /** Foreground or background, and whose share (see PacingTag); absent: foreground. */
  tag?: PacingTag;
  /**
   * Not asked for by the user (key check, model-list refresh): never waits, and is refused
   * with BackgroundSkipped when a request waits or the window has no room now (pacingQueue.ts).
   */
  background?: boolean;
  /** Told when the request has to wait, with the epoch ms it should go (again only when that moves later). */
  onWait?: (until: number) => void;
}
