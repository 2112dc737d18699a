// code_navigation on a real temp folder through the Node ports, with language services in memory
// (the real ones need VS Code: test/e2e/suite/agentLanguage.test.ts): the position they ask for, and
// the places they answer with.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../../src/tools/common/registry';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';
import type { CodeLocation } from '../../../src/tools/common/languageServices';
import { LOCATION_CHARS, LOCATION_LIMIT } from '../../../src/tools/common/codeNavigation';
import { VirtualClock } from '../helpers/clock';
import { MemoryLanguageServices } from '../helpers/memoryLanguages';

const signal = new AbortController().signal;

let root: string;
let languages: MemoryLanguageServices;
let ctx: ToolContext;

async function put(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

async function call(args: unknown) {
  const prepared = await allTools.find((tool) => tool.name === 'code_navigation')!.prepare(args, ctx, signal);
  return { prepared, outcome: await prepared.execute(signal) };
}

type Action = 'definition' | 'references' | 'outline' | 'symbols';
const nav = (action: Action, args: Record<string, unknown>) => call({ action, ...args });

const at = (path: string, line: number, column: number, inWorkspace = true): CodeLocation => ({ path, line, column, inWorkspace });

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tools-navigation-')));
  languages = new MemoryLanguageServices({ clock: new VirtualClock() });
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
    languages,
  };
  await put({
    'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
    'src/use.ts': "import { hello } from './hello';\nconst greeting = hello(helloName);\n",
  });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('code_navigation: definition and references', () => {
  test('the symbol is found on its line as a whole name (1-based column); places come back with their lines', async () => {
    languages.definitionsFound = [at('src/hello.ts', 1, 17)];
    const { prepared, outcome } = await nav('definition', { path: './src/use.ts', line: 2, symbol: 'hello' });
    assert.equal(prepared.summary, 'Go to the definition of "hello" (src/use.ts:2)');
    // `hello` at column 18, not the `hello` inside helloName.
    assert.deepEqual(languages.asked, [{ what: 'definitions', path: 'src/use.ts', position: { line: 2, column: 18 } }]);
    assert.deepEqual(outcome, { ok: true, output: 'src/hello.ts:1:17: export function hello(name: string): string {' });
  });

  test('references: counted; a place outside the workspace or in a protected file is named without its text', async () => {
    await put({ '.env': 'hello=1\n' });
    languages.referencesFound = [at('src/hello.ts', 1, 17), at('src/use.ts', 2, 18), at('.env', 1, 1), at('lib.dom.d.ts', 10, 3, false)];
    const { outcome } = await nav('references', { path: 'src/hello.ts', line: 1, symbol: 'hello' });
    assert.equal(
      outcome.output,
      [
        '4 references:',
        'src/hello.ts:1:17: export function hello(name: string): string {',
        'src/use.ts:2:18: const greeting = hello(helloName);',
        '.env:1:1',
        '(outside the workspace) lib.dom.d.ts:10:3',
      ].join('\n'),
    );
  });

  test('nothing found says so', async () => {
    assert.equal((await nav('references', { path: 'src/use.ts', line: 1, symbol: 'import' })).outcome.output, 'No references found at src/use.ts:1:1.');
  });

  test('a symbol that is not on the line, a line past the end, a missing file, a path outside: refused before asking', async () => {
    const refusals = await Promise.all(
      [
        { path: 'src/use.ts', line: 1, symbol: 'greeting' },
        { path: 'src/use.ts', line: 9, symbol: 'hello' },
        { path: 'src/nope.ts', line: 1, symbol: 'hello' },
        { path: '../outside.ts', line: 1, symbol: 'hello' },
        { path: 'src/use.ts', line: 1, symbol: ' ' },
      ].map(async (args) => (await nav('definition', args)).prepared.refusal),
    );
    assert.deepEqual(refusals, [
      `"greeting" is not on line 1 of "src/use.ts": import { hello } from './hello';`,
      'line 9 is past the end: "src/use.ts" has 2 lines.',
      'No file at "src/nope.ts". Use list_files to see what is there.',
      'Refused: "../outside.ts" leads outside the workspace. Use a path relative to the workspace root, like "src/index.ts".',
      'symbol is empty: give the name to look up, as it appears on that line.',
    ]);
    assert.deepEqual(languages.asked, []);
  });

  test('bounded: at most LOCATION_LIMIT places, each line clipped, the list under LOCATION_CHARS', async () => {
    await put({ 'src/long.ts': `${'z'.repeat(5_000)}\n` });
    languages.referencesFound = Array.from({ length: 300 }, (_, i) => at('src/long.ts', 1, i + 1));
    const output = (await nav('references', { path: 'src/hello.ts', line: 1, symbol: 'hello' })).outcome.output;
    assert.ok(output.length <= LOCATION_CHARS + 200, `${output.length} characters`);
    assert.ok(output.split('\n').length <= LOCATION_LIMIT + 3);
    assert.match(output, /more places not shown\)$/);
  });
});

describe('code_navigation: outline and symbols', () => {
  test("a file's outline, nested and in the file's order", async () => {
    languages.symbolsFound = [
      { name: 'helper', kind: 'function', location: at('src/use.ts', 9, 1) },
      {
        name: 'Greeter',
        kind: 'class',
        location: at('src/use.ts', 2, 7),
        children: [{ name: 'greet', kind: 'method', location: at('src/use.ts', 3, 3) }],
      },
    ];
    const { outcome } = await nav('outline', { path: 'src/use.ts' });
    assert.equal(outcome.output, 'class Greeter (line 2)\n  method greet (line 3)\nfunction helper (line 9)');
    assert.match((await nav('outline', { path: '/etc/passwd' })).prepared.refusal ?? '', /^Refused: /);
  });

  test("workspace symbols: the workspace's own first, with their container", async () => {
    languages.symbolsFound = [
      { name: 'hello', kind: 'function', location: at('lib.d.ts', 4, 1, false) },
      { name: 'hello', kind: 'function', location: at('src/hello.ts', 1, 17), container: 'module' },
    ];
    const { prepared, outcome } = await nav('symbols', { symbol: ' hello ' });
    assert.equal(prepared.summary, 'Find symbols named " hello "');
    assert.deepEqual(languages.asked, [{ what: 'workspaceSymbols', query: 'hello' }]);
    assert.equal(outcome.output, 'function hello (in module): src/hello.ts:1:17\nfunction hello: (outside the workspace) lib.d.ts:4:1');
    assert.equal((await nav('symbols', { symbol: '  ' })).prepared.refusal, 'symbol is empty: give a name or part of one.');
  });
});

describe('code_navigation: arguments each action needs', () => {
  test('a missing argument is refused, naming what the action needs and what is missing, before asking', async () => {
    const refusals = await Promise.all(
      [
        { action: 'definition', path: 'src/use.ts', symbol: 'hello' },
        { action: 'references', line: 1 },
        { action: 'outline' },
        { action: 'symbols', path: 'src/use.ts' },
      ].map(async (args) => (await call(args)).prepared.refusal),
    );
    assert.deepEqual(refusals, [
      'code_navigation "definition" needs path, line, symbol; missing: line.',
      'code_navigation "references" needs path, line, symbol; missing: path, symbol.',
      'code_navigation "outline" needs path; missing: path.',
      'code_navigation "symbols" needs symbol; missing: symbol.',
    ]);
    assert.deepEqual(languages.asked, []);
  });

  test('an unknown action is refused as invalid arguments', async () => {
    const { prepared } = await call({ action: 'rename', path: 'src/use.ts' });
    assert.equal(prepared.summary, 'code_navigation (invalid arguments)');
    assert.match(prepared.refusal ?? '', /action/);
  });

  test('each action shows its own summary', async () => {
    assert.equal((await nav('references', { path: 'src/use.ts', line: 2, symbol: 'hello' })).prepared.summary, 'Find references to "hello" (src/use.ts:2)');
    assert.equal((await nav('outline', { path: 'src/use.ts' })).prepared.summary, 'List the symbols of src/use.ts');
  });
});
