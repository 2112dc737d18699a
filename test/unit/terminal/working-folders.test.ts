// An entry's working folder (src/terminal/node/programConfigs.ts, runnerConfigs.ts) and an interpreter given a folder
// (hookPrograms.ts): where the review reads a config's line from, and what `node .` runs. The attacks these close, run
// in the real sandbox, are test/security/attack19a-copilot-hook-cwd.test.ts and attack19a-interpreter-folder-programs.test.ts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigTooLarge } from '../../../src/terminal/node/gitStructure';
import { followPrograms, mentionedBy, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { programConfigTexts } from '../../../src/terminal/node/programConfigs';
import { pathsRunnerConfigsPointAt } from '../../../src/terminal/node/runnerConfigs';

let base: string;
let root: string;
let upper: string;

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'working-folders-')));
  root = join(base, 'workspace');
  upper = join(base, 'upper');
  await mkdir(root);
  await mkdir(upper);
  for (const [path, text] of Object.entries({
    'tools/Makefile': 'lint:\n\t@./run-lint\n',
    'tools/run-lint': 'echo ok\n',
    'app/package.json': JSON.stringify({ main: 'lib/start.js' }),
    'app/lib/start.js': '',
    'app/index.js': '',
  })) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
});
after(() => rm(base, { recursive: true, force: true }));

async function reachedFrom(mentioned: ReturnType<typeof noneMentioned>): Promise<Set<string>> {
  const paths = new Set<string>();
  await followPrograms({ root, upper, mentioned, add: (path) => paths.add(relative(root, path)), readable: () => true });
  return paths;
}

describe("an entry's working folder", () => {
  test('programConfigTexts: cwd, options.cwd, an npm task path, ${workspaceFolder} expanded, another variable unknown', () => {
    const tasks = JSON.stringify({
      tasks: [
        { type: 'shell', command: 'make lint', options: { cwd: '${workspaceFolder}/tools' } },
        { type: 'npm', script: 'lint', path: 'web/' },
        { type: 'shell', command: 'sh x', options: { cwd: '${fileDirname}' } },
        { type: 'shell', command: 'sh y' },
      ],
    });
    assert.deepEqual(programConfigTexts(tasks).placed, [
      { folder: 'tools', commands: 'make lint' },
      { folder: 'web', commands: 'npm run lint;' },
      { folder: undefined, commands: 'sh x' },
    ]);
    const hooks = JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: 'make lint', cwd: '../out' }] } });
    assert.deepEqual(programConfigTexts(hooks).placed, [{ folder: undefined, commands: 'make lint' }]);
  });

  test("tasks.json's top-level options.cwd and a task's OS sections (attack20a-task-options)", () => {
    const tasks = JSON.stringify({
      options: { cwd: '${workspaceFolder}/tools' },
      tasks: [
        { type: 'shell', command: 'eslint .' },
        { type: 'shell', command: 'make a', options: { cwd: 'own' } },
        { type: 'shell', command: 'make b', linux: { options: { cwd: 'lin' } }, windows: { options: { cwd: 'win' } } },
        { type: 'shell', options: { cwd: 'task' }, linux: { command: 'make c' } },
      ],
    });
    assert.deepEqual(programConfigTexts(tasks).placed, [
      { folder: 'tools', commands: 'eslint .' },
      { folder: 'own', commands: 'make a' },
      { folder: 'tools', commands: 'make b' },
      { folder: 'lin', commands: 'make b' },
      { folder: 'win', commands: 'make b' },
      { folder: 'task', commands: 'make c' },
    ]);
  });

  test("a TOML config's cwd: its text, and its sections' strings as a line, read from there (attack20a-toml-mcp-cwd)", () => {
    const toml = '[mcp_servers.docs]\ncommand = "npx"\nargs = ["docs-mcp"]\ncwd = "tools"\n';
    const placed = programConfigTexts(toml).placed;
    assert.deepEqual(
      placed.map((entry) => entry.folder),
      ['tools'],
    );
    assert.match(placed[0].commands, /npx docs-mcp/);
    assert.deepEqual(
      programConfigTexts('[x]\ncwd = "${env:X}"\n').placed.map((entry) => entry.folder),
      [undefined],
    );
  });

  test("a Copilot hook's cwd and lefthook's root: the Makefile make reads there is followed", async () => {
    for (const [config, text] of [
      ['.github/hooks/lint.json', JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: 'make lint', cwd: 'tools' }] } })],
      ['lefthook.yml', 'pre-commit:\n  commands:\n    lint:\n      root: "tools"\n      run: make lint\n'],
      // attack20a-lefthook-root: one-line JSON, and a JSON escape.
      ['lefthook.json', '{"pre-commit":{"commands":{"lint":{"root":"tools/","run":"make lint"}}}}'],
      ['lefthook.json', '{\n  "pre-commit": { "commands": { "lint": { "root": "tool\\u0073/", "run": "make lint" } } }\n}\n'],
    ]) {
      await mkdir(dirname(join(root, config)), { recursive: true });
      await writeFile(join(root, config), text);
      const mentioned = noneMentioned();
      mentioned.tops.add(root);
      await pathsRunnerConfigsPointAt({ root, upper, configs: [config], mentioned });
      // tools/Makefile is read (its recipe's `@./run-lint` then held, by its name wherever it is).
      assert.ok((await reachedFrom(mentioned)).has('tools/Makefile'), config);
      assert.ok(mentioned.names.has('run-lint'), config);
      await rm(join(root, config));
    }
  });

  test('a working folder given by another variable: bare words held by name; a tool run there waits', async () => {
    const config = '.vscode/tasks.json';
    await mkdir(join(root, '.vscode'), { recursive: true });
    await writeFile(join(root, config), JSON.stringify({ tasks: [{ type: 'shell', command: 'sh run-it', options: { cwd: '${fileDirname}' } }] }));
    const mentioned = noneMentioned();
    await pathsRunnerConfigsPointAt({ root, upper, configs: [config], mentioned });
    assert.ok(mentioned.names.has('run-it'));
    await writeFile(join(root, config), JSON.stringify({ tasks: [{ type: 'shell', command: 'make lint', options: { cwd: '${fileDirname}' } }] }));
    await assert.rejects(pathsRunnerConfigsPointAt({ root, upper, configs: [config], mentioned: noneMentioned() }), ConfigTooLarge);
    await rm(join(root, config));
  });
});

describe('an interpreter given a folder', () => {
  test('`node app` holds the folder whole; `node .` its entry files and the main its package.json names', async () => {
    const bare = noneMentioned();
    mentionedBy('node app', bare, [root]);
    assert.ok((await reachedFrom(bare)).has('app'));
    const dot = noneMentioned();
    mentionedBy('cd app && node .', dot, [root]);
    const paths = await reachedFrom(dot);
    for (const path of ['app/index.js', 'app/package.json', 'app/lib/start.js']) assert.ok(paths.has(path), path);
  });
});
