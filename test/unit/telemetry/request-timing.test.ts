// Issue 41: what the client and the transport tell the team's collector beside the usage record, on virtual time
// against the emulator over HTTP: the wait for the key's window (pacing) with its length, the whole duration
// (the wait included) and the time to the first chunk, the answering model, the cached input tokens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normaliseUsage } from '../../../src/gateway/common/usageCounts';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import type { UsageRecord } from '../../../src/usage/common/usageRecord';
import type { RequestTiming, WaitReason } from '../../../src/telemetry/common/telemetryEvents';
import { collect, makeClient, signal } from '../helpers/clients';
import { clockedEmulator } from '../helpers/clockedEmulator';
import { VirtualClock } from '../helpers/clock';

const MINUTE = 60_000;
const time = new VirtualClock({ manual: true });
const emulator = clockedEmulator({ clock: time, windowMs: MINUTE, keys: [{ key: 'one-a-minute', rpm: 1 }], beforeEachTest: () => time.advance(10 * MINUTE) });

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(done(), 'the expected state was never reached');
}

describe('what a request tells the collector', () => {
  test('a request that waits for the window: the wait is told with its reason, and counted in the duration', async () => {
    const told: [UsageRecord, RequestTiming][] = [];
    const waits: [number, WaitReason][] = [];
    let rateLimited = 0;
    const client = makeClient(emulator().baseUrl, 'one-a-minute', {
      clock: time,
      limits: new LimitTracker(time),
      onUsage: (record, timing) => void told.push([record, timing]),
      window: { rateLimited: () => void rateLimited++, waited: (ms, reason) => void waits.push([ms, reason]) },
    });
    await client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'first' }] }, { signal: signal() });
    assert.deepEqual(waits, [], 'the first request has room');
    const second = collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'second' }] }, { signal: signal() }));
    let notified = false;
    await until(() => {
      // The request is queued once the pacing said so (the tracker's wait): then the minute may pass.
      notified ||= time.waiting > 0;
      return notified;
    });
    time.advance(MINUTE);
    await second;
    assert.equal(rateLimited, 0, 'paced, never a 429');
    assert.equal(waits.length, 1);
    assert.equal(waits[0]![1], 'pacing');
    assert.ok(waits[0]![0] > 50_000 && waits[0]![0] <= MINUTE, `waited ${waits[0]![0]} ms`);
    const [, streamed] = told[1]!;
    assert.ok(streamed.durationMs >= waits[0]![0], 'the duration counts the wait');
    assert.ok(streamed.firstChunkMs !== undefined && streamed.firstChunkMs <= streamed.durationMs);
    assert.equal(streamed.responseModel, 'gw-chat');
    assert.equal(told[0]![1].firstChunkMs, undefined, 'a request not streamed has no first chunk');
    assert.equal(told[0]![1].responseModel, 'gw-chat');
  });

  test('cached input tokens, under either usage shape, only when the Gateway reports some', () => {
    assert.equal(normaliseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 64 } })?.cachedTokens, 64);
    assert.equal(normaliseUsage({ input_tokens: 100, output_tokens: 5, input_tokens_details: { cached_tokens: 32 } })?.cachedTokens, 32);
    assert.equal(normaliseUsage({ input_tokens: 100, output_tokens: 5, input_tokens_details: { cached_tokens: 0 } })?.cachedTokens, undefined);
    assert.equal(normaliseUsage({ input_tokens: 100, output_tokens: 5 })?.cachedTokens, undefined);
  });
});
