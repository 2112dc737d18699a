// Sessions at once on one key against the emulator's real windows (issue 40): three agent-like request streams (nobody
// watches them: background) and chat questions asked meanwhile, through one client and its pacing. The gateway must
// never refuse one with a 429 the client caused. The shares and the chat's wait are printed by `npm run bench -- fairness`
// (figures in real time are not asserted here); what is checked is what holds whatever the machine's load: no 429,
// every question answered, and every session served.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { measureFairness } from '../bench/fairness';

describe('three sessions and chat questions on one key', () => {
  test('no self-caused 429, every chat question answered, every session served', async () => {
    const figures = await measureFairness({ windowMs: 1_000, rpm: 10, durationMs: 4_000, questions: 4 });
    assert.equal(figures.tooMany, 0, 'no request met a 429');
    assert.equal(figures.chatExtraWaitsMs.length, 4, 'every question had its first event');
    for (const [i, count] of figures.sessionRequests.entries()) assert.ok(count > 0, `session ${i} sent requests: ${figures.sessionRequests.join(', ')}`);
  });
});
