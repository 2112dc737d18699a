// Issue 25 (no block of the extension host over 50 ms): the turn of the event loop the agent yields before
// each tool call lets timers and I/O run, the walk yields one every 100 entries, and the protected-file globs
// are compiled ahead of the first path check, a glob per turn of the loop, once per value of the setting,
// with the same answers as before.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFile, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { silentLogger } from '../../../src/base/common/ports';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { walkWorkspace } from '../../../src/tools/common/walk';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import type { SettingLevels } from '../../../src/settings/common/gatewaySettings';
import { SettingsService } from '../../../src/settings/common/settingsService';
import { yieldToHost } from '../../../src/base/common/hostTurn';
import { prepareProtections, protectingPattern, protectionMatchers, protectionsReady } from '../../../src/base/common/protectedPaths';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';
import { sourceOf } from '../helpers/settings';

const signal = new AbortController().signal;

/** Runs `body` inside an I/O callback: the poll phase of the loop, where a network read's continuation runs. */
function inIoCallback(body: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => readFile(__filename, () => void body().then(resolve, reject)));
}

/** A timer the loop's next timers phase runs: armed, then its 1 ms let pass (a busy wait: the loop must not run meanwhile). */
function armDueTimer(order: string[]): void {
  setTimeout(() => order.push('timer'), 0);
  const start = performance.now();
  while (performance.now() - start < 3);
}

describe('yieldToHost: a whole turn of the event loop', () => {
  test('from an I/O callback, a due timer runs before it resolves', async () => {
    const order: string[] = [];
    await inIoCallback(async () => {
      armDueTimer(order);
      await yieldToHost();
      order.push('after');
    });
    assert.deepEqual(order, ['timer', 'after']);
  });

  test('from an immediate, a due timer runs before it resolves', async () => {
    const order: string[] = [];
    await new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        armDueTimer(order);
        yieldToHost().then(() => {
          order.push('after');
          resolve();
        }, reject);
      }),
    );
    assert.deepEqual(order, ['timer', 'after']);
  });
});

describe('the walk', () => {
  test("a folder's entries admitted without I/O (its subfolders): a turn of the event loop every 100 of them", async () => {
    const root = mkdtempSync(join(tmpdir(), 'walk-turns-'));
    try {
      for (let i = 0; i < 300; i++) mkdirSync(join(root, `d${String(i).padStart(3, '0')}`));
      const files = new NodeWorkspaceFiles(root);
      const ctx = {
        files,
        changes: new NodeFileChanges(root),
        commands: new NodeCommandRunner(root),
        protectedFiles: defaultProtectedFiles,
        logger: silentLogger,
      };
      const order: string[] = [];
      let entries = 0;
      for await (const entry of walkWorkspace('.', ctx, signal, { respectIgnore: false })) {
        if (++entries === 1) armDueTimer(order);
        if (entry.path === 'd100') order.push('d100');
      }
      assert.equal(entries, 300);
      assert.deepEqual(order, ['timer', 'd100'], 'the timer ran within the first 100 entries');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** Paths and the default glob that protects each (undefined: none), whatever compiled the globs. */
const expected: [string, string | undefined][] = [
  ['src/index.ts', undefined],
  ['.env', '.env*'],
  ['config/.ENV.local', '.env*'],
  ['.env.d/inner.txt', '.env*'],
  ['certs/server.PEM', '*.pem'],
  ['a/b/.git/config', '**/.git/**'],
  ['.git', '**/.git/**'],
  ['keys/id_ed25519', 'id_ed25519'],
  ['src/id_utils.py', undefined],
  ['.aws/credentials', '.aws/credentials'],
  ['home/.aws/credentials', '**/.aws/credentials'],
  ['.ssh/config', '.ssh/**'],
  ['deep/.ssh', '**/.ssh/**'],
  ['environment.ts', undefined],
];

describe('the protected-file globs compiled ahead of the first check', () => {
  test('a glob per turn of the event loop: not all at once, all once it resolves', async () => {
    const list = [...defaultProtectedFiles];
    const preparing = prepareProtections(list, signal);
    assert.equal(protectionsReady(list), false, 'nothing is compiled before the loop turns');
    await yieldToHost();
    assert.equal(protectionsReady(list), false, 'one turn of the loop does not compile the whole list');
    await preparing;
    assert.equal(protectionsReady(list), true);
  });

  test('the checks use the prepared matchers, compiled once, with the answers of globs compiled at the check', async () => {
    const prepared = [...defaultProtectedFiles];
    const atCheck = [...defaultProtectedFiles];
    await prepareProtections(prepared, signal);
    const matchers = protectionMatchers(prepared);
    assert.equal(protectionsReady(atCheck), false);
    for (const [path, glob] of expected) {
      assert.equal(protectingPattern(path, prepared), glob, path);
      assert.equal(protectingPattern(path, atCheck), glob, path);
    }
    assert.equal(protectionMatchers(prepared), matchers, 'reused at every check, not compiled again');
    assert.deepEqual(
      matchers.map((matcher) => matcher.glob),
      defaultProtectedFiles,
    );
  });

  test('a check while the list is being prepared compiles the rest at once, and the preparation adds nothing after it', async () => {
    const list = [...defaultProtectedFiles];
    const preparing = prepareProtections(list, signal);
    await yieldToHost();
    assert.equal(protectingPattern('deep/.ssh/id_rsa', list), '**/.ssh/**');
    assert.equal(protectionsReady(list), true);
    const matchers = protectionMatchers(list);
    await preparing;
    assert.equal(protectionMatchers(list), matchers);
    assert.equal(matchers.length, list.length, 'each glob compiled once');
  });

  test('a stopped preparation compiles nothing more, and the checks still protect', async () => {
    const list = [...defaultProtectedFiles];
    const stop = new AbortController();
    stop.abort();
    await prepareProtections(list, stop.signal);
    assert.equal(protectionsReady(list), false);
    assert.equal(protectingPattern('.npmrc', list), '.npmrc');
  });

  test("the setting's list: reused while it is unchanged (another setting changing), compiled anew when it changes", async () => {
    const levels: Record<string, SettingLevels> = { 'agent.protectedFiles': { globalValue: ['*.secret'] } };
    const settings = new SettingsService(sourceOf(levels));
    const first = settings.current().agent.protectedFiles;
    await prepareProtections(first, signal);
    const matchers = protectionMatchers(first);

    levels.temperature = { globalValue: 0.5 };
    settings.reload();
    assert.equal(settings.current().temperature, 0.5);
    assert.equal(settings.current().agent.protectedFiles, first, 'the same list');
    assert.equal(protectionMatchers(settings.current().agent.protectedFiles), matchers, 'its globs not compiled again');

    levels['agent.protectedFiles'] = { globalValue: ['*.token'] };
    settings.reload();
    const second = settings.current().agent.protectedFiles;
    assert.equal(protectionsReady(second), false, 'the new value is compiled anew');
    assert.equal(protectingPattern('a/b.token', second), '*.token');
    assert.equal(protectingPattern('a/b.secret', second), undefined, 'the old glob no longer applies');
  });
});

describe("an agent run prepares its tools' protected-file list", () => {
  const fixture = useEmulatorAndWorkspace({ 'a.txt': 'a\n' });

  test('while it asks the model, before any path is checked', async () => {
    const { emulator, workspace } = fixture;
    emulator.script('demo-key', [{ text: 'Nothing to read.' }]);
    const list = [...defaultProtectedFiles];
    // The request waits (a bounded number of loop turns) for the list: only the run's own preparation can compile it,
    // since this session checks no path (no tool call, no project instructions).
    const spendGate = async () => {
      for (let turn = 0; turn < 500 && !protectionsReady(list); turn++) await yieldToHost();
      return undefined;
    };
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, protectedFiles: list, spendGate });
    const state = startSession('Say something.');
    await runToEnd(engine, state);
    assert.equal(state.status, 'done', state.statusReason);
    assert.equal(protectionsReady(list), true);
  });
});
