// Today's usage as a running total (the status bar's line, the daily budget): seeded from the
// log once, then only the bytes any window appended since; a torn line, a roll-up that replaces
// the file, a rewrite in place and local midnight (on virtual time) each handled.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestRecord } from '../helpers/usageRecords';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MemoryLogger, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';
import { FileUsageStorage, MAX_UNFINISHED_LINE_BYTES } from '../../../src/usage/node/fileUsageStorage';
import { UsageLog } from '../../../src/usage/common/usageLog';
import { MAX_MODELS_TODAY } from '../../../src/usage/common/todayUsage';
import { encodeEntry, parseEntries } from '../../../src/usage/common/usageRecord';
import { todayTotals, type PriceOf } from '../../../src/usage/common/usageSummary';
import { budgetStatus, BudgetAlerts } from '../../../src/usage/common/dailyBudget';

const DAY = 86_400_000;
/** Noon local time, so "today" never straddles midnight unless a test moves the clock there. */
const NOON = new Date(2026, 10, 23, 12, 0, 0).getTime();
const noPrices: PriceOf = () => undefined;
const prices: PriceOf = (model) => (model === 'gw-chat' ? { inputPerMillion: 2, outputPerMillion: 10 } : undefined);

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'usage-today-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const logFile = () => join(folder, 'usage.jsonl');

/** A window of the editor: its own storage (counting the bytes it reads) and log, on the shared file. */
function openWindow(clock: VirtualClock, maxReadBytes?: number) {
  const storage = new FileUsageStorage(logFile(), maxReadBytes);
  const log = new UsageLog(storage, clock, new MemoryLogger());
  return { storage, log, tokens: async () => (await log.today.totals(noPrices, signal())).tokens };
}

const request = requestRecord;

/** Today's totals recomputed from the whole file, the way the status bar used to. */
function fromWholeLog(now: number, priceOf: PriceOf = noPrices) {
  return todayTotals(parseEntries(readLog()).entries, priceOf, now);
}

function readLog(): string {
  return existsSync(logFile()) ? readFileSync(logFile(), 'utf8') : '';
}

describe("today's running total", () => {
  test('seeded once from the log: today’s records and day lines of every model, not yesterday’s; costs at the prices asked with', async () => {
    const lines = [
      request({ time: NOON - DAY, input: 9_000 }),
      request({ time: NOON - 3_600_000, input: 10, output: 1 }),
      request({ time: NOON - 60_000, model: 'gw-code', surface: 'agent', input: 200, output: 30 }),
      { kind: 'day' as const, day: '2026-11-23', model: 'gw-chat', surface: 'chat' as const, requests: 4, input: 40, output: 4, reasoning: 0 },
    ];
    writeFileSync(logFile(), lines.map(encodeEntry).join(''));
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    const totals = await window.log.today.totals(prices, signal());
    const whole = fromWholeLog(NOON, prices);
    assert.deepEqual({ ...totals, cost: 0 }, { ...whole, cost: 0 });
    assert.ok(Math.abs(totals.cost - whole.cost) < 1e-12 && totals.cost > 0, `cost ${totals.cost} against ${whole.cost}`);
    assert.equal(totals.requests, 6);
    assert.equal(totals.tokens, 11 + 230 + 44);
    assert.equal(totals.unpricedTokens, 230);
    assert.equal(window.storage.bytesRead, statSync(logFile()).size);
  });

  test('each request this window records reads only its own line (plus one byte), however long the log: the bound per request', async () => {
    const old = Array.from({ length: 5_000 }, (_, i) => encodeEntry(request({ time: NOON - 3 * DAY + i, input: i }))).join('');
    writeFileSync(logFile(), old);
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    assert.equal(await window.tokens(), 0);
    const seeded = window.storage.bytesRead;
    assert.equal(seeded, Buffer.byteLength(old));
    let expected = 0;
    for (let i = 0; i < 20; i++) {
      const record = request({ input: 1_000 + i, output: i });
      expected += record.input + record.output;
      const before = window.storage.bytesRead;
      await window.log.record(record, signal());
      assert.equal(await window.tokens(), expected);
      // Before: the whole log (here ~830 KB) per request; now the appended line and the newline before it.
      assert.equal(window.storage.bytesRead - before, Buffer.byteLength(encodeEntry(record)) + 1);
    }
    assert.ok(seeded > 800_000, `the log is large (${seeded} bytes)`);
    assert.deepEqual(await window.log.today.totals(noPrices, signal()), fromWholeLog(NOON));
  });

  test('another window’s appends to the same log are counted, its and ours each once', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const chat = openWindow(clock);
    const agent = openWindow(clock);
    await chat.log.record(request({ input: 1, output: 0 }), signal());
    assert.equal(await chat.tokens(), 1);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      writes.push(agent.log.record(request({ surface: 'agent', model: 'gw-code', input: 10, output: 0 }), signal()));
      writes.push(chat.log.record(request({ input: 100, output: 0 }), signal()));
      // Read while the other window writes: a read between two appends must not lose or repeat a line.
      if (i % 10 === 0) await chat.tokens();
    }
    await Promise.all(writes);
    assert.equal(await chat.tokens(), 1 + 50 * 10 + 50 * 100);
    assert.equal(await agent.tokens(), 1 + 50 * 10 + 50 * 100);
    assert.deepEqual(await chat.log.today.totals(noPrices, signal()), fromWholeLog(NOON));
  });

  test('a line still being written waits for its newline; a line a crash tore is skipped, the record after it counted', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    await window.log.record(request({ input: 1, output: 0 }), signal());
    assert.equal(await window.tokens(), 1);

    const line = encodeEntry(request({ input: 20, output: 0 }));
    appendFileSync(logFile(), line.slice(0, 30));
    assert.equal(await window.tokens(), 1, 'half a line is not read yet');
    appendFileSync(logFile(), line.slice(30));
    assert.equal(await window.tokens(), 21, 'the whole line, once');

    appendFileSync(logFile(), encodeEntry(request({ input: 300 })).slice(0, 40));
    assert.equal(await window.tokens(), 21);
    // The next window's first append starts on a fresh line: the torn one becomes a bad line, skipped.
    await openWindow(clock).log.record(request({ input: 4_000, output: 0 }), signal());
    assert.equal(await window.tokens(), 4_021);
    assert.deepEqual(await window.log.today.totals(noPrices, signal()), fromWholeLog(NOON));
  });

  test('an endless last line (no newline, hostile) is skipped once, not read again on every request', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    await window.log.record(request({ input: 1, output: 0 }), signal());
    await window.tokens();
    appendFileSync(logFile(), 'x'.repeat(MAX_UNFINISHED_LINE_BYTES + 10));
    await window.tokens();
    const before = window.storage.bytesRead;
    assert.equal(await window.tokens(), 1);
    assert.equal(window.storage.bytesRead - before, 1, 'only the byte before the cursor');
  });

  test('a roll-up that moves the log aside and writes a new one: the other window reads the new file from its start, totals unchanged', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const lines = Array.from({ length: 30 }, (_, i) => encodeEntry(request({ time: NOON - 40 * DAY + i, input: 5 }))).join('');
    writeFileSync(logFile(), lines + encodeEntry(request({ input: 7, output: 0 })));
    const watcher = openWindow(clock);
    assert.equal(await watcher.tokens(), 7);

    const roller = openWindow(clock);
    await roller.log.rollUp(signal());
    assert.ok(
      parseEntries(readLog()).entries.some((e) => e.kind === 'day'),
      'the log was rolled up',
    );
    const read = watcher.storage.bytesRead;
    assert.equal(await watcher.tokens(), 7);
    assert.equal(watcher.storage.bytesRead - read, statSync(logFile()).size, 'the new file read whole, once');
    await roller.log.record(request({ input: 30, output: 0 }), signal());
    assert.equal(await watcher.tokens(), 37);
  });

  test('a log rewritten in place (same file, other lines) is read again rather than from a stale offset; a deleted log is an empty day', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    for (let i = 0; i < 5; i++) await window.log.record(request({ input: 10, output: 0 }), signal());
    assert.equal(await window.tokens(), 50);
    // Shorter than the offset.
    writeFileSync(logFile(), encodeEntry(request({ input: 3, output: 0 })));
    assert.equal(await window.tokens(), 3);
    // Longer again, but the byte before the old offset is no line's end.
    writeFileSync(logFile(), encodeEntry(request({ input: 12_345, output: 0, model: 'a-much-longer-model-name-than-before' })).repeat(2));
    assert.equal(await window.tokens(), 24_690);
    rmSync(logFile());
    assert.equal(await window.tokens(), 0);
    await window.log.record(request({ input: 2, output: 0 }), signal());
    assert.equal(await window.tokens(), 2);
  });

  test('more appended since the last read than a read takes: the newest part, bounded like the first read', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock, 2_000);
    await window.log.record(request({ input: 1, output: 0 }), signal());
    await window.tokens();
    const other = openWindow(clock);
    for (let i = 0; i < 100; i++) await other.log.record(request({ input: 1, output: 0 }), signal());
    const before = window.storage.bytesRead;
    const tokens = await window.tokens();
    assert.ok(window.storage.bytesRead - before <= 2_000, `read ${window.storage.bytesRead - before} bytes`);
    assert.ok(tokens > 0 && tokens < 101, `the newest records only (${tokens})`);
  });

  test('a log naming more models than are summed apart still counts every token, the rest without a price', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    writeFileSync(logFile(), Array.from({ length: MAX_MODELS_TODAY + 50 }, (_, i) => encodeEntry(request({ model: `m-${i}`, input: 1, output: 0 }))).join(''));
    const totals = await window.log.today.totals(() => ({ inputPerMillion: 1_000_000, outputPerMillion: 0 }), signal());
    assert.equal(totals.requests, MAX_MODELS_TODAY + 50);
    assert.equal(totals.tokens, MAX_MODELS_TODAY + 50);
    assert.equal(totals.cost, MAX_MODELS_TODAY);
    assert.equal(totals.unpricedTokens, 50);
  });

  test('at local midnight (virtual time) the total starts over: the new day’s records only, a late record of the old day left out', async () => {
    const beforeMidnight = new Date(2026, 10, 23, 23, 59, 0).getTime();
    const clock = new VirtualClock({ start: beforeMidnight, manual: true });
    const window = openWindow(clock);
    await window.log.record(request({ time: beforeMidnight, input: 500, output: 0 }), signal());
    assert.equal(await window.tokens(), 500);
    let newDays = 0;
    window.log.today.onNewDay(() => newDays++);

    clock.advance(59_000);
    assert.equal(newDays, 0, 'not yet midnight');
    // Answered just before midnight, recorded just after: yesterday's.
    await window.log.record(request({ time: beforeMidnight + 59_500, input: 40, output: 0 }), signal());
    clock.advance(1_000);
    assert.equal(newDays, 1, 'told at midnight');
    assert.equal(await window.tokens(), 0);
    await window.log.record(request({ time: clock.now(), input: 6, output: 0 }), signal());
    assert.equal(await window.tokens(), 6);
    assert.deepEqual(await window.log.today.totals(noPrices, signal()), fromWholeLog(clock.now()));

    clock.advance(DAY);
    assert.equal(newDays, 2, 'and the next midnight');
    assert.equal(await window.tokens(), 0);
    window.log.today.dispose();
    clock.advance(DAY);
    assert.equal(newDays, 2, 'no timer after dispose');
  });

  test('the budget from the running total: warned once from 80 %, over past it, another window’s requests included', async () => {
    const clock = new VirtualClock({ start: NOON, manual: true });
    const window = openWindow(clock);
    const other = openWindow(clock);
    const alerts = new BudgetAlerts();
    const budget = { tokens: 1_000 };
    const afterRecord = async () => {
      const status = budgetStatus(await window.log.today.totals(noPrices, signal()), budget, false);
      return [status.level, alerts.next(status, '2026-11-23')];
    };
    await window.log.record(request({ input: 700, output: 0 }), signal());
    assert.deepEqual(await afterRecord(), ['ok', undefined]);
    await other.log.record(request({ input: 100, output: 0 }), signal());
    await window.log.record(request({ input: 10, output: 0 }), signal());
    assert.deepEqual(await afterRecord(), ['warning', 'warning']);
    await window.log.record(request({ input: 10, output: 0 }), signal());
    assert.deepEqual(await afterRecord(), ['warning', undefined]);
    await other.log.record(request({ input: 180, output: 0 }), signal());
    assert.deepEqual(await afterRecord(), ['over', 'over'], 'the other window’s request passed it');
    assert.deepEqual(await afterRecord(), ['over', undefined]);
  });
});
