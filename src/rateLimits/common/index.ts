/** The rateLimits feature's common layer as other features see it: import from here, not from its files. */
export { LimitTracker } from './limitTracker';
export { type BalanceState, type ConfiguredLimits, DEFAULT_LIMITS, type LimitSnapshot, type Reservation } from './limitTypes';
export { type SharedWindow, type SharedWindowEntry } from './sharedWindowSync';
export { BackgroundSkipped } from './pacingQueue';
