// A usage record as the client writes one for an answered request, at noon on a fixed local day.
import type { UsageRecord } from '../../../src/usage/common/usageRecord';

export const NOON = new Date(2026, 10, 23, 12, 0, 0).getTime();

export function requestRecord(overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    kind: 'request',
    time: NOON,
    model: 'gw-chat',
    endpoint: '/chat/completions',
    surface: 'chat',
    input: 100,
    output: 20,
    reasoning: 5,
    status: 'stop',
    ...overrides,
  };
}
