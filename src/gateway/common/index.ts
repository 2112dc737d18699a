export * from './errors';
export type { ApiKeyProvider, FetchAnswer, FetchBodyReader, FetchInit, FetchLike } from './gatewayPorts';
export * from './types';
export { GatewayClient, type GatewayClientOptions } from './client';
export { LimitTracker, DEFAULT_LIMITS, type LimitSnapshot, type ConfiguredLimits, type BalanceState, type Reservation } from '../../rateLimits/common';
export type { SharedWindow, SharedWindowEntry } from '../../rateLimits/common';
export { ShownNotes, SHOWN_NOTES } from './streamNotes';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy';
export { parseDuration } from './duration';
export { apiKeyProblem, checkAndStoreKey, type KeyCheckOutcome, type KeyCheckDeps } from './apiKey';
export { checkKeyOrigin, KeyOriginError, keyOriginNoLongerApplies, originOf, type BoundKey } from './keyOrigin';
export { DEFAULT_BODY_LIMITS, type BodyLimits } from './bodyLimits';
export {
  ModelWindows,
  memoryWindowStore,
  windowFromErrorText,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT_TOKENS,
  type ModelLimits,
  type ConfiguredModel,
  type LearnedWindowStore,
} from '../../models/common';
