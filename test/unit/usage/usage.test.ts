// Issue 16: the usage log (recorded once in the client, against the emulator), its file
// (concurrent appends, a torn last line, the roll-up), the sums, the budget and the view's page.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, MemoryLogger, signal } from '../helpers/clients';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { FileUsageStorage } from '../../../src/usage/node/fileUsageStorage';
import { UsageLog, needsRollUp, rollUp } from '../../../src/usage/common/usageLog';
import { dayOf, encodeEntry, parseEntries, type UsageEntry, type UsageRecord } from '../../../src/usage/common/usageRecord';
import { requestRecord } from '../helpers/usageRecords';
import { describeTotals, lastDays, summarize, todayTotals, usageCsv, type PriceOf } from '../../../src/usage/common/usageSummary';
import { budgetMessage, budgetStatus, BudgetAlerts } from '../../../src/usage/common/dailyBudget';
import { escapeHtml, niceCeiling, usagePage } from '../../../src/usage/common/usageHtml';
import { formatStatus } from '../../../src/status/common/statusView';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { VirtualClock } from '../helpers/clock';
import { startHostileServer } from '../helpers/hostileServer';

const DAY = 86_400_000;
/** Noon local time on a fixed day, so "today" and "40 days ago" never straddle midnight. */
const NOW = new Date(2026, 10, 23, 12, 0, 0).getTime();
const clockAt = (now: number) => ({ now: () => now, sleep: async () => undefined, after: () => undefined });

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'usage-test-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const logFile = () => join(folder, 'usage.jsonl');
const newLog = (now = NOW) => new UsageLog(new FileUsageStorage(logFile()), clockAt(now), new MemoryLogger());

const request = requestRecord;

describe('recorded once, in the client, against the emulator', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());

  test('a chat stream, a responses call and a non-streamed chat: one record each, with the surface, the session and the emulator’s token counts', async () => {
    const records: UsageRecord[] = [];
    const client = makeClient(emulator.baseUrl, 'demo-key', { onUsage: (record) => records.push(record) });
    await collect(
      client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello there' }] }, { signal: signal(), origin: { surface: 'chat' } }),
    );
    await client.respond({ model: 'gw-code', input: 'code please' }, { signal: signal(), origin: { surface: 'agent', sessionId: 'sess-1' } });
    await client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'rewrite' }] }, { signal: signal(), origin: { surface: 'inline' } });
    await collect(client.respondStream({ model: 'gw-code', input: 'from another extension' }, { signal: signal() }));

    assert.deepEqual(
      records.map((r) => [r.surface, r.sessionId, r.endpoint, r.model, r.status]),
      [
        ['chat', undefined, '/chat/completions', 'gw-chat', 'stop'],
        ['agent', 'sess-1', '/responses', 'gw-code', 'stop'],
        ['inline', undefined, '/chat/completions', 'gw-chat', 'stop'],
        ['lm', undefined, '/responses', 'gw-code', 'stop'],
      ],
    );
    const billed = emulator.requests.filter((r) => r.status === 200);
    assert.equal(billed.length, 4);
    billed.forEach((r, i) => {
      assert.equal(records[i]!.input, r.inputTokens);
      assert.equal(records[i]!.input + records[i]!.output, r.totalTokens);
    });
    // Counts and names only: no prompt text anywhere in a record.
    assert.ok(!records.some((r) => JSON.stringify(r).includes('hello there')));
  });

  test('a failed request (402) records nothing; a stream the caller stops after its usage is recorded as incomplete', async () => {
    const records: UsageRecord[] = [];
    const client = makeClient(emulator.baseUrl, 'demo-key', { onUsage: (record) => records.push(record) });
    emulator.addKey({ key: 'empty-key', balance: 0 });
    const broke = makeClient(emulator.baseUrl, 'empty-key', { onUsage: (record) => records.push(record) });
    await assert.rejects(collect(broke.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'x' }] }, { signal: signal() })));
    assert.equal(records.length, 0);
    for await (const event of client.chatStream(
      { model: 'gw-chat', messages: [{ role: 'user', content: 'y' }] },
      { signal: signal(), origin: { surface: 'chat' } },
    )) {
      if (event.type === 'usage') break;
    }
    assert.equal(records.length, 1);
    assert.ok(['incomplete', 'stop'].includes(records[0]!.status));
  });

  test('an agent session records each of its requests under its id; past the budget the gate stops it before any request', async () => {
    const workspace = new TempWorkspace();
    try {
      const records: UsageRecord[] = [];
      emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'Read it.' }]);
      workspace.write('a.txt', 'hello\n');
      const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, onUsage: (record) => records.push(record) });
      const state = startSession('read a.txt');
      await runToEnd(engine, state);
      assert.equal(state.status, 'done');
      assert.deepEqual(
        records.map((r) => [r.surface, r.sessionId]),
        [
          ['agent', state.id],
          ['agent', state.id],
        ],
      );
      assert.equal(
        records.reduce((sum, r) => sum + r.input + r.output, 0),
        state.usage.totalTokens,
      );

      const before = emulator.requests.length;
      const gated = makeEngine({ baseUrl: emulator.baseUrl, workspace, spendGate: async () => "Stopped: Today's daily budget is spent." });
      const stopped = startSession('read a.txt again');
      await runToEnd(gated.engine, stopped);
      assert.equal(stopped.status, 'stopped');
      assert.match(stopped.statusReason ?? '', /daily budget/);
      assert.equal(emulator.requests.length, before);
    } finally {
      workspace.dispose();
    }
  });
});

test('hostile usage counts from a gateway (negative, fractional) are recorded as whole numbers from 0, so the line stays readable', async () => {
  const server = await startHostileServer();
  try {
    server.on('/v1/chat/completions', (_req, res) => {
      const body = {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'gw-chat',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: -5, completion_tokens: 2.6, total_tokens: 0 },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    const records: UsageRecord[] = [];
    await makeClient(server.baseUrl, 'demo-key', { onUsage: (record) => records.push(record) }).chat(
      { model: 'gw-chat', messages: [{ role: 'user', content: 'x' }] },
      { signal: signal(), origin: { surface: 'inline' } },
    );
    assert.deepEqual([records[0]!.input, records[0]!.output], [0, 3]);
    assert.equal(parseEntries(encodeEntry(records[0]!)).entries.length, 1);
  } finally {
    await server.close();
  }
});

describe('the log file', () => {
  test('records appended concurrently by two windows (chat and agent at once) all read back whole', async () => {
    const chatWindow = newLog();
    const agentWindow = newLog();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      writes.push(chatWindow.record(request({ input: i, surface: 'chat' }), signal()));
      writes.push(agentWindow.record(request({ input: i, surface: 'agent', sessionId: `s-${i % 7}`, endpoint: '/responses', model: 'gw-code' }), signal()));
    }
    await Promise.all(writes);
    const text = readFileSync(logFile(), 'utf8');
    const { entries, skipped } = parseEntries(text);
    assert.equal(skipped, 0);
    assert.equal(entries.length, 400);
    const inputs = (surface: string) => entries.filter((e) => e.surface === surface).reduce((sum, e) => sum + e.input, 0);
    assert.equal(inputs('chat'), (199 * 200) / 2);
    assert.equal(inputs('agent'), (199 * 200) / 2);
    assert.ok(
      text
        .split('\n')
        .slice(0, -1)
        .every((line) => line.startsWith('{') && line.endsWith('}')),
    );
  });

  test('a torn last line (a crash mid-write) is skipped, and the next window’s first record starts on a line of its own', async () => {
    await newLog().record(request({ input: 1 }), signal());
    appendFileSync(logFile(), encodeEntry(request({ input: 2 })).slice(0, 40));
    const afterCrash = newLog();
    assert.deepEqual(
      (await afterCrash.entries(signal())).map((e) => e.input),
      [1],
    );
    await afterCrash.record(request({ input: 3 }), signal());
    assert.deepEqual(
      (await afterCrash.entries(signal())).map((e) => e.input),
      [1, 3],
    );
  });

  test('hostile lines are skipped: wrong types, negative or fractional counts, unknown surfaces, overlong names', () => {
    const good = encodeEntry(request());
    const lines = [
      good,
      JSON.stringify({ ...request(), input: -1 }),
      JSON.stringify({ ...request(), output: 1.5 }),
      JSON.stringify({ ...request(), surface: 'elsewhere' }),
      JSON.stringify({ ...request(), model: 'm'.repeat(500) }),
      JSON.stringify({ ...request(), time: 'yesterday' }),
      JSON.stringify({ kind: 'day', day: '2026-1-1', model: 'm', surface: 'chat', requests: 1, input: 1, output: 1, reasoning: 0 }),
      '[1,2,3]',
      'not json',
    ].join('\n');
    const { entries, skipped } = parseEntries(lines);
    assert.equal(entries.length, 1);
    assert.equal(skipped, 8);
  });

  test('a log larger than the read bound is read from its newest whole line', async () => {
    const storage = new FileUsageStorage(logFile(), 1_000);
    for (let i = 0; i < 50; i++) await storage.append(encodeEntry(request({ input: i })), signal());
    const { entries, skipped } = parseEntries(await storage.read(signal()));
    assert.equal(skipped, 0);
    assert.ok(entries.length > 0 && entries.length < 50);
    assert.equal(entries.at(-1)!.input, 49);
  });

  test('the roll-up turns records older than 30 days into one line per day, model and surface; the sums stay the same', async () => {
    const log = newLog();
    const old = NOW - 40 * DAY;
    for (const [time, surface, input] of [
      [old, 'chat', 10],
      [old + 1000, 'chat', 20],
      [old, 'agent', 5],
      [NOW - 45 * DAY, 'chat', 7],
      [NOW, 'chat', 1],
    ] as const) {
      await log.record(request({ time, surface, input, sessionId: surface === 'agent' ? 'sess' : undefined }), signal());
    }
    const before = await log.entries(signal());
    assert.ok(needsRollUp(before, NOW));
    await log.rollUp(signal());
    const rolled = await log.entries(signal());
    assert.deepEqual(
      rolled.map((e) => (e.kind === 'day' ? `${e.day} ${e.surface} ${e.requests} ${e.input}` : `request ${e.input}`)).sort(),
      [`${dayOf(NOW - 45 * DAY)} chat 1 7`, `${dayOf(old)} agent 1 5`, `${dayOf(old)} chat 2 30`, 'request 1'].sort(),
    );
    assert.ok(!needsRollUp(rolled, NOW));
    assert.deepEqual(rollUp(rolled, NOW), rolled);
    assert.deepEqual(readdirSync(folder), ['usage.jsonl']);
    const total = (entries: UsageEntry[]) => entries.reduce((sum, e) => sum + e.input, 0);
    assert.equal(total(rolled), total(before));
    // A second roll-up has nothing to do and changes nothing.
    await log.rollUp(signal());
    assert.equal((await log.entries(signal())).length, rolled.length);
  });

  test('a record appended to the log just as it was moved aside is kept; a roll-up a crash interrupted is picked up', async () => {
    const storage = new FileUsageStorage(logFile(), undefined, () => NOW);
    await storage.append(encodeEntry(request({ time: NOW - 40 * DAY, input: 1 })), signal());
    const taken = await storage.takeForRollUp(signal());
    assert.ok(taken);
    const aside = readdirSync(folder).find((name) => name.endsWith('.rolling'))!;
    appendFileSync(join(folder, aside), encodeEntry(request({ input: 2 })));
    assert.equal(parseEntries(await taken.finish(signal())).entries[0]!.input, 2);

    writeFileSync(join(folder, 'usage.jsonl.crashed.rolling'), encodeEntry(request({ time: NOW - 40 * DAY, input: 7 })));
    const hour = (NOW - 3_600_000) / 1000;
    utimesSync(join(folder, 'usage.jsonl.crashed.rolling'), hour, hour);
    const log = new UsageLog(storage, clockAt(NOW), new MemoryLogger());
    await storage.append(encodeEntry(request({ time: NOW - 40 * DAY, input: 3 })), signal());
    await log.rollUp(signal());
    const entries = await log.entries(signal());
    assert.deepEqual(entries.map((e) => [e.kind, e.input]).sort(), [['day', 10]]);
    assert.deepEqual(readdirSync(folder), ['usage.jsonl']);
  });
});

describe('the sums', () => {
  const prices: PriceOf = (model) => (model === 'gw-chat' ? { inputPerMillion: 2, outputPerMillion: 8 } : undefined);
  const entries: UsageEntry[] = [
    request({ input: 1_000_000, output: 500_000, reasoning: 100_000 }),
    request({ time: NOW - 1000, input: 200, output: 100, surface: 'inline' }),
    request({ time: NOW - DAY, model: 'gw-code', endpoint: '/responses', surface: 'agent', sessionId: 'big', input: 50_000, output: 10_000 }),
    request({ time: NOW - 2 * DAY, model: 'gw-chat', surface: 'agent', sessionId: 'small', input: 1_000, output: 1_000 }),
    { kind: 'day', day: dayOf(NOW - 29 * DAY), model: 'gw-chat', surface: 'lm', requests: 3, input: 300, output: 30, reasoning: 0 },
    { kind: 'day', day: dayOf(NOW - 45 * DAY), model: 'gw-chat', surface: 'chat', requests: 9, input: 9, output: 9, reasoning: 0 },
  ];

  test('per day, model and surface over the last 30 days; today and this month; cost only for priced models', () => {
    const summary = summarize(entries, prices, NOW);
    assert.equal(summary.days.length, 30);
    assert.equal(summary.days.at(-1)!.day, dayOf(NOW));
    assert.equal(summary.days[0]!.day, dayOf(NOW - 29 * DAY));
    assert.equal(summary.today.requests, 2);
    assert.equal(summary.today.tokens, 1_500_300);
    assert.equal(summary.today.reasoning, 100_000 + 5);
    assert.ok(Math.abs(summary.today.cost - (1_000_200 * 2 + 500_100 * 8) / 1_000_000) < 1e-9);
    assert.equal(summary.today.unpricedTokens, 0);
    const todayDay = summary.days.at(-1)!;
    assert.equal(todayDay.bySurface.get('chat')!.tokens, 1_500_000);
    assert.equal(todayDay.bySurface.get('inline')!.tokens, 300);
    const yesterday = summary.days.at(-2)!;
    assert.equal(yesterday.byModel.get('gw-code')!.unpricedTokens, 60_000);
    assert.equal(yesterday.byModel.get('gw-code')!.cost, 0);
    assert.equal(summary.days[0]!.bySurface.get('lm')!.requests, 3);
    assert.deepEqual(summary.models, ['gw-chat', 'gw-code']);
    assert.equal(summary.priced, true);
    // Costliest first: "small" cost money, "big" has no price.
    assert.deepEqual(
      summary.sessions.map((s) => s.sessionId),
      ['small', 'big'],
    );
    // The month: November 2026 from the 1st (the 45-day-old roll-up is October's).
    const novemberDays = entries.filter((e) => (e.kind === 'day' ? e.day : dayOf(e.time)).startsWith('2026-11'));
    assert.equal(
      summary.month.tokens,
      novemberDays.reduce((sum, e) => sum + e.input + e.output, 0),
    );
    assert.deepEqual(todayTotals(entries, prices, NOW), summary.today);
  });

  test('without prices: tokens only, never a cost', () => {
    const summary = summarize(entries, () => undefined, NOW);
    assert.equal(summary.priced, false);
    assert.equal(summary.today.cost, 0);
    assert.equal(describeTotals(summary.today, summary.priced), '1,500,300 tokens');
    assert.match(describeTotals(summarize(entries, prices, NOW).days.at(-2)!.totals, true), /60,000 tokens without a price/);
  });

  test('the 30 days step by calendar day (a daylight-saving change neither skips nor repeats one)', () => {
    const days = lastDays(new Date(2026, 2, 31, 12).getTime(), 30);
    assert.equal(new Set(days).size, 30);
    assert.equal(days[0], '2026-03-02');
    assert.equal(days.at(-1), '2026-03-31');
  });

  test('CSV: one row per entry, quotes doubled, formula cells defused', () => {
    const csv = usageCsv([request({ model: '=HYPERLINK("http://x")', sessionId: '@evil' })], prices);
    const [header, row] = csv.trim().split('\r\n');
    assert.match(header!, /^"day","time","model"/);
    assert.match(row!, /"'=HYPERLINK\(""http:\/\/x""\)"/);
    assert.match(row!, /"'@evil"/);
    assert.match(row!, /"",?$|"\d/);
  });
});

describe('the daily budget', () => {
  const totals = (tokens: number, cost = 0) => ({ requests: 1, input: tokens, output: 0, reasoning: 0, tokens, cost, unpricedTokens: 0 });

  test('tokens: ok under 80 %, a warning from 80 %, over at 100 %; off when unset', () => {
    assert.equal(budgetStatus(totals(799), { tokens: 1000 }, false).level, 'ok');
    assert.equal(budgetStatus(totals(800), { tokens: 1000 }, false).level, 'warning');
    assert.equal(budgetStatus(totals(1000), { tokens: 1000 }, false).level, 'over');
    assert.equal(budgetStatus(totals(10 ** 9), {}, true).level, 'off');
    assert.equal(budgetMessage(budgetStatus(totals(800), { tokens: 1000 }, false)), "Today's usage is at 800 of 1,000 tokens (80 %) of the daily budget.");
  });

  test('money when prices are set, tokens otherwise', () => {
    const budget = { tokens: 1000, cost: 2 };
    const priced = budgetStatus(totals(5000, 1.7), budget, true);
    assert.deepEqual([priced.unit, priced.level], ['cost', 'warning']);
    assert.equal(budgetMessage(priced), "Today's usage is at 1.70 of 2.00 (85 %) of the daily budget.");
    assert.deepEqual([budgetStatus(totals(5000, 1.7), budget, false).unit, budgetStatus(totals(5000, 1.7), budget, false).level], ['tokens', 'over']);
    assert.equal(budgetStatus(totals(5000, 1.7), { cost: 2 }, false).level, 'off');
  });

  test('each rise is told once a day: the warning, then over; again the next day', () => {
    const alerts = new BudgetAlerts();
    const at = (tokens: number) => budgetStatus(totals(tokens), { tokens: 1000 }, false);
    assert.equal(alerts.next(at(100), '2026-11-23'), undefined);
    assert.equal(alerts.next(at(850), '2026-11-23'), 'warning');
    assert.equal(alerts.next(at(900), '2026-11-23'), undefined);
    assert.equal(alerts.next(at(1200), '2026-11-23'), 'over');
    assert.equal(alerts.next(at(1300), '2026-11-23'), undefined);
    assert.equal(alerts.next(at(1300), '2026-11-24'), 'over');
  });
});

describe('the usage page', () => {
  const assets = {
    cspSource: 'vscode-webview://abc',
    nonce: 'n0nce123',
    scriptUri: 'vscode-webview://abc/media/usage.js',
    styleUri: 'vscode-webview://abc/media/usage.css',
  };
  const hostile = '<img src=x onerror=alert(1)>"\'&';

  test('a strict Content-Security-Policy: only the view’s own assets and its nonce’d script', () => {
    const html = usagePage({ summary: summarize([request()], () => undefined, NOW), sessionTitles: new Map() }, assets);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(csp);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-n0nce123'(;|$)/);
    assert.match(csp, /style-src vscode-webview:\/\/abc(;|$)/);
    assert.ok(!/unsafe-inline|unsafe-eval|https?:/.test(csp));
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [`<script nonce="n0nce123" src="${assets.scriptUri}">`]);
    // Nothing fetched from outside, no inline style or handler (the CSP would block them).
    assert.ok(!/https?:\/\//.test(html.replace(/http:\/\/www\.w3\.org[^"]*/g, '')));
    assert.ok(!/\sstyle=|\son[a-z]+=/i.test(html));
    assert.match(html, /<svg [^>]*role="img"/);
  });

  test('model names and session titles (the gateway’s and the user’s text) are escaped everywhere', () => {
    const entries = [request({ model: hostile, surface: 'agent', sessionId: `id"${hostile}` })];
    const html = usagePage({ summary: summarize(entries, () => undefined, NOW), sessionTitles: new Map([[`id"${hostile}`, `title ${hostile}`]]) }, assets);
    assert.ok(!html.includes('<img'));
    assert.ok(!html.includes('onerror=alert(1)>'));
    assert.ok(html.includes(escapeHtml(hostile)));
    assert.ok(html.includes(`data-session="id&quot;${escapeHtml(hostile)}"`));
    assert.ok(html.includes(`title ${escapeHtml(hostile)}`));
  });

  test('per model and per surface charts with today’s bars; costs only when priced; an empty log says so', () => {
    const entries = [request(), request({ surface: 'agent', model: 'gw-code', sessionId: 's1' })];
    const tokensOnly = usagePage({ summary: summarize(entries, () => undefined, NOW), sessionTitles: new Map([['s1', 'Fix the tests']]) }, assets);
    assert.match(tokensOnly, /id="by-model"/);
    assert.match(tokensOnly, /id="by-surface"/);
    assert.ok(!tokensOnly.includes('id="cost"'));
    assert.match(tokensOnly, /<title>2026-11-23 · @gateway chat: 120<\/title>/);
    assert.match(tokensOnly, /<title>2026-11-23 · Agent sessions: 120<\/title>/);
    assert.match(tokensOnly, /data-session="s1">Fix the tests<\/a>/);
    const priced = usagePage({ summary: summarize(entries, () => ({ inputPerMillion: 1, outputPerMillion: 1 }), NOW), sessionTitles: new Map() }, assets);
    assert.match(priced, /id="cost"/);
    const empty = usagePage({ summary: summarize([], () => undefined, NOW), sessionTitles: new Map() }, assets);
    assert.match(empty, /No requests in the last 30 days yet/);
    assert.ok(!empty.includes('<svg'));
  });

  test('the axis reads in round numbers', () => {
    assert.deepEqual([0, 1, 7, 12, 230, 2_600, 999_999].map(niceCeiling), [0, 1, 10, 20, 250, 5_000, 1_000_000]);
  });
});

test('the status bar tooltip shows today’s usage line, escaped', () => {
  const view = formatStatus({
    model: 'gw-chat',
    hasKey: true,
    snapshot: new LimitTracker(new VirtualClock({ start: NOW })).snapshot(),
    siteUrl: undefined,
    now: NOW,
    today: 'Today: 1,234 tokens · cost 0.01 in 3 requests',
  });
  assert.ok(view.tooltip.includes('Today: 1,234 tokens · cost 0.01 in 3 requests'));
  assert.ok(view.tooltip.some((line) => line.includes('[Usage](command:gateway.showUsage)')));
});
