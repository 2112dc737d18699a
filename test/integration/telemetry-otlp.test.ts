// Issue 41: usage, cost and latency exported over OpenTelemetry to a team's collector. The extension's own
// exporter (the lazy part, through its loader) against a real local OTLP receiver that decodes with the official
// OTLP protobuf schema; a scripted session against the emulator; the sums compared with the usage log's file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../emulator/server';
import { collect, makeClient, MemoryLogger, signal } from '../unit/helpers/clients';
import { FileUsageStorage } from '../../src/usage/node/fileUsageStorage';
import { UsageLog } from '../../src/usage/common/usageLog';
import { parseEntries, type UsageRecord } from '../../src/usage/common/usageRecord';
import { addTo, emptyTotals } from '../../src/usage/common/usageSummary';
import { priceOf } from '../../src/settings/common/gatewaySettings';
import { TeamTelemetry } from '../../src/telemetry/common/teamTelemetry';
import type { ExporterConfig } from '../../src/telemetry/common/telemetryEvents';
import { metricsUrl } from '../../src/telemetry/common/collectorConfig';
import { loadOtlpExporter } from '../../src/telemetry/node/otlpMetricsLoader';
import { pointsOf, resourceOf, startOtlpReceiver, total, type OtlpReceiver, type Point } from '../unit/helpers/otlpReceiver';
import { systemClock } from '../../src/base/common/ports';
import type { GatewayClient } from '../../src/gateway/common';

const MODELS = { 'gw-chat': { inputPrice: 2, outputPrice: 8 }, 'gw-code': { inputPrice: 3, outputPrice: 15 } };
const PROMPT = 'explain the secret plan in /home/alice/project/src/secret.ts';

let emulator: Emulator;
let receiver: OtlpReceiver;
let folder: string;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(async () => {
  emulator.reset();
  receiver = await startOtlpReceiver();
  folder = mkdtempSync(join(tmpdir(), 'telemetry-test-'));
});
afterEach(async () => {
  await receiver.close();
  rmSync(folder, { recursive: true, force: true });
});

function config(overrides: Partial<ExporterConfig> = {}): ExporterConfig {
  return {
    url: metricsUrl(receiver.endpoint),
    protocol: 'http/protobuf',
    headers: { Authorization: 'Bearer collector-token' },
    serviceVersion: '0.1.0',
    userId: 'alice@team',
    hostId: 'machine-hash-1',
    currency: 'USD',
    // Sent only when the test flushes: the interval never comes during a test.
    exportIntervalMs: 600_000,
    exportTimeoutMs: 2_000,
    ...overrides,
  };
}

/** The composition's wiring (composeGateway.ts): the usage log and the telemetry are told of the same record. */
function wired(logger = new MemoryLogger()) {
  const usageLog = new UsageLog(new FileUsageStorage(join(folder, 'usage.jsonl')), systemClock, logger);
  const telemetry = new TeamTelemetry({ loadExporter: loadOtlpExporter, logger, priceOf: (model) => priceOf(MODELS, model) });
  const writes: Promise<void>[] = [];
  const client = makeClient(emulator.baseUrl, 'demo-key', {
    onUsage: (record, timing) => {
      writes.push(usageLog.record(record, signal()));
      telemetry.requestAnswered(record, timing);
    },
    window: telemetry,
  });
  return { usageLog, telemetry, client, logger, settled: () => Promise.all(writes) };
}

/** Four surfaces, both endpoints, streamed and not, one 429 met and retried. */
async function scriptedSession(client: GatewayClient): Promise<void> {
  await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: PROMPT }] }, { signal: signal(), origin: { surface: 'chat' } }));
  emulator.fault('demo-key', { kind: '429', retryAfter: 2 });
  await client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: PROMPT }] }, { signal: signal(), origin: { surface: 'inline' } });
  await client.respond({ model: 'gw-code', input: PROMPT }, { signal: signal(), origin: { surface: 'agent', sessionId: 'sess-1' } });
  await collect(client.respondStream({ model: 'gw-code', input: PROMPT }, { signal: signal(), origin: { surface: 'agent', sessionId: 'sess-1' } }));
  await collect(client.respondStream({ model: 'gw-code', input: PROMPT }, { signal: signal() }));
}

function logRecords(): UsageRecord[] {
  return parseEntries(readFileSync(join(folder, 'usage.jsonl'), 'utf8')).entries.filter((e): e is UsageRecord => e.kind === 'request');
}

describe('export to a local OTLP receiver (official protobuf schema)', () => {
  test('names, attributes and resource; token, request and cost sums equal the usage log’s', async () => {
    const { telemetry, client, logger, settled } = wired();
    await telemetry.configure(config(), signal());
    await scriptedSession(client);
    telemetry.toolCall('read_file', 'approved');
    telemetry.toolCall('run_command', 'sandboxed');
    telemetry.toolCall('run_command', 'denied');
    telemetry.session('started');
    telemetry.session('finished');
    await settled();
    await telemetry.flush(signal());

    assert.ok(receiver.exports.length >= 1, 'the receiver got no export');
    const last = receiver.exports.at(-1)!;
    assert.equal(last.contentType, 'application/x-protobuf');
    assert.equal(last.headers.authorization, 'Bearer collector-token');
    // Who and what, without content: the user-set identity, an anonymous machine id, the version.
    assert.deepEqual(resourceOf(last.body), {
      'service.name': 'gateway-vscode',
      'service.version': '0.1.0',
      'user.id': 'alice@team',
      'host.id': 'machine-hash-1',
    });

    const points = pointsOf(last.body);
    const names = new Set(points.map((p) => p.metric));
    for (const name of [
      'gen_ai.client.token.usage',
      'gen_ai.client.operation.duration',
      'gen_ai.client.operation.time_to_first_chunk',
      'gateway.client.cost',
      'gateway.client.requests',
      'gateway.client.rate_limited',
      'gateway.client.rate_limit.wait',
      'gateway.agent.tool_calls',
      'gateway.agent.sessions',
    ])
      assert.ok(names.has(name), `${name} was not exported (got ${[...names].join(', ')})`);

    const tokenPoints = points.filter((p) => p.metric === 'gen_ai.client.token.usage');
    for (const point of tokenPoints) {
      assert.equal(point.unit, '{token}');
      assert.equal(point.attributes['gen_ai.operation.name'], 'chat');
      assert.equal(point.attributes['gen_ai.provider.name'], 'gateway');
      assert.ok(['gw-chat', 'gw-code'].includes(String(point.attributes['gen_ai.request.model'])));
      assert.ok(['gw-chat', 'gw-code'].includes(String(point.attributes['gen_ai.response.model'])), JSON.stringify(point.attributes));
      assert.ok(['input', 'output'].includes(String(point.attributes['gen_ai.token.type'])));
      assert.ok(['chat', 'inline', 'agent', 'lm'].includes(String(point.attributes['gateway.surface'])));
    }
    assert.equal(points.find((p) => p.metric === 'gateway.client.cost')?.unit, 'USD');

    // The sums: the usage log's file, read back, against what the receiver decoded.
    const records = logRecords();
    assert.equal(records.length, 5);
    const sum = (pick: (r: UsageRecord) => number, where: (r: UsageRecord) => boolean = () => true) => records.filter(where).reduce((s, r) => s + pick(r), 0);
    assert.equal(
      total(points, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'input' }),
      sum((r) => r.input),
    );
    assert.equal(
      total(points, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'output' }),
      sum((r) => r.output),
    );
    for (const surface of ['chat', 'inline', 'agent', 'lm']) {
      assert.equal(
        total(points, 'gateway.client.requests', { 'gateway.surface': surface }),
        sum(
          () => 1,
          (r) => r.surface === surface,
        ),
        surface,
      );
      assert.equal(
        total(points, 'gen_ai.client.token.usage', { 'gateway.surface': surface, 'gen_ai.token.type': 'input' }),
        sum(
          (r) => r.input,
          (r) => r.surface === surface,
        ),
      );
    }
    const logCost = emptyTotals();
    for (const record of records) addTo(logCost, record, 1, (model) => priceOf(MODELS, model));
    assert.ok(logCost.cost > 0);
    assert.ok(Math.abs(total(points, 'gateway.client.cost') - logCost.cost) < 1e-9, `${total(points, 'gateway.client.cost')} vs ${logCost.cost}`);
    // One histogram point per request and token type: counts are requests.
    assert.equal(
      tokenPoints.filter((p) => p.attributes['gen_ai.token.type'] === 'input').reduce((s, p) => s + p.count, 0),
      5,
    );
    assert.equal(count(points, 'gen_ai.client.operation.duration'), 5);
    assert.equal(count(points, 'gen_ai.client.operation.time_to_first_chunk'), 3, 'the three streamed requests');

    // The 429 and the Retry-After it asked for (2 s, on the virtual clock).
    assert.equal(total(points, 'gateway.client.rate_limited'), 1);
    assert.equal(total(points, 'gateway.client.rate_limit.wait', { 'gateway.wait.reason': 'retry_after' }), 2);
    assert.equal(total(points, 'gateway.agent.tool_calls', { 'gen_ai.tool.name': 'run_command', 'gateway.tool.decision': 'sandboxed' }), 1);
    assert.equal(total(points, 'gateway.agent.tool_calls', { 'gateway.tool.decision': 'denied' }), 1);
    assert.equal(total(points, 'gateway.agent.sessions', { 'gateway.session.phase': 'started' }), 1);
    assert.equal(total(points, 'gateway.agent.sessions', { 'gateway.session.phase': 'finished' }), 1);

    // No content: no prompt, path or key in anything the collector got, and the collector's token never in the log.
    const everything = JSON.stringify(receiver.exports.map((e) => e.body));
    for (const forbidden of ['secret', '/home/alice', 'demo-key', 'collector-token']) assert.ok(!everything.includes(forbidden), forbidden);
    assert.ok(!logger.lines.join('\n').includes('collector-token'));
    await telemetry.dispose(signal());
  });

  test('http/json: the same metrics, as OTLP JSON the schema reads', async () => {
    const { telemetry, client, settled } = wired();
    await telemetry.configure(config({ protocol: 'http/json' }), signal());
    await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: PROMPT }] }, { signal: signal(), origin: { surface: 'chat' } }));
    await settled();
    await telemetry.flush(signal());
    const last = receiver.exports.at(-1)!;
    assert.match(last.contentType, /^application\/json/);
    const points = pointsOf(last.body);
    const [record] = logRecords();
    assert.equal(total(points, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'input' }), record!.input);
    assert.equal(total(points, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'output' }), record!.output);
    await telemetry.dispose(signal());
  });

  test('closing (dispose, what deactivate awaits) sends what was recorded since the last export', async () => {
    const { telemetry } = wired();
    await telemetry.configure(config(), signal());
    const before = receiver.exports.length;
    telemetry.session('started');
    telemetry.session('paused');
    await telemetry.dispose(signal());
    assert.ok(receiver.exports.length > before, 'nothing was sent at close');
    const points = pointsOf(receiver.exports.at(-1)!.body);
    assert.equal(total(points, 'gateway.agent.sessions', { 'gateway.session.phase': 'paused' }), 1);
  });

  test('off (the default): nothing is loaded, kept or sent', async () => {
    const { telemetry, client, settled } = wired();
    await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: PROMPT }] }, { signal: signal(), origin: { surface: 'chat' } }));
    await settled();
    await telemetry.flush(signal());
    assert.equal(telemetry.enabled, false);
    assert.equal(receiver.received, 0);
    assert.equal(logRecords().length, 1);
  });
});

describe('a collector that is down, slow or refusing costs the requests nothing', () => {
  test('unreachable: every request answers and is logged; the failure is told once, with what to do', async () => {
    const problems: string[] = [];
    const logger = new MemoryLogger();
    const usageLog = new UsageLog(new FileUsageStorage(join(folder, 'usage.jsonl')), systemClock, logger);
    const telemetry = new TeamTelemetry({ loadExporter: loadOtlpExporter, logger, priceOf: () => undefined, onProblem: (m) => problems.push(m) });
    await receiver.close();
    await telemetry.configure(config({ exportTimeoutMs: 300 }), signal());
    const writes: Promise<void>[] = [];
    const client = makeClient(emulator.baseUrl, 'demo-key', {
      onUsage: (record, timing) => {
        writes.push(usageLog.record(record, signal()));
        telemetry.requestAnswered(record, timing);
      },
    });
    for (let i = 0; i < 3; i++) {
      await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }, { signal: signal(), origin: { surface: 'chat' } }));
      await telemetry.flush(signal()).catch(() => undefined);
    }
    await Promise.all(writes);
    assert.equal(logRecords().length, 3);
    assert.ok(telemetry.failedExports >= 2, `failed exports: ${telemetry.failedExports}`);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /could not be reached.*gateway\.telemetry\.endpoint.*Requests are not affected/);
    assert.equal(logger.lines.filter((line) => line.startsWith('warn telemetry:')).length, 1);
    await telemetry.dispose(AbortSignal.timeout(2_000)).catch(() => undefined);
    receiver = await startOtlpReceiver();
  });

  test('hanging: a request is not held by an export in flight, and the export gives up at its timeout', async () => {
    const { telemetry, client, settled } = wired();
    receiver.mode = { kind: 'hang' };
    await telemetry.configure(config({ exportTimeoutMs: 500 }), signal());
    await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }, { signal: signal(), origin: { surface: 'chat' } }));
    const flushing = telemetry.flush(signal()).catch(() => undefined);
    // The export hangs in the receiver; requests meanwhile go and come back as before.
    const started = performance.now();
    await collect(client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'again' }] }, { signal: signal(), origin: { surface: 'chat' } }));
    assert.ok(performance.now() - started < 400, `a request took ${performance.now() - started} ms while the export hung`);
    await flushing;
    await settled();
    assert.equal(logRecords().length, 2);
    await telemetry.dispose(AbortSignal.timeout(2_000)).catch(() => undefined);
  });

  test('refusing (401): told once, naming the headers command', async () => {
    const problems: string[] = [];
    const logger = new MemoryLogger();
    const telemetry = new TeamTelemetry({ loadExporter: loadOtlpExporter, logger, priceOf: () => undefined, onProblem: (m) => problems.push(m) });
    receiver.mode = { kind: 'status', status: 401 };
    await telemetry.configure(config(), signal());
    telemetry.session('started');
    await telemetry.flush(signal()).catch(() => undefined);
    telemetry.session('finished');
    await telemetry.flush(signal()).catch(() => undefined);
    assert.ok(receiver.received >= 2);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /HTTP 401.*Gateway: Set Collector Headers/);
    await telemetry.dispose(AbortSignal.timeout(2_000)).catch(() => undefined);
  });
});

function count(points: Point[], metric: string): number {
  return points.filter((p) => p.metric === metric).reduce((s, p) => s + p.count, 0);
}
