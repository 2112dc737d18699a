// The settings service: one bad value is its own setting's problem (its readers get the default, the others
// read as usual), user-only settings ignore a workspace, a change is read once, and the schemas match package.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SettingError, type SettingLevels } from '../../../src/settings/common/gatewaySettings';
import { announceProblems, defaultOf, SettingsService } from '../../../src/settings/common/settingsService';
import { SETTING_NAMES, SETTING_SCHEMAS, type SettingName } from '../../../src/settings/common/settingSchemas';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { sourceOf, userSettings } from '../helpers/settings';

/** package.json's `gateway.*` settings, by their name under `gateway.`. */
function declaredSettings(): Record<string, { default?: unknown; scope?: string }> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
  };
  const entries = Object.entries(manifest.contributes.configuration.properties).filter(([key]) => key.startsWith('gateway.'));
  return Object.fromEntries(entries.map(([key, spec]) => [key.slice('gateway.'.length), spec]));
}

describe('a bad value stays with its own setting', () => {
  test("a temperature of 3: chat still gets the user's protected files; the temperature reads as unset and the problem names it", () => {
    const service = userSettings({ temperature: 3, 'agent.protectedFiles': ['secrets/**'], topP: 0.5, chatModel: 'gw-chat' });
    const settings = service.current();
    assert.deepEqual(settings.agent.protectedFiles, ['secrets/**']);
    assert.equal(settings.temperature, undefined);
    assert.equal(settings.topP, 0.5);
    assert.equal(settings.chatModel, 'gw-chat');
    const [problem, ...others] = service.problems();
    assert.deepEqual(others, []);
    assert.ok(problem instanceof SettingError);
    assert.equal(problem.setting, 'temperature');
    assert.equal(problem.message, '"gateway.temperature" must be a number from 0 to 2 (it is 3).');
  });

  test('several bad values: one problem each, in package.json order; every other setting as set', () => {
    const service = userSettings({ 'agent.approval': 'yolo', maxTokens: 0, 'agent.maxTurns': 12, baseUrl: 'https://gw.example/v1' });
    assert.deepEqual(
      service.problems().map((problem) => problem.setting),
      ['maxTokens', 'agent.approval'],
    );
    assert.equal(service.get('agent.approval'), 'ask');
    assert.equal(service.get('maxTokens'), undefined);
    assert.equal(service.current().agent.budgets.maxTurns, 12);
    assert.equal(service.requireBaseUrl(), 'https://gw.example/v1');
  });

  test('a bad base URL: the requests that need it get its error; settings that do not, read as usual', () => {
    const service = userSettings({ baseUrl: 'http://gateway.example/v1', 'agent.approval': 'auto-edit' });
    assert.throws(
      () => service.requireBaseUrl(),
      (error: unknown) =>
        error instanceof SettingError &&
        error.setting === 'baseUrl' &&
        error.message.startsWith('"gateway.baseUrl" must start with https:// so the API key is sent encrypted'),
    );
    assert.equal(service.current().agent.approval, 'auto-edit');
    assert.deepEqual(service.current().agent.protectedFiles, defaultProtectedFiles);
  });
});

describe('user-only settings', () => {
  test("a workspace's value of a user-only setting is ignored; a workspace's temperature applies", () => {
    const service = new SettingsService(
      sourceOf({
        baseUrl: { defaultValue: '', globalValue: 'https://gw.example/v1', workspaceValue: 'http://127.0.0.2:9/v1' },
        'agent.approval': { defaultValue: 'ask', workspaceValue: 'auto', workspaceFolderValue: 'auto' },
        'agent.protectedFiles': { defaultValue: defaultProtectedFiles, workspaceValue: [] },
        'agent.allowedTools': { defaultValue: [], globalValue: ['mcp_github_search'], workspaceValue: ['mcp_shell_exec'] },
        temperature: { defaultValue: null, globalValue: 0.2, workspaceValue: 0.7 },
      }),
    );
    assert.equal(service.requireBaseUrl(), 'https://gw.example/v1');
    assert.equal(service.get('agent.approval'), 'ask');
    assert.deepEqual(service.get('agent.protectedFiles'), defaultProtectedFiles);
    assert.deepEqual(service.get('agent.allowedTools'), ['mcp_github_search']);
    assert.equal(service.get('temperature'), 0.7);
  });

  test('a bad workspace value of a user-only setting is not even a problem: it is not read', () => {
    const service = new SettingsService(sourceOf({ 'agent.maxTurns': { defaultValue: 30, workspaceValue: -1 } }));
    assert.deepEqual(service.problems(), []);
    assert.equal(service.get('agent.maxTurns'), 30);
  });
});

describe('read once, and again on change', () => {
  const levels: Record<string, SettingLevels> = {};
  const source = sourceOf(levels);
  const service = new SettingsService(source);
  const changes: (readonly SettingName[])[] = [];
  const announced: string[][] = [];
  service.onDidChange((changed) => changes.push(changed));
  service.onDidFindProblems((problems) => announced.push(problems.map((problem) => problem.setting)));

  test('readers between changes do not read the source again, and get the same object', () => {
    const first = service.current();
    const reads = source.reads;
    for (let i = 0; i < 100; i++) assert.equal(service.current(), first);
    assert.equal(service.get('agent.maxTurns'), 30);
    assert.equal(source.reads, reads);
  });

  test('a change is read once: each setting inspected once, the changed one reported, its bad value announced once', () => {
    levels.temperature = { globalValue: 3 };
    const reads = source.reads;
    const before = service.current();
    service.reload();
    assert.equal(source.reads - reads, SETTING_NAMES.length);
    assert.deepEqual(changes, [['temperature']]);
    assert.deepEqual(announced, [['temperature']]);
    assert.notEqual(service.current(), before);
    assert.equal(service.current().temperature, undefined);
    // Another setting changes while the temperature is still bad: the temperature is not announced again.
    levels['agent.maxTurns'] = { globalValue: 5 };
    service.reload();
    assert.deepEqual(changes, [['temperature'], ['agent.maxTurns']]);
    assert.deepEqual(announced, [['temperature']]);
    assert.equal(service.current().agent.budgets.maxTurns, 5);
  });

  test('a reload without a change tells no one; a fixed value clears its problem', () => {
    service.reload();
    assert.equal(changes.length, 2);
    levels.temperature = { globalValue: 1 };
    service.reload();
    assert.deepEqual(changes.at(-1), ['temperature']);
    assert.deepEqual(service.problems(), []);
    assert.equal(service.current().temperature, 1);
    assert.equal(announced.length, 1);
  });

  test('a listener that was disposed is not called', () => {
    const seen: unknown[] = [];
    service.onDidChange((changed) => seen.push(changed)).dispose();
    levels.topP = { globalValue: 0.5 };
    service.reload();
    assert.deepEqual(seen, []);
  });
});

describe('refused values announced once, the first ones after activation', () => {
  /** A service over `levels`, and what its announcer has announced (the settings named, per announcement). */
  function announcing(levels: Record<string, SettingLevels>) {
    const service = new SettingsService(sourceOf(levels));
    const announced: string[][] = [];
    const announcer = announceProblems(service, (problems) => announced.push(problems.map((problem) => problem.setting)));
    return { service, announced, announcer };
  }

  test('a value refused before the window opened: nothing until start, then announced once', () => {
    const { announced, announcer } = announcing({ temperature: { globalValue: 3 }, 'agent.maxTurns': { globalValue: 0 } });
    assert.deepEqual(announced, []);
    announcer.start();
    assert.deepEqual(announced, [['temperature', 'agent.maxTurns']]);
    announcer.start();
    assert.deepEqual(announced, [['temperature', 'agent.maxTurns']]);
  });

  test('a value refused by a change before start is announced once, at start; one fixed before start never', () => {
    const levels: Record<string, SettingLevels> = { topP: { globalValue: 5 } };
    const { service, announced, announcer } = announcing(levels);
    levels.temperature = { globalValue: 3 };
    levels.topP = { globalValue: 0.5 };
    service.reload();
    assert.deepEqual(announced, []);
    announcer.start();
    assert.deepEqual(announced, [['temperature']]);
  });

  test('after start, each change that brings a refused value is announced at once; after dispose, none', () => {
    const levels: Record<string, SettingLevels> = {};
    const { service, announced, announcer } = announcing(levels);
    announcer.start();
    assert.deepEqual(announced, []);
    levels.maxTokens = { globalValue: -1 };
    service.reload();
    assert.deepEqual(announced, [['maxTokens']]);
    announcer.dispose();
    levels.temperature = { globalValue: 3 };
    service.reload();
    assert.deepEqual(announced, [['maxTokens']]);
  });

  test('nothing is read before the first reader; a change before then is told as the source event names it', () => {
    const levels: Record<string, SettingLevels> = { 'agent.maxTurns': { globalValue: 0 } };
    const source = sourceOf(levels);
    const service = new SettingsService(source);
    const changes: (readonly SettingName[])[] = [];
    service.onDidChange((changed) => changes.push(changed));
    assert.equal(source.reads, 0);
    levels.temperature = { globalValue: 0.3 };
    service.reload((name) => name === 'temperature');
    assert.deepEqual(changes, [['temperature']]);
    assert.equal(service.get('temperature'), 0.3);
    assert.deepEqual(
      service.problems().map((problem) => problem.setting),
      ['agent.maxTurns'],
    );
    // Read once, then compared: a reload without a change tells no one.
    service.reload(() => true);
    assert.deepEqual(changes, [['temperature']]);
  });

  test('the limits read as current() has them, a refused one as its default, and follow a change', () => {
    const service = userSettings({ 'limits.requestsPerMinute': 7, 'limits.tokensPerMinute': 0 });
    const limits = service.limits();
    assert.deepEqual(limits, { requestsPerMinute: 7, tokensPerMinute: defaultOf('limits.tokensPerMinute') });
    assert.deepEqual(service.current().limits, limits);
    assert.deepEqual(
      service.problems().map((problem) => problem.setting),
      ['limits.tokensPerMinute'],
    );
  });

  test("the limit tracker's limits are read when it reads them: a change before then is what it gets", () => {
    const levels: Record<string, SettingLevels> = {};
    const service = new SettingsService(sourceOf(levels));
    const limits = service.limits();
    levels['limits.requestsPerMinute'] = { globalValue: 12 };
    service.reload();
    assert.equal(limits.requestsPerMinute, 12);
    levels['limits.requestsPerMinute'] = { globalValue: 15 };
    service.reload();
    assert.equal(limits.requestsPerMinute, 15);
    assert.equal(limits.tokensPerMinute, defaultOf('limits.tokensPerMinute'));
  });
});

describe('the schemas and package.json', () => {
  test('every gateway.* setting in package.json has a schema, and every schema a setting there', () => {
    assert.deepEqual(Object.keys(declaredSettings()).sort(), [...SETTING_NAMES].sort());
  });

  test("each schema's default is package.json's default, and passes the schema", () => {
    const declared = declaredSettings();
    for (const name of SETTING_NAMES) {
      assert.deepEqual(SETTING_SCHEMAS[name].default, declared[name].default, name);
      assert.doesNotThrow(() => defaultOf(name), name);
    }
  });

  test('the user-only flag is the application scope package.json gives', () => {
    const declared = declaredSettings();
    for (const name of SETTING_NAMES) assert.equal(SETTING_SCHEMAS[name].userOnly, declared[name].scope === 'application', name);
  });
});
