// list_files and search_text on both engines: ripgrep (Debian's, as the Node port; VS Code's own in the editor)
// and the JavaScript walk, on the same fixtures, with the same answers; then what only ripgrep does.
import assert from 'node:assert/strict';
import { chmod, link, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { allTools } from '../../src/tools/common/registry';
import { compareTreeOrder } from '../../src/tools/common/treeOrder';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { RipgrepSearch, ripgrepLimits } from '../../src/tools/node/ripgrep';
import { findRipgrepOnPath, findVsCodeRipgrep } from '../../src/tools/node/ripgrepLocator';
import type { Clock, Logger } from '../../src/base/common/ports';
import type { TextQuery, WorkspaceSearch } from '../../src/tools/common/searchPorts';
import { silentLogger } from '../../src/base/common/ports';
import { putFiles } from '../unit/helpers/workspaceFixture';

const signal = new AbortController().signal;
// Installed by `npm run e2e:setup` (Debian's ripgrep package); without it these tests fail and say so.
const rg = findRipgrepOnPath();

const put = putFiles;

function contexts(root: string, logger: Logger = silentLogger): { walk: ToolContext; ripgrep: ToolContext } {
  assert.ok(rg, 'ripgrep is not installed: run `npm run e2e:setup` (or apt-get install ripgrep)');
  const walk: ToolContext = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger,
  };
  return { walk, ripgrep: { ...walk, search: new RipgrepSearch(rg, root) } };
}

async function call(ctx: ToolContext, name: string, args: unknown, callSignal = signal) {
  const prepared = await allTools.find((tool) => tool.name === name)!.prepare(args, ctx, callSignal);
  return prepared.execute(callSignal);
}

const many = Object.fromEntries(Array.from({ length: 520 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, i % 5 === 0 ? 'hit\nhit\n' : 'miss\n']));

const fixture: Record<string, string | Buffer> = {
  '.gitignore': 'dist/\n*.LOG\n/local-notes.md\n',
  '.git/info/exclude': 'scratch/\n',
  '.git/config': 'needle = secret\n',
  'local-notes.md': 'needle in notes\n',
  'scratch/x.ts': 'needle\n',
  'dist/out.js': 'needle\n',
  'debug.log': 'needle\n',
  'README.md': '# Needle\nA needle here.\n',
  'src/a.ts': 'import x from "y";\n  const needle = 1;\n\tfunction Foo() { return "needle"; }\n',
  'src/b.ts': 'no\nneedle again\n',
  'src/lib/c.ts': 'export const NEEDLE = 2;\n',
  'src/lib/d.json': '{"needle": true}\n',
  'src/z.md': 'zz needle\n',
  'app/.gitignore': 'generated/\n/only-here.txt\n!important.log\n',
  'app/generated/x.ts': 'needle\n',
  'app/only-here.txt': 'needle\n',
  'app/important.log': 'needle in a log\n',
  'app/sub/.gitignore': 'secret-*.json\n',
  'app/sub/only-here.txt': 'needle\n',
  'app/sub/secret-1.json': '{"needle": 1}\n',
  'app/sub/ok.json': '{"needle": 2}\n',
  'node_modules/m/i.js': 'needle\n',
  'node_modules/m/package.json': '{"name": "m"}\n',
  '.env': 'NEEDLE=needle\n',
  'config/.env.local': 'needle\n',
  'deploy/.ENV': 'needle\n',
  'deploy/SITE.PEM': 'needle\n',
  'certs/site.pem': 'needle\n',
  '.ssh/config': 'needle\n',
  'bin.dat': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]),
  'big.txt': `needle\n${'x'.repeat(1024 * 1024)}\n`,
  'crlf.txt': 'needle\r\n  x needle\r\n',
  'unicode.txt': 'ünïcödé ✓ needle — done\n',
  'latin1.txt': Buffer.from('café needle\n', 'latin1'),
  'long.txt': `${'a'.repeat(500)}needle${'b'.repeat(500)}\n`,
  'dash.txt': '-needle --flag\n',
  ...many,
};

const listCalls: Record<string, unknown>[] = [
  {},
  { folder: 'app' },
  { folder: 'app/sub' },
  { glob: '*.ts' },
  { glob: '**/*.json' },
  { folder: 'src', glob: 'lib/*.ts' },
  { glob: '*.{md,txt}' },
  { glob: 'src/**' },
  { glob: '*.py' },
  { folder: 'node_modules/m' },
  { folder: 'many' },
  { folder: 'scratch' },
];

const searchCalls: Record<string, unknown>[] = [
  { pattern: 'needle' },
  { pattern: 'needle', folder: 'src' },
  { pattern: 'needle', folder: 'app' },
  { pattern: 'needle', folder: 'app/sub' },
  { pattern: 'needle', glob: '*.ts' },
  { pattern: 'needle', glob: '**/*.json' },
  { pattern: 'needle', folder: 'src', glob: 'lib/*' },
  { pattern: '/NEEDLE/i' },
  { pattern: '/NEEDLE/i', folder: 'many' },
  { pattern: '/^\\s+\\S+ needle$/' },
  { pattern: '/needle$/', glob: 'crlf.txt' },
  { pattern: '/function [A-Z]\\w+/' },
  { pattern: '—' },
  { pattern: 'café' },
  { pattern: '-needle' },
  { pattern: 'zzz' },
  { pattern: 'zzz', glob: '*.md' },
  // Nothing found: how many files were searched, from ripgrep's own count (the glob is names alone) or from a listing.
  { pattern: 'zzz', glob: '**/*.ts' },
  { pattern: 'zzz', glob: 'src/**' },
  { pattern: 'zzz', folder: 'src', glob: 'lib/*' },
  { pattern: 'zzz', folder: 'app' },
  { pattern: 'zzz', glob: '*.dat' },
  { pattern: 'zzz', glob: 'big.txt' },
  { pattern: 'hit' },
  { pattern: 'hit', folder: 'many', glob: 'f00*.txt' },
  { pattern: 'two\nlines' },
];

describe('both engines give the same answers', () => {
  let base: string;
  let ctx: { walk: ToolContext; ripgrep: ToolContext };
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tools-engines-')));
    await put(base, fixture);
    ctx = contexts(base);
  });
  after(() => rm(base, { recursive: true, force: true }));

  for (const args of listCalls) {
    test(`list_files ${JSON.stringify(args)}`, async () => {
      const walked = await call(ctx.walk, 'list_files', args);
      const searched = await call(ctx.ripgrep, 'list_files', args);
      assert.deepEqual(searched, walked);
    });
  }
  for (const args of searchCalls) {
    test(`search_text ${JSON.stringify(args)}`, async () => {
      const walked = await call(ctx.walk, 'search_text', args);
      const searched = await call(ctx.ripgrep, 'search_text', args);
      assert.deepEqual(searched, walked);
    });
  }

  test('the fixture exercises what it should: ignored, protected, binary, huge, limits', async () => {
    const listed = (await call(ctx.ripgrep, 'list_files', {})).output.split('\n');
    for (const hidden of [
      'dist/',
      'debug.log',
      'local-notes.md',
      'scratch/',
      'app/generated/',
      'app/only-here.txt',
      'app/sub/secret-1.json',
      '.env',
      '.git/',
    ]) {
      assert.ok(!listed.includes(hidden), hidden);
    }
    for (const shown of ['app/important.log', 'app/sub/only-here.txt', 'bin.dat', 'big.txt']) assert.ok(listed.includes(shown), shown);
    assert.equal(listed.at(-1), '… 44 more; list a subfolder or use a glob to narrow it down');
    const src = (await call(ctx.ripgrep, 'list_files', { folder: 'src' })).output;
    assert.equal(src, ['src/a.ts', 'src/b.ts', 'src/lib/', 'src/z.md', 'src/lib/c.ts', 'src/lib/d.json'].join('\n'));
    const found = (await call(ctx.ripgrep, 'search_text', { pattern: 'needle', folder: 'src' })).output;
    assert.equal(
      found,
      [
        'src/a.ts:2: const needle = 1;',
        'src/a.ts:3: function Foo() { return "needle"; }',
        'src/b.ts:2: needle again',
        'src/z.md:1: zz needle',
        'src/lib/d.json:1: {"needle": true}',
      ].join('\n'),
    );
    const none = (await call(ctx.ripgrep, 'search_text', { pattern: 'zzz' })).output;
    assert.match(none, /^No matches for zzz in \d+ files\.\n\(1 file larger than 1024 KB skipped\)$/);
    const limited = (await call(ctx.ripgrep, 'search_text', { pattern: 'hit' })).output.split('\n');
    assert.equal(limited.length, 101);
    assert.equal(limited[0], 'many/f000.txt:1: hit');
  });
});

describe('what only ripgrep does', () => {
  let base: string;
  let root: string;
  let ctx: { walk: ToolContext; ripgrep: ToolContext };
  const logged: string[] = [];
  const logger: Logger = { ...silentLogger, info: (message) => logged.push(message), warn: (message) => logged.push(message) };
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tools-rg-')));
    root = join(base, 'workspace');
    await put(base, { 'outside/secret.txt': 'needle outside\n' });
    await put(root, { 'a.txt': 'needle\nabab\n', 'real/inside.txt': 'needle inside\n', '.env': 'needle=1\n' });
    await symlink('../outside', join(root, 'out-dir'));
    await symlink('../outside/secret.txt', join(root, 'out-file.txt'));
    await symlink('real', join(root, 'in-dir'));
    await symlink('.env', join(root, 'env-link.txt'));
    await link(join(root, '.env'), join(root, 'hard.txt'));
    ctx = contexts(root, logger);
  });
  after(() => rm(base, { recursive: true, force: true }));

  test('symlinks are neither followed nor listed, inward or outward; a hard link to .env is not shown', async () => {
    const listed = await call(ctx.ripgrep, 'list_files', {});
    assert.equal(listed.output, ['a.txt', 'hard.txt', 'real/', 'real/inside.txt'].join('\n'));
    const found = await call(ctx.ripgrep, 'search_text', { pattern: 'needle' });
    assert.equal(
      found.output,
      ['a.txt:1: needle', 'real/inside.txt:1: needle inside', '(1 hard-linked file skipped: one may be a protected file under another name)'].join('\n'),
    );
  });

  test('the log says which engine served each call', async () => {
    logged.length = 0;
    await call(ctx.ripgrep, 'search_text', { pattern: 'needle' });
    await call(ctx.ripgrep, 'list_files', {});
    await call(ctx.walk, 'search_text', { pattern: 'needle' });
    assert.match(logged[0], /^search_text served by ripgrep \(.*rg\) in \d+ ms$/);
    assert.match(logged[1], /^list_files served by ripgrep \(.*rg\) in \d+ ms$/);
    assert.match(logged[2], /^search_text served by the JavaScript walker in \d+ ms$/);
  });

  test("a regex ripgrep refuses comes back with ripgrep's reason", async () => {
    const backreference = await call(ctx.ripgrep, 'search_text', { pattern: '/(ab)\\1/' });
    assert.deepEqual(backreference.ok, false);
    assert.match(
      backreference.output,
      /^Unsupported regular expression \/\(ab\)\\1\/: backreferences are not supported\. The search runs on a linear-time engine/,
    );
    const lookbehind = await call(ctx.ripgrep, 'search_text', { pattern: '/(?<=a)b/' });
    assert.match(lookbehind.output, /^Unsupported regular expression \/\(\?<=a\)b\/: look-around, including look-ahead and look-behind, is not supported\./);
    const unclosed = await call(ctx.ripgrep, 'search_text', { pattern: '/(unclosed/' });
    assert.match(unclosed.output, /^Unsupported regular expression \/\(unclosed\/: unclosed group\./);
    assert.doesNotMatch(unclosed.output, /PCRE2|--/);
  });

  test('the catastrophic-backtracking regex answers at once', async () => {
    await put(root, { 'slow.txt': `${'a'.repeat(5000)}!\naaa\n` });
    const found = await call(ctx.ripgrep, 'search_text', { pattern: '/^(a+)+$/', glob: 'slow.txt' });
    assert.equal(found.output, 'slow.txt:2: aaa');
  });

  test('the listing that counts the files too large to search is reused for 10 s', async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: () => Promise.resolve(), after: () => undefined };
    const search = { ...ctx.ripgrep, clock };
    const args = { pattern: 'needle', glob: 'a*.txt' };
    assert.equal((await call(search, 'search_text', args)).output, 'a.txt:1: needle');
    await put(root, { 'a-huge.txt': `needle\n${'x'.repeat(2 * 1024 * 1024)}\n` });
    try {
      assert.equal((await call(search, 'search_text', args)).output, 'a.txt:1: needle');
      now += 10_001;
      assert.equal((await call(search, 'search_text', args)).output, 'a.txt:1: needle\n(1 file larger than 1024 KB skipped)');
    } finally {
      await rm(join(root, 'a-huge.txt'));
    }
  });

  test('a folder reached through a symlink is walked (ripgrep does not follow links), with the same answer', async () => {
    const found = await call(ctx.ripgrep, 'search_text', { pattern: 'needle', folder: 'in-dir' });
    assert.equal(found.output, 'in-dir/inside.txt:1: needle inside');
    assert.match(logged.at(-1)!, /served by the JavaScript walker/);
  });

  test('a ripgrep that cannot start: the walk answers, and the log says why', async () => {
    const broken = { ...ctx.walk, search: new RipgrepSearch(join(base, 'no-such-rg'), root) };
    logged.length = 0;
    const found = await call(broken, 'search_text', { pattern: 'needle', glob: 'a.txt' });
    assert.equal(found.output, 'a.txt:1: needle');
    assert.match(logged[0], /^search_text: ripgrep \(.*no-such-rg\) failed, searching with the JavaScript walker instead: Error: spawn .*ENOENT/);
  });
});

describe('the ripgrep port', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'rg-port-')));
    await put(root, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 7}/f${i}.txt`, `${'needle '.repeat(50)}\n`.repeat(200)])));
    await put(root, { 'wide.txt': `${'needle'.repeat(50_000)}\n`, 'odd\nname.txt': 'needle\nneedle\n' });
  });
  after(() => rm(root, { recursive: true, force: true }));

  const query: TextQuery = {
    folder: '.',
    respectIgnore: true,
    protectedGlobs: [],
    excludedGlobs: [],
    pattern: 'needle',
    regex: false,
    ignoreCase: false,
    maxFileBytes: 1024 * 1024,
    maxMatchesPerFile: 1000,
  };

  test('its output is bounded: in total and per record', async () => {
    assert.ok(rg);
    const paths = Array.from({ length: 300 }, (_, i) => `d${i % 7}/f${i}.txt`);
    const small = new RipgrepSearch(rg, root, { ...ripgrepLimits, outputBytes: 200_000 });
    let bytes = 0;
    let stopped: string | undefined;
    for await (const batch of small.matchingLines(query, paths, signal)) {
      bytes += batch.items.reduce((sum, match) => sum + match.text.length, 0);
      stopped ??= batch.stopped;
    }
    assert.equal(stopped, 'more than 0.19073486328125 MB of results');
    assert.ok(bytes < 200_000);
    const narrow = new RipgrepSearch(rg, root, { ...ripgrepLimits, recordBytes: 100_000 });
    const wide: string[] = [];
    for await (const batch of narrow.matchingLines(query, ['wide.txt'], signal)) if (batch.stopped) wide.push(batch.stopped);
    assert.deepEqual(wide, ['a result longer than 0.095367431640625 MB']);
  });

  test('it counts the matching lines of every text file, up to the limit per file', async () => {
    assert.ok(rg);
    const counts = new Map<string, number>();
    for await (const batch of new RipgrepSearch(rg, root).countMatches({ ...query, maxMatchesPerFile: 150 }, signal)) {
      for (const { path, lines } of batch.items) counts.set(path, lines);
    }
    assert.equal(counts.size, 301);
    assert.equal(counts.get('d3/f10.txt'), 150);
    assert.equal(counts.get('odd\nname.txt'), undefined, 'a name with a line break is not searched, as in the line output');
    assert.equal(counts.get('wide.txt'), 1);
  });

  test('listing stops at its file limit', async () => {
    assert.ok(rg);
    const few = new RipgrepSearch(rg, root, { ...ripgrepLimits, files: 50 });
    const paths: string[] = [];
    let stopped: string | undefined;
    for await (const batch of few.listFiles(query, signal)) {
      paths.push(...batch.items);
      stopped ??= batch.stopped;
    }
    assert.equal(paths.length, 50);
    assert.equal(stopped, 'more than 50 files');
  });

  test('cancelling kills ripgrep at once', async () => {
    assert.ok(rg);
    const controller = new AbortController();
    const search: WorkspaceSearch = new RipgrepSearch(rg, root);
    const started = performance.now();
    await assert.rejects(async () => {
      for await (const _batch of search.countMatches(query, controller.signal)) controller.abort(new Error('stopped by the user'));
    }, /stopped by the user/);
    assert.ok(performance.now() - started < 2000);
  });

  test('search_text stopped by the user says so', async () => {
    const { ripgrep } = contexts(root);
    const controller = new AbortController();
    controller.abort();
    const outcome = await call(ripgrep, 'search_text', { pattern: 'needle' }, controller.signal);
    assert.deepEqual(outcome, { ok: false, output: 'Stopped: the user cancelled this call before it finished.' });
  });
});

describe("VS Code's ripgrep is found under its appRoot", () => {
  let base: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'rg-locate-')));
  });
  after(() => rm(base, { recursive: true, force: true }));

  const executable = async (path: string) => {
    await put(base, { [path]: '#!/bin/sh\n' });
    await chmod(join(base, path), 0o755);
  };

  const layouts: [string, string][] = [
    ['VS Code 1.139 and code-server 4.139.1', 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'],
    ['a desktop build with an asar', 'node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/linux-x64/rg'],
    ['earlier desktop VS Code', 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg'],
    ['older still', 'node_modules/vscode-ripgrep/bin/rg'],
  ];
  for (const [name, path] of layouts) {
    test(name, async () => {
      const appRoot = join(base, name.replace(/\W+/g, '-'));
      await executable(join(appRoot.slice(base.length + 1), path));
      assert.equal(findVsCodeRipgrep(appRoot, 'linux', 'x64'), join(appRoot, path));
      assert.equal(findVsCodeRipgrep(appRoot, 'linux', 'arm64') === undefined, path.includes('linux-x64'));
    });
  }

  test('nothing there, or a file that cannot run: none', async () => {
    assert.equal(findVsCodeRipgrep(join(base, 'empty'), 'linux', 'x64'), undefined);
    await put(base, { 'plain/node_modules/@vscode/ripgrep/bin/rg': 'not executable' });
    assert.equal(findVsCodeRipgrep(join(base, 'plain'), 'linux', 'x64'), undefined);
  });

  test('the code-server of the e2e rig, when installed, has one, and it runs', async (t) => {
    const appRoot = join(process.env.HOME ?? '', '.cache/gateway-e2e/code-server/node_modules/code-server/lib/vscode');
    const found = findVsCodeRipgrep(appRoot);
    if (!found) return t.diagnostic(`no code-server rig at ${appRoot}`);
    assert.match(found, /ripgrep-universal\/bin\/linux-x64\/rg$/);
    assert.ok((await readFile(found)).length > 1_000_000);
  });
});

describe('tree order', () => {
  test("a folder's entries before its subfolders' contents, by name", () => {
    const paths = ['src/lib/c.ts', 'b.ts', 'src/a.ts', 'a/x.ts', 'src/b.ts', 'a.ts', 'a/b/y.ts', 'a/z.ts'];
    assert.deepEqual(paths.sort(compareTreeOrder), ['a.ts', 'b.ts', 'a/x.ts', 'a/z.ts', 'a/b/y.ts', 'src/a.ts', 'src/b.ts', 'src/lib/c.ts']);
  });
});

describe('the walk (without ripgrep) is bounded in time', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'walk-time-')));
    await put(root, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'x\n'])));
  });
  after(() => rm(root, { recursive: true, force: true }));

  // Each reading of the clock is a second later: the walk sees its 20 s pass after about 20 entries.
  const slowClock = (): Clock => {
    let now = 0;
    return { now: () => (now += 1000), sleep: () => Promise.resolve(), after: () => undefined };
  };

  test('search_text stops after 20 s and says so', async () => {
    const { walk } = contexts(root);
    const found = await call({ ...walk, clock: slowClock() }, 'search_text', { pattern: 'zzz' });
    assert.match(
      found.output,
      /^No matches for zzz in \d+ files\.\n\(the workspace is too large to search whole \(more than 20 s\); use a folder or a glob\)$/,
    );
    assert.ok(Number(/in (\d+) files/.exec(found.output)![1]) < 30);
  });

  test('list_files stops after 20 s and says the count is a lower bound', async () => {
    const { walk } = contexts(root);
    const listed = await call({ ...walk, clock: slowClock() }, 'list_files', {});
    assert.match(listed.output, /\n… at least 0 more; list a subfolder or use a glob to narrow it down$/);
    assert.ok(listed.output.split('\n').length < 30);
  });
});
