/** The usage feature's common layer as other features see it: import from here, not from its files. */
export { UsageLog } from './usageLog';
export { type RequestOrigin, type UsageRecord } from './usageRecord';
