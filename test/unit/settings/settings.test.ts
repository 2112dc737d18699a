// The gateway.* settings: good values through; a bad one is a problem naming its setting, which reads as its default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { REASONING_EFFORTS, SERVICE_TIERS } from '../../../src/settings/common/valueSets';
import { APPROVAL_MODES } from '../../../src/settings/common/valueSets';
import { hostToolNeedsApproval } from '../../../src/tools/common/hostTools';
import {
  DEFAULT_DENIED_COMMANDS,
  effectiveValue,
  SettingError,
  USER_ONLY_SETTINGS,
  priceOf,
  projectKindEnabled,
} from '../../../src/settings/common/gatewaySettings';
import { defaultOf, SettingsService } from '../../../src/settings/common/settingsService';
import type { SettingName } from '../../../src/settings/common/settingSchemas';
import { userSettings } from '../helpers/settings';

const from = (values: Record<string, unknown>) => userSettings(values).current();

/** The one problem these values give: its setting, its message, and that the setting reads as its default. */
function assertRefused(values: Record<string, unknown>, setting: SettingName, message: RegExp): void {
  const service = userSettings(values);
  const problems = service.problems();
  assert.equal(problems.length, 1, JSON.stringify(problems.map((p) => p.message)));
  assert.ok(problems[0] instanceof SettingError);
  assert.equal(problems[0].setting, setting);
  assert.match(problems[0].message, message);
  assert.deepEqual(service.get(setting), defaultOf(setting));
}

/** The `gateway.*` settings package.json declares (what the Settings editor offers). */
function manifestSettings(): Record<string, { default?: unknown; enum?: unknown[] }> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown; enum?: unknown[] }> } };
  };
  return manifest.contributes.configuration.properties;
}

describe('the gateway.* settings', () => {
  test('defaults when nothing is set', () => {
    assert.deepEqual(from({}), {
      baseUrl: '',
      siteUrl: undefined,
      chatModel: '',
      agentModel: '',
      temperature: undefined,
      topP: undefined,
      maxTokens: undefined,
      reasoningEffort: undefined,
      serviceTier: undefined,
      limits: { requestsPerMinute: 60, tokensPerMinute: 200_000 },
      models: Object.create(null),
      budget: { tokens: undefined, cost: undefined },
      agent: {
        approval: 'ask',
        deniedCommands: DEFAULT_DENIED_COMMANDS,
        protectedFiles: [
          '.env*',
          '*.pem',
          '*.key',
          '**/.git/**',
          '**/.git',
          'id_rsa',
          'id_dsa',
          'id_ecdsa',
          'id_ed25519',
          'id_ecdsa_sk',
          'id_ed25519_sk',
          '*.p12',
          '*.pfx',
          '.npmrc',
          '.netrc',
          '.pypirc',
          '.git-credentials',
          '.aws/credentials',
          '**/.aws/credentials',
          '.ssh/**',
          '**/.ssh/**',
          '.ssh',
          '**/.ssh',
        ],
        sandboxNetwork: false,
        budgets: { maxTurns: 30, maxTokens: 1_000_000, maxWallTimeMs: 1_800_000, maxRepeatedCalls: 3 },
        maxRequestTpmSeconds: 30,
        projectInstructions: true,
        projectKinds: { agentsMd: true, skills: true, prompts: true, agents: true, hooks: true },
        allowedTools: [],
        subagents: true,
        sessionPlace: 'ask',
        worktreeLinkedFolders: ['node_modules'],
      },
      // Export to a team's collector: off, with nowhere to go.
      telemetry: { enabled: false, endpoint: '', protocol: 'http/protobuf', identity: '', currency: '' },
    });
  });

  test('telemetry: an endpoint is a full address; the protocol one of two; a refused value leaves export off', () => {
    const telemetry = from({ 'telemetry.enabled': true, 'telemetry.endpoint': 'https://otel.example:4318/', 'telemetry.protocol': 'http/json' }).telemetry;
    assert.deepEqual([telemetry.enabled, telemetry.endpoint, telemetry.protocol], [true, 'https://otel.example:4318', 'http/json']);
    assertRefused({ 'telemetry.endpoint': 'otel.example' }, 'telemetry.endpoint', /"gateway\.telemetry\.endpoint" is not a full address/);
    assertRefused({ 'telemetry.protocol': 'grpc' }, 'telemetry.protocol', /must be one of http\/protobuf, http\/json/);
    assertRefused({ 'telemetry.enabled': 'yes' }, 'telemetry.enabled', /must be true or false/);
  });

  test('one kind of project file turns off on its own, under the master switch; a workspace cannot set the kinds', () => {
    const agent = from({ 'agent.projectInstructionKinds': { hooks: false, skills: true } }).agent;
    assert.deepEqual(agent.projectKinds, { agentsMd: true, skills: true, prompts: true, agents: true, hooks: false });
    assert.equal(projectKindEnabled(agent, 'hooks'), false);
    assert.equal(projectKindEnabled(agent, 'skills'), true);
    assert.equal(projectKindEnabled({ ...agent, projectInstructions: false }, 'skills'), false);
    assertRefused({ 'agent.projectInstructionKinds': { hooks: 'no' } }, 'agent.projectInstructionKinds', /must be an object of true or false per kind/);
    assert.ok(USER_ONLY_SETTINGS.includes('agent.projectInstructionKinds'));
  });

  test('project instructions can be turned off; allowed VS Code tools are a list of names', () => {
    const agent = from({ 'agent.projectInstructions': false, 'agent.allowedTools': ['mcp_github_search'] }).agent;
    assert.equal(agent.projectInstructions, false);
    assert.deepEqual(agent.allowedTools, ['mcp_github_search']);
    assertRefused({ 'agent.allowedTools': 'mcp_github_search' }, 'agent.allowedTools', /"gateway\.agent\.allowedTools" must be a list of strings/);
    assert.deepEqual(from({ 'agent.allowedTools': 'mcp_github_search' }).agent.allowedTools, []);
  });

  test('subagents are on by default, off when the user says so, and a workspace can turn them neither on nor off', () => {
    assert.equal(from({}).agent.subagents, true);
    assert.equal(from({ 'agent.subagents': false }).agent.subagents, false);
    assert.ok(USER_ONLY_SETTINGS.includes('agent.subagents'));
    assert.equal(effectiveValue('agent.subagents', { defaultValue: false, workspaceValue: true }), false);
    assert.equal(effectiveValue('agent.subagents', { defaultValue: true, workspaceValue: false }), true);
  });

  test('the defaults package.json shows in the Settings editor are the ones the code falls back to', () => {
    const declared = Object.fromEntries(Object.entries(manifestSettings()).map(([key, value]) => [key.replace(/^gateway\./, ''), value.default]));
    assert.ok('limits.requestsPerMinute' in declared && 'agent.maxMinutes' in declared);
    assert.deepEqual(from(declared), from({}));
    assert.deepEqual(userSettings(declared).problems(), []);
  });

  test('the choices package.json offers are the values the code takes (empty: not set)', () => {
    const offered = manifestSettings();
    assert.deepEqual(offered['gateway.reasoningEffort'].enum, ['', ...REASONING_EFFORTS]);
    assert.deepEqual(offered['gateway.serviceTier'].enum, ['', ...SERVICE_TIERS]);
    assert.deepEqual(offered['gateway.agent.approval'].enum, [...APPROVAL_MODES]);
    for (const value of [...REASONING_EFFORTS]) assert.equal(from({ reasoningEffort: value }).reasoningEffort, value);
    for (const value of [...SERVICE_TIERS]) assert.equal(from({ serviceTier: value }).serviceTier, value);
    for (const value of [...APPROVAL_MODES]) assert.equal(from({ 'agent.approval': value }).agent.approval, value);
  });

  test('good values are kept; a trailing slash is dropped', () => {
    const settings = from({
      baseUrl: 'https://gw.example/v1/',
      temperature: 0.7,
      topP: 1,
      maxTokens: 512,
      reasoningEffort: 'high',
      serviceTier: 'flex',
      'limits.requestsPerMinute': 120,
      chatModel: ' gw-chat ',
    });
    assert.equal(settings.baseUrl, 'https://gw.example/v1');
    assert.equal(settings.temperature, 0.7);
    assert.equal(settings.maxTokens, 512);
    assert.equal(settings.reasoningEffort, 'high');
    assert.equal(settings.serviceTier, 'flex');
    assert.equal(settings.limits.requestsPerMinute, 120);
    assert.equal(settings.chatModel, 'gw-chat');
  });

  const bad: [string, Record<string, unknown>, SettingName, RegExp][] = [
    [
      'a base URL without a scheme',
      { baseUrl: 'gateway.example/v1' },
      'baseUrl',
      /"gateway\.baseUrl" is not a full address: "gateway\.example\/v1"\. Start it with https:\/\//,
    ],
    ['a base URL with another scheme', { baseUrl: 'ftp://gateway.example/v1' }, 'baseUrl', /must start with https:\/\//],
    [
      'a plain-http base URL on another machine',
      { baseUrl: 'http://gateway.example/v1' },
      'baseUrl',
      /"gateway\.baseUrl" must start with https:\/\/ so the API key is sent encrypted/,
    ],
    ['a plain-http base URL on a LAN address', { baseUrl: 'http://192.168.1.5:4010/v1' }, 'baseUrl', /must start with https:\/\//],
    ['a plain-http base URL whose host only starts like localhost', { baseUrl: 'http://localhost.evil.example/v1' }, 'baseUrl', /must start with https:\/\//],
    ['a base URL with credentials', { baseUrl: 'https://user:pw@gateway.example/v1' }, 'baseUrl', /must not contain credentials/],
    ['a temperature of 3', { temperature: 3 }, 'temperature', /"gateway\.temperature" must be a number from 0 to 2 \(it is 3\)/],
    ['a top_p of 1.5', { topP: 1.5 }, 'topP', /"gateway\.topP" must be a number from 0 to 1/],
    ['max tokens of 0', { maxTokens: 0 }, 'maxTokens', /"gateway\.maxTokens" must be a whole number/],
    ['an unknown reasoning effort', { reasoningEffort: 'extreme' }, 'reasoningEffort', /one of minimal, low, medium, high/],
    ['an unknown service tier', { serviceTier: 'gold' }, 'serviceTier', /one of default, priority, flex/],
    ['an unknown approval policy', { 'agent.approval': 'yolo' }, 'agent.approval', /one of ask, auto-edit, auto/],
    ['denied commands that are not a list', { 'agent.deniedCommands': 'rm -rf' }, 'agent.deniedCommands', /must be a list of strings/],
    ['a zero turn budget', { 'agent.maxTurns': 0 }, 'agent.maxTurns', /whole number of at least 1/],
    ['a fractional request limit', { 'limits.requestsPerMinute': 1.5 }, 'limits.requestsPerMinute', /whole number/],
    ['a sandbox network switch that is not true or false', { 'agent.sandboxNetwork': 'yes' }, 'agent.sandboxNetwork', /must be true or false/],
    ['a checkpoint storage bound that is not a number', { 'agent.checkpointStorageMB': 'lots' }, 'agent.checkpointStorageMB', /number of megabytes/],
  ];
  for (const [name, values, setting, message] of bad) {
    test(`${name}: a problem naming gateway.${setting}, which reads as its default`, () => {
      assertRefused(values, setting, message);
    });
  }

  test('a refused base URL is the error of the requests that need it (it has no usable default)', () => {
    for (const [, values, setting, message] of bad.filter(([, , setting]) => setting === 'baseUrl')) {
      assert.throws(
        () => userSettings(values).requireBaseUrl(),
        (error: unknown) => error instanceof SettingError && error.setting === setting && message.test(error.message),
      );
    }
  });

  test('http:// is accepted for a gateway on this machine (the emulator), and for the site link', () => {
    for (const baseUrl of ['http://127.0.0.1:4010/v1', 'http://localhost:4010/v1', 'http://[::1]:4010/v1', 'HTTP://LOCALHOST/v1']) {
      assert.equal(from({ baseUrl }).baseUrl, baseUrl, baseUrl);
    }
    // The site URL only opens pages in the browser; no key is sent to it.
    assert.equal(from({ siteUrl: 'http://gateway.example' }).siteUrl, 'http://gateway.example');
  });

  test('no base URL: a request says how to set it', () => {
    assert.throws(
      () => userSettings({}).requireBaseUrl(),
      (error: unknown) =>
        error instanceof SettingError && error.setting === 'baseUrl' && /^Set "gateway\.baseUrl" to the Gateway's address/.test(error.message),
    );
    assert.equal(userSettings({ baseUrl: 'https://gw.example/v1/' }).requireBaseUrl(), 'https://gw.example/v1');
  });
});

describe('user-only settings', () => {
  const workspaceSays = (name: string, value: unknown) =>
    effectiveValue(name, { defaultValue: 'ask', globalValue: undefined, workspaceValue: value, workspaceFolderValue: value });

  test('a workspace cannot choose where the key goes, what runs unasked or what is spent', () => {
    assert.equal(workspaceSays('agent.approval', 'auto'), 'ask');
    assert.equal(
      effectiveValue('baseUrl', { defaultValue: '', globalValue: 'https://gw.example/v1', workspaceValue: 'http://127.0.0.2:9/v1' }),
      'https://gw.example/v1',
    );
    assert.equal(effectiveValue('agent.deniedCommands', { defaultValue: undefined, workspaceFolderValue: [] }), undefined);
    for (const name of [
      'serviceTier',
      'reasoningEffort',
      'agentModel',
      'chatModel',
      'maxTokens',
      'agent.maxTurns',
      'agent.maxMinutes',
      'agent.maxTokens',
      'agent.protectedFiles',
      'siteUrl',
    ]) {
      assert.equal(effectiveValue(name, { defaultValue: 'd', workspaceValue: 'w', workspaceFolderValue: 'f' }), 'd', name);
    }
  });

  test('a workspace neither adds a tool to gateway.agent.allowedTools nor removes one', () => {
    const allowedUnder = (levels: Parameters<typeof effectiveValue>[1]) =>
      new SettingsService({ inspect: (name) => (name === 'agent.allowedTools' ? levels : undefined) }).current().agent.allowedTools;
    // A cloned repository's .vscode/settings.json adds its own tool…
    const added = allowedUnder({ defaultValue: [], globalValue: ['mcp_github_search'], workspaceValue: ['mcp_github_search', 'mcp_shell_exec'] });
    assert.deepEqual(added, ['mcp_github_search']);
    assert.equal(hostToolNeedsApproval('auto', 'mcp_shell_exec', added), true);
    // …or, in a folder setting, empties the list the user chose (or replaces it).
    assert.deepEqual(allowedUnder({ defaultValue: [], globalValue: ['mcp_github_search'], workspaceFolderValue: [] }), ['mcp_github_search']);
    assert.deepEqual(allowedUnder({ defaultValue: [], workspaceValue: ['mcp_shell_exec'], workspaceFolderValue: ['mcp_shell_exec'] }), []);
  });

  test("the user's own value applies", () => {
    assert.equal(effectiveValue('agent.approval', { defaultValue: 'ask', globalValue: 'auto-edit', workspaceValue: 'auto' }), 'auto-edit');
  });

  test('answer-shaping settings stay open to a workspace, the most specific level first', () => {
    assert.equal(effectiveValue('temperature', { defaultValue: null, globalValue: 0.2, workspaceValue: 0.5 }), 0.5);
    assert.equal(effectiveValue('topP', { defaultValue: null, workspaceValue: 0.5, workspaceFolderValue: 0.9 }), 0.9);
  });

  test('package.json gives every user-only setting the application scope, and no other', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    const scoped = Object.entries(manifest.contributes.configuration.properties)
      .filter(([, spec]) => spec.scope === 'application' || spec.scope === 'machine')
      .map(([name]) => name.replace(/^gateway\./, ''));
    assert.deepEqual(scoped.sort(), [...USER_ONLY_SETTINGS].sort());
  });
});

describe('gateway.models', () => {
  test('per model id: the window and output limit; a bad entry names the setting', () => {
    const settings = from({ models: { 'my-model': { contextWindow: 131_072, maxOutputTokens: 8_192 }, other: { contextWindow: 32_000 } } });
    assert.deepEqual({ ...settings.models }, { 'my-model': { contextWindow: 131_072, maxOutputTokens: 8_192 }, other: { contextWindow: 32_000 } });
    assert.deepEqual({ ...from({}).models }, {});
    assertRefused({ models: { m: { contextWindow: 100 } } }, 'models', /"gateway\.models\.m\.contextWindow" must be at least 1024 tokens \(it is 100\)/);
    assertRefused({ models: { m: { contextWindow: 'big' } } }, 'models', /"gateway\.models\.m\.contextWindow" must be a whole number/);
    assertRefused({ models: [] }, 'models', /"gateway\.models" must map model ids to their limits/);
    assertRefused({ models: { m: 3 } }, 'models', /"gateway\.models" entry "m" must be an object/);
  });

  test('prices per million tokens: both or neither, never negative; priceOf reads them', () => {
    const settings = from({
      models: { priced: { inputPrice: 2.5, outputPrice: 10 }, windowOnly: { contextWindow: 8_192 }, free: { inputPrice: 0, outputPrice: 0 } },
    });
    assert.deepEqual(priceOf(settings.models, 'priced'), { inputPerMillion: 2.5, outputPerMillion: 10 });
    assert.deepEqual(priceOf(settings.models, 'free'), { inputPerMillion: 0, outputPerMillion: 0 });
    assert.equal(priceOf(settings.models, 'windowOnly'), undefined);
    assert.equal(priceOf(settings.models, 'unlisted'), undefined);
    assert.equal(priceOf(settings.models, 'toString'), undefined);
    assertRefused({ models: { m: { inputPrice: 1 } } }, 'models', /both "inputPrice" and "outputPrice"/);
    assertRefused({ models: { m: { inputPrice: -1, outputPrice: 1 } } }, 'models', /"gateway\.models\.m\.inputPrice" must be a number of at least 0/);
  });

  test('the daily budget: tokens (a whole number) or money; off when unset', () => {
    assert.deepEqual(from({ 'budget.dailyTokens': 500_000, 'budget.dailyCost': 2.5 }).budget, { tokens: 500_000, cost: 2.5 });
    assertRefused({ 'budget.dailyTokens': 1.5 }, 'budget.dailyTokens', /"gateway\.budget\.dailyTokens" must be a whole number/);
    assertRefused({ 'budget.dailyCost': 'ten' }, 'budget.dailyCost', /"gateway\.budget\.dailyCost" must be a number of at least 0 \(it is "ten"\)/);
  });

  test('a model id such as __proto__ is only a key', () => {
    const settings = from({ models: JSON.parse('{"__proto__": {"contextWindow": 2048}}') });
    assert.equal(Object.getPrototypeOf(settings.models), null);
    assert.deepEqual(settings.models['__proto__'], { contextWindow: 2048 });
  });
});
