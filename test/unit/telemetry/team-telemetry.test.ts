// Issue 41: the telemetry front (off by default, a bounded queue while the exporter starts, problems told
// once), the collector's address and headers, and the settings only the user may set.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_PENDING_EVENTS, TeamTelemetry } from '../../../src/telemetry/common/teamTelemetry';
import { CollectorHeadersError, exporterConfigFrom, metricsUrl, parseCollectorHeaders } from '../../../src/telemetry/common/collectorConfig';
import type { ExporterConfig, ExporterFactory, MetricsExporter, TelemetryEvent } from '../../../src/telemetry/common/telemetryEvents';
import { effectiveValue, USER_ONLY_SETTINGS } from '../../../src/settings/common/gatewaySettings';
import { MemoryLogger, signal } from '../helpers/clients';
import { requestRecord } from '../helpers/usageRecords';
import { toolDecision } from '../../../src/agent/common/sessions/sessionRuns';

const CONFIG: ExporterConfig = {
  url: 'http://127.0.0.1:4318/v1/metrics',
  protocol: 'http/protobuf',
  headers: {},
  serviceVersion: '0.1.0',
  userId: undefined,
  hostId: undefined,
  currency: '',
  exportIntervalMs: 60_000,
  exportTimeoutMs: 10_000,
};

/** An exporter that keeps what it is told (the real one is tested against a receiver in test/integration/telemetry-otlp.test.ts). */
function keepingFactory() {
  const made: { config: ExporterConfig; events: TelemetryEvent[]; stopped: boolean }[] = [];
  let loads = 0;
  const factory: ExporterFactory = (config) => {
    const entry = { config, events: [] as TelemetryEvent[], stopped: false };
    made.push(entry);
    const exporter: MetricsExporter = {
      record: (event) => void entry.events.push(event),
      flush: async () => undefined,
      shutdown: async () => void (entry.stopped = true),
      failedExports: 0,
    };
    return exporter;
  };
  return {
    made,
    loads: () => loads,
    load: () => {
      loads++;
      return factory;
    },
  };
}

describe('TeamTelemetry', () => {
  test('off (the default): the exporter is never loaded and nothing is kept', async () => {
    const parts = keepingFactory();
    const telemetry = new TeamTelemetry({ loadExporter: parts.load, logger: new MemoryLogger(), priceOf: () => undefined });
    telemetry.requestAnswered(requestRecord({}), { durationMs: 5 });
    telemetry.rateLimited();
    telemetry.toolCall('read_file', 'approved');
    await telemetry.flush(signal());
    assert.equal(parts.loads(), 0);
    assert.equal(telemetry.enabled, false);
    await telemetry.configure(CONFIG, signal());
    assert.deepEqual(parts.made[0]!.events, [], 'what was reported while off is not sent later');
  });

  test('on: each report reaches the exporter, the cost by the usage view’s formula; off again stops it', async () => {
    const parts = keepingFactory();
    const telemetry = new TeamTelemetry({
      loadExporter: parts.load,
      logger: new MemoryLogger(),
      priceOf: (model) => (model === 'gw-chat' ? { inputPerMillion: 2, outputPerMillion: 8 } : undefined),
    });
    await telemetry.configure(CONFIG, signal());
    telemetry.requestAnswered(requestRecord({ model: 'gw-chat', input: 1_000_000, output: 500_000 }), { durationMs: 5 });
    telemetry.requestAnswered(requestRecord({ model: 'unpriced' }), { durationMs: 5 });
    telemetry.waited(0, 'pacing');
    telemetry.waited(1500, 'pacing');
    const events = parts.made[0]!.events;
    assert.deepEqual(
      events.map((e) => (e.kind === 'request' ? e.cost : e.kind)),
      [6, undefined, 'waited'],
    );
    await telemetry.configure(undefined, signal());
    assert.equal(parts.made[0]!.stopped, true);
    telemetry.session('started');
    assert.equal(events.length, 3);
  });

  test('reports while the exporter restarts wait in a bounded queue; past it they are dropped, counted and logged once', async () => {
    const parts = keepingFactory();
    const logger = new MemoryLogger();
    const telemetry = new TeamTelemetry({ loadExporter: parts.load, logger, priceOf: () => undefined });
    // configure() is on at once; the exporter comes after the previous one stopped (a turn later).
    const starting = telemetry.configure(CONFIG, signal());
    for (let i = 0; i < MAX_PENDING_EVENTS + 25; i++) telemetry.session('started');
    await starting;
    assert.equal(parts.made[0]!.events.length, MAX_PENDING_EVENTS);
    assert.equal(telemetry.dropped, 25);
    assert.equal(logger.lines.filter((line) => line.includes('dropped')).length, 1);
  });

  test('an exporter that cannot be loaded turns export off, said once in the log; reports then cost nothing', async () => {
    const logger = new MemoryLogger();
    const telemetry = new TeamTelemetry({
      loadExporter: () => {
        throw new Error('Cannot find module ./otlpMetrics');
      },
      logger,
      priceOf: () => undefined,
    });
    await telemetry.configure(CONFIG, signal());
    assert.equal(telemetry.enabled, false);
    telemetry.session('started');
    assert.match(logger.lines.join('\n'), /error telemetry: the exporter could not be loaded/);
  });
});

describe('the collector’s address, headers and settings', () => {
  test('the endpoint is a base (/v1/metrics added) unless it names the path', () => {
    assert.equal(metricsUrl('https://otel.example:4318'), 'https://otel.example:4318/v1/metrics');
    assert.equal(metricsUrl('https://otel.example/otlp/'), 'https://otel.example/otlp/v1/metrics');
    assert.equal(metricsUrl('https://otel.example/v1/metrics'), 'https://otel.example/v1/metrics');
  });

  test('headers as OTEL_EXPORTER_OTLP_HEADERS: name=value pairs, values percent-decoded; a bad pair is named, never its value', () => {
    assert.deepEqual(parseCollectorHeaders('Authorization=Bearer%20abc, X-Scope-OrgID=team'), { Authorization: 'Bearer abc', 'X-Scope-OrgID': 'team' });
    assert.deepEqual(parseCollectorHeaders(''), {});
    assert.throws(
      () => parseCollectorHeaders('secret-token'),
      (error: unknown) => error instanceof CollectorHeadersError && !error.message.includes('secret-token'),
    );
    assert.throws(() => parseCollectorHeaders('X-Evil=a%0d%0aHost:%20x'), CollectorHeadersError);
    assert.throws(() => parseCollectorHeaders('bad name=x'), CollectorHeadersError);
  });

  test('the config: undefined while off or without an endpoint; the identity and machine as given', () => {
    const settings = { enabled: true, endpoint: 'https://otel.example', protocol: 'http/json' as const, identity: 'alice', currency: 'EUR' };
    const about = { serviceVersion: '1.2.3', hostId: 'abc' };
    assert.equal(exporterConfigFrom({ ...settings, enabled: false }, {}, about), undefined);
    assert.equal(exporterConfigFrom({ ...settings, endpoint: '' }, {}, about), undefined);
    const config = exporterConfigFrom(settings, { A: 'b' }, about)!;
    assert.deepEqual(
      [config.url, config.protocol, config.userId, config.hostId, config.serviceVersion, config.currency, config.headers],
      ['https://otel.example/v1/metrics', 'http/json', 'alice', 'abc', '1.2.3', 'EUR', { A: 'b' }],
    );
    assert.equal(exporterConfigFrom({ ...settings, identity: '' }, {}, about)!.userId, undefined);
  });

  test('a workspace can neither turn export on nor point it elsewhere', () => {
    for (const name of ['telemetry.enabled', 'telemetry.endpoint', 'telemetry.protocol', 'telemetry.identity', 'telemetry.currency'])
      assert.ok(USER_ONLY_SETTINGS.includes(name), name);
    assert.equal(effectiveValue('telemetry.enabled', { defaultValue: false, workspaceValue: true }), false);
    assert.equal(effectiveValue('telemetry.endpoint', { defaultValue: '', globalValue: 'https://team', workspaceFolderValue: 'https://evil' }), 'https://team');
  });
});

describe('an agent tool call’s decision, as the collector counts it', () => {
  const finished = (approved: boolean, sandbox?: { network: boolean }) =>
    ({
      type: 'tool_finished',
      call: { callId: 'c1', name: 'run_command', arguments: '{}' },
      summary: 'ran',
      outcome: { ok: approved, output: '', ...(sandbox ? { sandbox } : {}) },
      approved,
    }) as const;

  test('refused: denied; run in the sandbox: sandboxed; run: approved', () => {
    assert.equal(toolDecision(finished(false)), 'denied');
    assert.equal(toolDecision(finished(true, { network: false })), 'sandboxed');
    assert.equal(toolDecision(finished(true)), 'approved');
  });
});
