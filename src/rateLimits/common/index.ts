/** The rateLimits feature's common layer as other features see it: import from here, not from its files. */
export { LimitTracker } from './limitTracker';
export { type BalanceState, type GatewayReach, type LimitSnapshot, type PacingTag, type Reservation } from './limitTypes';
export { type SharedWindow, type SharedWindowEntry } from './sharedWindowSync';
export { BackgroundSkipped, PacingQueueFull } from './pacingQueue';
export { describeWait, parseRetryAfter } from './duration';
