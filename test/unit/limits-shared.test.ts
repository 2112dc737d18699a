// Two VS Code windows on one key: two extension hosts (clients with their own trackers) bursting together meet 429s,
// with the gateway's headers or without; sharing their reservations through a locked file in global storage avoids them.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { GatewayClient, SharedWindow } from '../../src/core/api';
import { FileSharedWindow } from '../../src/node';
import { burstClient, idealMs, runBurst, startBurstRig, utilisation, type BurstRig } from './helpers/bursts';
import { signal } from './helpers/clients';

const WINDOW_MS = 2000;
let rig: BurstRig;
let folder: string;
before(async () => {
  rig = await startBurstRig(
    [
      { key: 'ten', rpm: 10 },
      { key: 'ten-blind', rpm: 10, rateLimitHeaders: false },
      { key: 'tpm', rpm: 1000, tpm: 10_000 },
      { key: 'tpm-blind', rpm: 1000, tpm: 10_000, rateLimitHeaders: false },
    ],
    WINDOW_MS,
  );
  folder = await mkdtemp(join(tmpdir(), 'gateway-shared-window-'));
});
after(async () => {
  await rig.close();
  await rm(folder, { recursive: true, force: true });
});
let file: string;
let round = 0;
beforeEach(() => {
  rig.emulator.reset();
  file = join(folder, `globalStorage-${round++}`, 'rate-window.json');
});

const chats = (client: GatewayClient, host: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => () => client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: `[${host}r${i}] hi` }] }, { signal: signal() }),
  );
const fortyPercent = 'word '.repeat(3200);
const responses = (client: GatewayClient, host: string, n: number) =>
  Array.from({ length: n }, (_, i) => () => client.respond({ model: 'gw-code', input: `[${host}r${i}] ${fortyPercent}` }, { signal: signal() }));
/** A window's share of the file, its I/O held in virtual time (a real sync takes a millisecond, not a poll's interval). */
function sharedFile(): SharedWindow {
  const window = new FileSharedWindow(file);
  return { owner: window.owner, update: (change) => rig.clock.hold(window.update(change)) };
}
/**
 * Two windows open for a while: each has had an answer, so each knows whether the gateway sends its
 * limits. (From a cold start, one window can fill the whole window while the other's first request, which
 * goes alone, still waits; that window then counts the first's requests twice until the reset, and the
 * burst takes one window longer: safe, but not what this test measures.)
 */
async function warmUp(...clients: GatewayClient[]): Promise<void> {
  for (const [i, client] of clients.entries()) {
    await client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: `[warm${i}] hi` }] }, { signal: signal() });
  }
  await rig.clock.sleep(WINDOW_MS);
  rig.emulator.reset();
}
const rpm10 = { requestsPerMinute: 10, tokensPerMinute: 1_000_000 };
const tpm10k = { requestsPerMinute: 1000, tokensPerMinute: 10_000 };

for (const [headers, rpmKey, tpmKey] of [
  ['with headers', 'ten', 'tpm'],
  ['without headers', 'ten-blind', 'tpm-blind'],
] as const) {
  describe(`two extension hosts on one key, ${headers}`, () => {
    test('measured: each pacing alone, 15 requests each at a 10-request key meet 429s', async () => {
      const outcome = await runBurst(rig, [...chats(burstClient(rig, rpmKey, rpm10), 'a', 15), ...chats(burstClient(rig, rpmKey, rpm10), 'b', 15)]);
      assert.ok(outcome.tooMany >= 10, `${outcome.tooMany} 429s`);
    });

    test('sharing the window through a file: none refused, utilisation ≥ 0.9', async () => {
      const a = burstClient(rig, rpmKey, rpm10, sharedFile());
      const b = burstClient(rig, rpmKey, rpm10, sharedFile());
      await warmUp(a, b);
      const outcome = await runBurst(rig, [...chats(a, 'a', 15), ...chats(b, 'b', 15)]);
      assert.equal(outcome.tooMany, 0);
      assert.equal(outcome.statuses.length, 30);
      assert.ok(utilisation(idealMs(30, 10, WINDOW_MS), outcome.elapsedMs) >= 0.9, `took ${outcome.elapsedMs} ms`);
    });

    test('measured: 2 responses each at 40 % of TPM meet 429s alone, none shared', async () => {
      const alone = await runBurst(rig, [...responses(burstClient(rig, tpmKey, tpm10k), 'a', 2), ...responses(burstClient(rig, tpmKey, tpm10k), 'b', 2)]);
      assert.ok(alone.tooMany >= 2, `${alone.tooMany} 429s`);
      rig.emulator.reset();
      await rig.clock.sleep(WINDOW_MS);
      const a = burstClient(rig, tpmKey, tpm10k, sharedFile());
      const b = burstClient(rig, tpmKey, tpm10k, sharedFile());
      const shared = await runBurst(rig, [...responses(a, 'a', 2), ...responses(b, 'b', 2)]);
      assert.equal(shared.tooMany, 0);
      assert.ok(utilisation(idealMs(4, 2, WINDOW_MS), shared.elapsedMs) >= 0.9, `took ${shared.elapsedMs} ms`);
    });
  });
}

describe('the shared file', () => {
  test('concurrent updates from many windows lose none of them', async () => {
    const windows = Array.from({ length: 8 }, () => sharedFile());
    await Promise.all(
      windows.flatMap((window) =>
        Array.from({ length: 5 }, (_, i) =>
          window.update((entries) => [...entries, { owner: window.owner, requests: 1, tokens: i, sentAt: 1, answeredAt: null }]),
        ),
      ),
    );
    const stored = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    assert.equal(stored.length, 40);
  });

  test('a torn or hostile file counts as empty, and a lock left by a dead window is broken', async () => {
    const window = new FileSharedWindow(file);
    await window.update(() => []);
    await writeFile(file, '[{"owner":"x","requests":1e999,"tokens":-1');
    const { mkdir, utimes } = await import('node:fs/promises');
    await mkdir(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    let seen: unknown[] | undefined;
    await window.update((entries) => {
      seen = entries;
      return entries;
    });
    assert.deepEqual(seen, []);
  });
});
