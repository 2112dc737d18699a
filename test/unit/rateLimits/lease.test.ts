// The shared rate window's fast path (sharedWindowSync.ts, takeLease): a request that fits the lease the last
// locked round wrote goes without file I/O; near the limit, after the lease's time, or once it is spent, it takes
// the lock; and windows bursting together on their leases never send more than the limit between them.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { type Reservation } from '../../../src/rateLimits/common/limitTypes';
import { type SharedWindowEntry } from '../../../src/rateLimits/common/sharedWindowSync';
import { leaseMs } from '../../../src/rateLimits/common/sharedWindowSync';
import { FileSharedWindow } from '../../../src/rateLimits/node/fileSharedWindow';
import { VirtualClock } from '../helpers/clock';

const WINDOW_MS = 60_000;
let folder: string;
let file: string;
let round = 0;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'gateway-lease-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true, maxRetries: 5 });
});
beforeEach(async () => {
  file = join(folder, `globalStorage-${round++}`, 'rate-window.json');
  await mkdir(join(file, '..'), { recursive: true });
});

/** A VS Code window on the real shared file, counting its locked rounds (each one file I/O under the lock). */
class Window {
  readonly tracker: LimitTracker;
  readonly owner: string;
  rounds = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly aborter = new AbortController();

  constructor(clock: VirtualClock, requestsPerMinute: number) {
    const shared = new FileSharedWindow(file);
    this.owner = shared.owner;
    const counted = {
      owner: shared.owner,
      update: (change: (entries: SharedWindowEntry[]) => SharedWindowEntry[]) => {
        this.rounds++;
        const done = shared.update(change);
        const tracked = done.catch(() => undefined);
        this.running.add(tracked);
        void tracked.finally(() => this.running.delete(tracked));
        return done;
      },
    };
    this.tracker = new LimitTracker(clock, { requestsPerMinute, tokensPerMinute: 1_000_000 }, WINDOW_MS, counted);
    // A gateway that sends no x-ratelimit-* headers: the configured limits are the window's (no first request goes alone).
    this.tracker.recordHeaders(new Headers());
  }

  acquire(): Promise<Reservation> {
    return this.tracker.acquire(100, this.aborter.signal);
  }

  /** A request sent and answered: it stays in the window, no longer in flight. */
  async send(): Promise<{ viaLock: boolean }> {
    const before = this.rounds;
    const reservation = await this.acquire();
    const viaLock = this.rounds > before;
    reservation.settle(100);
    await this.idle();
    return { viaLock };
  }

  /** Waits for every locked round under way (real file I/O; the clock stands still meanwhile). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  stop(): void {
    this.aborter.abort(new Error('test over'));
  }
}

/** A window once its first round (the one noting the gateway sends no headers) is written. */
async function openWindow(clock: VirtualClock, requestsPerMinute: number): Promise<Window> {
  const window = new Window(clock, requestsPerMinute);
  await window.idle();
  return window;
}

async function fileEntries(): Promise<SharedWindowEntry[]> {
  return JSON.parse(await readFile(file, 'utf8')) as SharedWindowEntry[];
}

test('a request that fits the lease goes without a locked round; the lease is in the file for the others to count', async () => {
  const clock = new VirtualClock({ manual: true });
  const a = await openWindow(clock, 60);
  assert.deepEqual(await a.send(), { viaLock: true }, 'the first request takes the lock');
  // 59 left, no other window: a part of 59 / 2, at most 16 requests, beside the request itself.
  assert.equal((await fileEntries()).filter((e) => e.owner === a.owner).length, 1 + 16);
  for (let i = 0; i < 16; i++) assert.deepEqual(await a.send(), { viaLock: false }, `request ${i + 2} on the lease`);
  assert.deepEqual(await a.send(), { viaLock: true }, 'the lease spent, the next takes the lock');
  a.stop();
});

test('near the limit there is no lease: every request takes the lock', async () => {
  const clock = new VirtualClock({ manual: true });
  const other = (i: number): SharedWindowEntry => ({ owner: `other-${i % 2}`, requests: 1, tokens: 10, sentAt: clock.now(), answeredAt: clock.now() });
  await writeFile(file, JSON.stringify(Array.from({ length: 7 }, (_, i) => other(i))));
  // 12 a minute, 7 sent by two other windows: after this window's first, 4 left, a part of 4 / (2 + 2) = 1.
  const a = await openWindow(clock, 12);
  assert.deepEqual(await a.send(), { viaLock: true });
  assert.deepEqual(await a.send(), { viaLock: false }, 'the lease of one request');
  assert.deepEqual(await a.send(), { viaLock: true }, '3 left, a part of 3 / 4 is none');
  assert.deepEqual(await a.send(), { viaLock: true });
  a.stop();
});

test('a lease past its time is not drawn on, and its round takes it out of the file', async () => {
  const clock = new VirtualClock({ manual: true });
  const a = await openWindow(clock, 60);
  assert.deepEqual(await a.send(), { viaLock: true });
  clock.advance(leaseMs(WINDOW_MS));
  await a.idle();
  const own = (await fileEntries()).filter((e) => e.owner === a.owner);
  assert.deepEqual(
    own.map((e) => e.answeredAt === null),
    [false],
    'only the answered request is left: no room held for an idle window',
  );
  assert.deepEqual(await a.send(), { viaLock: true });
  a.stop();
});

test("another window's locked round counts this window's lease: together they never pass the limit", async () => {
  const clock = new VirtualClock({ manual: true });
  const a = await openWindow(clock, 10);
  await a.send(); // 9 left: a lease of 4
  const b = await openWindow(clock, 10);
  await b.send(); // counts a's 1 + 4; 4 left: a lease of 4 / (1 + 2) = 1
  let grantedB = 0;
  for (let i = 0; i < 10; i++)
    void b.acquire().then(
      () => grantedB++,
      () => undefined,
    );
  await b.idle();
  assert.equal(grantedB, 4, "its lease's one, then the lock: up to the limit less a's request and lease");
  for (let i = 0; i < 4; i++) assert.deepEqual(await a.send(), { viaLock: false }, 'this window still has its lease');
  let grantedA = 0;
  void a.acquire().then(
    () => grantedA++,
    () => undefined,
  );
  await a.idle();
  clock.advance(50);
  await Promise.all([a.idle(), b.idle()]);
  assert.equal(1 + 4 + grantedA + 1 + grantedB, 10, 'ten sent in all, none more');
  a.stop();
  b.stop();
});

test('four windows bursting together, on their leases and through the lock, send no more than the limit', async () => {
  const clock = new VirtualClock({ manual: true });
  const windows = await Promise.all(Array.from({ length: 4 }, () => openWindow(clock, 40)));
  let sent = 0;
  let onLease = 0;
  // Each has sent once, so each holds a lease; then all burst at once, time moving on in steps of a few ms.
  for (const window of windows) {
    await window.send();
    sent++;
  }
  const bursts = windows.map(async (window) => {
    // 4 + 4 × 10 asked for: more than the 40 the window holds.
    for (let i = 0; i < 10; i++) {
      const { viaLock } = await window.send();
      sent++;
      if (!viaLock) onLease++;
    }
  });
  for (let step = 0; step < 40; step++) {
    clock.advance(5);
    await Promise.all(windows.map((window) => window.idle()));
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const window of windows) window.stop();
  await Promise.allSettled(bursts);
  assert.ok(onLease > 0, 'some went on a lease');
  assert.ok(sent <= 40, `${sent} sent in one window of 40 requests`);
  // Within 200 ms most of it is used: what a lease holds back from the others is back within a second.
  assert.ok(sent >= 30, `only ${sent} sent`);
});

test('a round whose write fails leaves no lease: the next request takes the lock again', async () => {
  // A folder where the file goes: the round reads no entries and runs, its write (a rename onto the folder) fails.
  await mkdir(join(file, 'in-the-way'), { recursive: true });
  const clock = new VirtualClock({ manual: true });
  const a = await openWindow(clock, 60);
  assert.deepEqual(await a.send(), { viaLock: true }, 'paced on what the window knows');
  assert.deepEqual(await a.send(), { viaLock: true }, 'no lease the others cannot see');
  a.stop();
});
