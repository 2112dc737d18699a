// Two VS Code windows on one key: two extension hosts (clients with their own trackers) bursting together meet 429s,
// with the gateway's headers or without; sharing their reservations through a locked file in global storage avoids them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { type GatewayClient } from '../../../src/gateway/common';
import { type SharedWindow, type SharedWindowEntry } from '../../../src/rateLimits/common/sharedWindowSync';
import { FileSharedWindow } from '../../../src/rateLimits/node/fileSharedWindow';
import { burstClient, idealMs, runBurst, startBurstRig, utilisation, type BurstRig } from '../helpers/bursts';
import { signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';
import { plausibleEntry, SHARED_FUTURE_SKEW_MS } from '../../../src/rateLimits/common/sharedWindowSync';

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
  // A burst's last release still syncs the file a moment after the test ends: retry the removal it races.
  await rm(folder, { recursive: true, force: true, maxRetries: 5 });
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
  // Four windows are enough: without the lock most of these 20 updates are lost. Each waiter polls the lock in real
  // time while another holds it, so eight windows cost four times the CPU of four.
  test('concurrent updates from many windows lose none of them', async () => {
    const windows = Array.from({ length: 4 }, () => sharedFile());
    await Promise.all(
      windows.flatMap((window) =>
        Array.from({ length: 5 }, (_, i) =>
          window.update((entries) => [...entries, { owner: window.owner, requests: 1, tokens: i, sentAt: 1, answeredAt: null }]),
        ),
      ),
    );
    const stored = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    assert.equal(stored.length, 20);
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

/** Polls for what real file I/O brings (a sync's read and write), at most 2,000 turns of 1 ms. */
async function settled(condition: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let polls = 0; polls < 2_000; polls++) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return false;
}

describe('what the shared file says is checked', () => {
  const HOUR = 3_600_000;
  const entry = (fields: Partial<SharedWindowEntry>): SharedWindowEntry => ({
    owner: 'other',
    requests: 1,
    tokens: 10,
    sentAt: 0,
    answeredAt: null,
    ...fields,
  });

  /**
   * A window whose clock stands still (time passes only through `advance`, never here): a request it is
   * granted went at once, and `stored` is what the file holds once its sync has written it back.
   */
  async function grantedAtOnce(
    stored: string | ((now: number) => SharedWindowEntry[]),
  ): Promise<{ granted: boolean; file: SharedWindowEntry[]; owner: string }> {
    const clock = new VirtualClock({ manual: true });
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, typeof stored === 'string' ? stored : JSON.stringify((stored as (now: number) => unknown)(clock.now())));
    // The lock's own waits in real time: this clock stands still, and another window's lingering sync may hold the lock.
    const shared = new FileSharedWindow(file);
    const tracker = new LimitTracker(clock, { requestsPerMinute: 10, tokensPerMinute: 10_000 }, 60_000, shared);
    const started = clock.now();
    let granted = false;
    const reservation = tracker.acquire(100, signal()).then((r) => {
      granted = true;
      return r;
    });
    // Granted, or asked the clock for a wait (which this standing clock never lets pass): the outcome is known then,
    // not after 2,000 polls of real time that a request made to wait used to sit through.
    await settled(() => granted || clock.sleeps.length > 0);
    assert.equal(clock.now(), started, 'no time passed');
    // Once granted, the reservation's sync writes this window's entry back, without what was ignored.
    const written = async () => (JSON.parse(await readFile(file, 'utf8')) as SharedWindowEntry[]).some((e) => e.owner === shared.owner);
    if (granted) assert.ok(await settled(written), 'the sync wrote the file back');
    if (granted) (await reservation).release();
    return { granted, file: JSON.parse(await readFile(file, 'utf8')) as SharedWindowEntry[], owner: shared.owner };
  }

  test('an entry dated in the future (answered or in flight) is ignored, and dropped at the next write', async () => {
    const year = 365 * 24 * HOUR;
    const outcome = await grantedAtOnce((now: number) => [
      entry({ owner: 'future-answered', tokens: 1_000_000, sentAt: now + year, answeredAt: now + year }),
      entry({ owner: 'future-in-flight', sentAt: now + HOUR, answeredAt: null }),
      entry({ owner: 'recent', tokens: 5_000, sentAt: now - 1_000, answeredAt: now - 500 }),
    ]);
    assert.ok(outcome.granted, 'the request went at once');
    // This window's own entries may be several: its request and the lease its round wrote (sharedWindowSync.ts).
    assert.deepEqual([...new Set(outcome.file.map((e) => e.owner))].sort(), [outcome.owner, 'recent'].sort());
  });

  test('an oversized entry (requests or tokens past one request) is ignored, and dropped at the next write', async () => {
    const outcome = await grantedAtOnce((now: number) => [
      entry({ owner: 'many-requests', requests: 1_000_000, sentAt: now, answeredAt: now }),
      entry({ owner: 'many-tokens', tokens: 1e15, sentAt: now, answeredAt: now }),
    ]);
    assert.ok(outcome.granted, 'the request went at once');
    assert.deepEqual([...new Set(outcome.file.map((e) => e.owner))], [outcome.owner]);
  });

  test('more entries than any window writes, or numbers that are not finite, count as none', async () => {
    const many = await grantedAtOnce((now: number) => Array.from({ length: 6_000 }, (_, i) => entry({ owner: `w${i}`, sentAt: now, answeredAt: now })));
    assert.ok(many.granted, 'the request went at once');
    const nonFinite = await grantedAtOnce('[{"owner":"x","requests":1,"tokens":1e999,"sentAt":0,"answeredAt":null}]');
    assert.ok(nonFinite.granted);
  });

  test('the core checks what any shared window hands it: finite, small, not dated ahead', () => {
    const now = 1_000_000;
    assert.equal(plausibleEntry(entry({ sentAt: now, answeredAt: now + SHARED_FUTURE_SKEW_MS }), now), true);
    for (const bad of [
      { sentAt: now + SHARED_FUTURE_SKEW_MS + 1 },
      { answeredAt: now + SHARED_FUTURE_SKEW_MS + 1 },
      { sentAt: Number.NaN },
      { answeredAt: Number.POSITIVE_INFINITY },
      { tokens: Number.POSITIVE_INFINITY },
      { tokens: -1 },
      { requests: 2 },
      { requests: 0.5 },
    ]) {
      assert.equal(plausibleEntry(entry({ sentAt: now, ...bad }), now), false, JSON.stringify(bad));
    }
  });

  test('an entry dated within the skew of now still counts: the window is paced', async () => {
    const outcome = await grantedAtOnce((now: number) => [entry({ owner: 'busy', tokens: 10_000, sentAt: now + 1_000, answeredAt: now + 1_000 })]);
    assert.equal(outcome.granted, false, 'waits for the other window');
  });

  test('a lock dated in the future is broken at once, not waited out', async () => {
    const clock = new VirtualClock();
    const window = new FileSharedWindow(file, { clock });
    await window.update(() => []);
    await mkdir(`${file}.lock`);
    const ahead = new Date(Date.now() + HOUR);
    await utimes(`${file}.lock`, ahead, ahead);
    await window.update((entries) => [...entries, entry({ owner: window.owner })]);
    assert.ok(clock.sleeps.reduce((sum, ms) => sum + ms, 0) < 50, `waited ${clock.sleeps.length} times for the lock`);
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as unknown[]).length, 1);
  });

  test('a file that is not a regular file (a FIFO nobody writes) counts as empty without blocking', async () => {
    await mkdir(join(file, '..'), { recursive: true });
    execFileSync('mkfifo', [file]);
    let seen: unknown[] | undefined;
    const update = new FileSharedWindow(file).update((entries) => {
      seen = entries;
      return entries;
    });
    let timer: NodeJS.Timeout | undefined;
    const blocked = new Promise<'blocked'>((resolve) => (timer = setTimeout(() => resolve('blocked'), 5_000)));
    try {
      assert.notEqual(await Promise.race([update, blocked]), 'blocked', 'the read blocked on the FIFO');
    } finally {
      clearTimeout(timer);
      // A reader blocked in open() (a thread of the pool) would keep the test process alive: a writer that opens and closes ends it.
      await open(file, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (writer) => writer.close(),
        () => undefined,
      );
      await update.catch(() => undefined);
    }
    assert.deepEqual(seen, []);
  });
});
