// The model list shared by the status bar, the pickers and @gateway: one caller giving up never fails the others.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AbortError, AuthError, type GatewayClient, type ModelInfo } from '../../../src/gateway/common';
import { SharedListing } from '../../../src/models/common/sharedListing';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const statuses = () => emulator.requests.map((r) => r.status);

/**
 * A listing whose 503 retry wait (300 ms) passes only when `duringRetryWait` says
 * so: the listing stays in flight while a test gives up on it, invalidates or disposes it.
 */
function listingFor(
  key: string,
  results: ModelInfo[][] = [],
  duringRetryWait: (clock: VirtualClock) => void = (clock) => clock.advance(300),
): SharedListing<ModelInfo[]> {
  const clock = new VirtualClock({ manual: true });
  clock.onSleep = () => setImmediate(() => duringRetryWait(clock));
  const client: GatewayClient = makeClient(emulator.baseUrl, key, { clock, retry: { unavailableMinMs: 300, unavailableMaxMs: 300 } });
  return new SharedListing(
    (s) => client.listModels({ signal: s }),
    (models) => results.push(models),
    clock,
    15_000,
  );
}

const slowListing = () => emulator.fault('demo-key', { kind: '503', endpoint: 'models' });

describe('shared model listing', () => {
  test('a caller that gives up gets AbortError; the others still get the list from the same request', async () => {
    slowListing();
    const quitter = new AbortController();
    const listing = listingFor('demo-key', [], (clock) => {
      quitter.abort();
      clock.advance(300);
    });
    const first = listing.get(quitter.signal);
    const second = listing.get(signal());
    await assert.rejects(first, AbortError);
    assert.ok((await second).some((m) => m.id === 'gw-chat'));
    assert.deepEqual(statuses(), [503, 200]);
  });

  test('a caller giving up is not remembered as a failure: the next caller gets the list', async () => {
    slowListing();
    const results: ModelInfo[][] = [];
    const listing = listingFor('demo-key', results);
    const quitter = new AbortController();
    const first = listing.get(quitter.signal);
    quitter.abort();
    await assert.rejects(first, AbortError);
    const models = await listing.get(signal());
    assert.ok(models.length > 0);
    assert.equal(results.length, 1);
    // The one listing went on after its only caller left; the next caller shared it instead of asking again.
    assert.deepEqual(statuses(), [503, 200]);
  });

  test('a real failure is kept for the pause: asked once, reported to every caller', async () => {
    const listing = listingFor('unknown-key');
    await assert.rejects(listing.get(signal()), AuthError);
    await assert.rejects(listing.get(signal()), AuthError);
    assert.deepEqual(statuses(), [401]);
  });

  test('invalidate stops the old listing; a caller waiting for it gets the new one, not AbortError', async () => {
    slowListing();
    const results: ModelInfo[][] = [];
    const listing: SharedListing<ModelInfo[]> = listingFor('demo-key', results, () => listing.invalidate());
    const waiting = listing.get(signal());
    assert.ok((await waiting).length > 0);
    assert.equal(results.length, 1);
    // The first listing stopped in its retry wait; the second asked afresh.
    assert.deepEqual(statuses(), [503, 200]);
  });

  test('dispose ends the waits with AbortError', async () => {
    slowListing();
    const listing: SharedListing<ModelInfo[]> = listingFor('demo-key', [], () => listing.dispose());
    const waiting = listing.get(signal());
    await assert.rejects(waiting, AbortError);
    await assert.rejects(listing.get(signal()), AbortError);
  });
});
