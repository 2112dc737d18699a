// search_text on ripgrep in one run (its line output read a file at a time, the first matches in tree order kept as they
// come) and the two steps it falls back to (count, then the chosen files' lines), each answer compared with the JavaScript
// walk's on the same files; then what the line output holds that the reader must get right.
import assert from 'node:assert/strict';
import { link, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { RipgrepSearch, ripgrepLimits } from '../../src/tools/node/ripgrep';
import { findRipgrepOnPath, findVsCodeRipgrep } from '../../src/tools/node/ripgrepLocator';
import type { FileMatchCount, FileMatches, FileQuery, SearchBatch, TextMatch, TextQuery, WorkspaceSearch } from '../../src/tools/common/searchPorts';
import { silentLogger } from '../../src/base/common/ports';
import { putFiles } from '../unit/helpers/workspaceFixture';

const signal = new AbortController().signal;
// Installed by `npm run e2e:setup` (Debian's ripgrep package); without it these tests fail and say so.
const rg = findRipgrepOnPath();

const put = putFiles;

/** The workspace as an editor holds it: these files with unsaved text. */
class EditorFiles extends NodeWorkspaceFiles {
  constructor(
    root: string,
    private readonly buffers: ReadonlyMap<string, string>,
  ) {
    super(root);
  }

  override readText(path: string, signal: AbortSignal): Promise<string> {
    const text = this.buffers.get(path);
    return text !== undefined ? Promise.resolve(text) : super.readText(path, signal);
  }

  unsavedPaths(): readonly string[] {
    return [...this.buffers.keys()];
  }
}

/** The ripgrep port, counting which of its ways of searching ran. */
class CountingSearch implements WorkspaceSearch {
  readonly calls = { searchFiles: 0, countMatches: 0, matchingLines: 0 };
  constructor(private readonly inner: RipgrepSearch) {}
  get name(): string {
    return this.inner.name;
  }
  listFiles(query: FileQuery, signal: AbortSignal): AsyncIterable<SearchBatch<string>> {
    return this.inner.listFiles(query, signal);
  }
  searchFiles(query: TextQuery, wanted: (path: string) => boolean, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatches>> {
    this.calls.searchFiles++;
    return this.inner.searchFiles(query, wanted, signal);
  }
  countMatches(query: TextQuery, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatchCount>> {
    this.calls.countMatches++;
    return this.inner.countMatches(query, signal);
  }
  matchingLines(query: TextQuery, paths: readonly string[], signal: AbortSignal): AsyncIterable<SearchBatch<TextMatch>> {
    this.calls.matchingLines++;
    return this.inner.matchingLines(query, paths, signal);
  }
}

function contexts(root: string, options: { buffers?: Map<string, string>; limits?: typeof ripgrepLimits } = {}) {
  assert.ok(rg, 'ripgrep is not installed: run `npm run e2e:setup` (or apt-get install ripgrep)');
  const walk: ToolContext = {
    files: options.buffers ? new EditorFiles(root, options.buffers) : new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
  const search = new CountingSearch(new RipgrepSearch(rg, root, options.limits));
  return { walk, ripgrep: { ...walk, search }, search };
}

async function searchText(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  const prepared = await allTools.find((tool) => tool.name === 'search_text')!.prepare(args, ctx, signal);
  const outcome = await prepared.execute(signal);
  assert.ok(outcome.ok, outcome.output);
  return outcome.output;
}

/** 420 files at four depths, 1 to 3 matching lines each, so that ripgrep's order and the tree order differ. */
const spread = Object.fromEntries(
  Array.from({ length: 420 }, (_, i) => {
    const folder = ['', `d${i % 3}/`, `d${i % 3}/e${i % 5}/`, `d${i % 3}/e${i % 5}/g${i % 2}/`][i % 4];
    return [`${folder}f${String(i).padStart(3, '0')}.txt`, `${'hit here\n'.repeat(1 + (i % 3))}miss\n`];
  }),
);

describe('one ripgrep run, and the two steps it falls back to', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'rg-one-run-')));
    await put(root, { ...spread, '.gitignore': 'ignored/\n', 'ignored/unsaved.txt': 'nothing\n', 'few/a.txt': 'rare one\n', 'few/b.txt': 'none\n' });
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('a pattern in hundreds of files at every depth: the first 100 in tree order, as the walk finds them, in one run', async () => {
    const { walk, ripgrep, search } = contexts(root);
    const walked = await searchText(walk, { pattern: 'hit' });
    assert.equal(await searchText(ripgrep, { pattern: 'hit' }), walked);
    assert.equal(walked.split('\n').length, 101);
    assert.deepEqual(search.calls, { searchFiles: 1, countMatches: 0, matchingLines: 0 });
  });

  test('output past its bound: two steps, the same answer', async () => {
    // The line output is ~25 KB; the counts and the chosen files' lines fit.
    const { walk, ripgrep, search } = contexts(root, { limits: { ...ripgrepLimits, outputBytes: 12_000 } });
    assert.equal(await searchText(ripgrep, { pattern: 'hit' }), await searchText(walk, { pattern: 'hit' }));
    assert.deepEqual(search.calls, { searchFiles: 1, countMatches: 1, matchingLines: 1 });
  });

  test('unsaved text is searched instead of the disk, in the many-matches case too; an ignored unsaved file stays out', async () => {
    // f000.txt comes first in tree order: emptied in the editor, the first 100 are others; f004.txt gains lines.
    const buffers = new Map([
      ['f000.txt', 'no longer\n'],
      ['f004.txt', 'hit\nhit\nhit\nhit\nhit\n'],
      ['few/b.txt', 'rare two, unsaved\n'],
      ['ignored/unsaved.txt', 'rare and ignored\n'],
    ]);
    const { walk, ripgrep } = contexts(root, { buffers });
    for (const args of [{ pattern: 'hit' }, { pattern: 'rare' }, { pattern: 'no longer' }, { pattern: 'rare', folder: 'few' }]) {
      assert.equal(await searchText(ripgrep, args), await searchText(walk, args), JSON.stringify(args));
    }
    assert.equal(await searchText(ripgrep, { pattern: 'rare' }), 'few/a.txt:1: rare one\nfew/b.txt:1: rare two, unsaved');
    assert.match(await searchText(ripgrep, { pattern: 'hit' }), /^f004\.txt:1: hit\nf004\.txt:2: hit\n/);
  });
});

describe('hard links among the first files', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'rg-hard-links-')));
    // a/ comes first in tree order: 60 files with 2 matches each, every one hard-linked from z/ (so neither is shown).
    await put(root, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`a/h${String(i).padStart(2, '0')}.txt`, 'hl\nhl\n'])));
    for (let i = 0; i < 60; i++) {
      await mkdir(join(root, 'z'), { recursive: true });
      await link(join(root, `a/h${String(i).padStart(2, '0')}.txt`), join(root, `z/h${String(i).padStart(2, '0')}.txt`));
    }
    await put(root, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m/p${String(i).padStart(2, '0')}.txt`, 'hl\n'])));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('what one run kept are all hard links: two steps find the files after them, as the walk does', async () => {
    const { walk, ripgrep, search } = contexts(root);
    const searched = await searchText(ripgrep, { pattern: 'hl' });
    assert.match(searched, /^m\/p00\.txt:1: hl\n/);
    assert.match(searched, /\(120 hard-linked files skipped: one may be a protected file under another name\)$/);
    assert.equal(searched, await searchText(walk, { pattern: 'hl' }));
    assert.deepEqual(search.calls, { searchFiles: 1, countMatches: 1, matchingLines: 1 });
  });
});

/** Debian's rg (13) and, when the e2e rig is installed, the one VS Code ships (15): their outputs differ in places. */
const engines = [
  { name: "Debian's rg", path: rg },
  {
    name: "VS Code's rg",
    path: findVsCodeRipgrep(join(process.env.GATEWAY_E2E_CACHE ?? join(homedir(), '.cache/gateway-e2e'), 'code-server/node_modules/code-server/lib/vscode')),
  },
].filter((engine) => engine.path !== undefined);

for (const engine of engines)
  describe(`ripgrep's line output, read back (${engine.name})`, () => {
    let root: string;
    const query: TextQuery = {
      folder: '.',
      respectIgnore: true,
      protectedGlobs: ['*.pem'],
      excludedGlobs: [],
      pattern: 'needle',
      regex: false,
      ignoreCase: false,
      maxFileBytes: 1024 * 1024,
      maxMatchesPerFile: 101,
    };
    const posing = 'w.txt: WARNING: stopped searching binary file after match (found "\\0" byte around offset 5)';
    before(async () => {
      root = await realpath(await mkdtemp(join(tmpdir(), 'rg-lines-')));
      await put(root, {
        'w.txt': 'needle in w\n',
        [posing]: 'needle posing\n',
        'odd\nname.txt': 'needle\n',
        // A NUL past what ripgrep reads first: it has printed the match before it finds the file binary.
        'late.txt': Buffer.concat([Buffer.from(`needle early\n${'x'.repeat(300_000)}\n`), Buffer.from([0]), Buffer.from('\nneedle late\n')]),
        'early.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0])]),
        'crlf.txt': 'ünï needle\r\n',
        'key.pem': 'needle\n',
        'KEY.PEM': 'needle\n',
      });
    });
    after(() => rm(root, { recursive: true, force: true }));

    async function searchFiles(q: TextQuery) {
      const found = new Map<string, TextMatch[]>();
      let searched: number | undefined;
      for await (const batch of new RipgrepSearch(engine.path!, root).searchFiles(q, () => true, signal)) {
        for (const file of batch.items) found.set(file.path, file.matches);
        searched ??= batch.searched;
      }
      return { found, searched };
    }

    test('a file found binary after a match is dropped, as the counts drop it; a name posing as the warning is a name', async () => {
      assert.ok(rg);
      const { found } = await searchFiles(query);
      assert.deepEqual([...found.keys()].sort(), ['crlf.txt', posing, 'w.txt'].sort());
      assert.deepEqual(found.get(posing), [{ path: posing, line: 1, text: 'needle posing', column: 0 }]);
      assert.deepEqual(found.get('crlf.txt'), [{ path: 'crlf.txt', line: 1, text: 'ünï needle', column: 4 }], 'the column in characters, the CR left out');
      const counted: string[] = [];
      for await (const batch of new RipgrepSearch(engine.path!, root).countMatches(query, signal)) counted.push(...batch.items.map((item) => item.path));
      assert.ok(!counted.includes('late.txt'));
    });

    test('a name with a line break is not searched (in this output only a NUL ends a name)', async () => {
      const { found } = await searchFiles(query);
      assert.ok(!found.has('odd\nname.txt'));
    });

    test('it says how many files it searched, binary ones too, only when it applied every glob (protected ones ignoring case)', async () => {
      // w.txt, the posing name, late.txt, early.bin, crlf.txt: not the two .pem files, nor the name with a line break.
      assert.equal((await searchFiles(query)).searched, 5);
      assert.equal((await searchFiles({ ...query, protectedGlobs: ['*.[pP]em'] })).searched, undefined, 'a glob ripgrep is not given');
      assert.equal((await searchFiles({ ...query, nameGlob: '*.txt' })).searched, 3, 'w.txt, late.txt, crlf.txt');
    });
  });
