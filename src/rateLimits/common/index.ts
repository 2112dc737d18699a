/** The rateLimits feature's common layer as other features see it: import from here, not from its files. */
export { type BalanceState, type ConfiguredLimits, DEFAULT_LIMITS, type LimitSnapshot, LimitTracker, type Reservation } from './limitTracker';
export { type SharedWindow, type SharedWindowEntry } from './sharedWindowSync';
export { BackgroundSkipped } from './pacingQueue';
