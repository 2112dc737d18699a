// Where the agent's tools may go: every way out of the workspace is refused, protected files stay unread and unwritten.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { compileGlob, matchesGlob } from '../../../src/base/common/glob';
import { normalizeWorkspacePath } from '../../../src/tools/common/pathPolicy';
import { protectingPattern, protectingPatternOfEntry } from '../../../src/base/common/protectedPaths';
import { allTools } from '../../../src/tools/common/registry';
import { type AgentTool, type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';
import { cpuMsSince, cpuStart } from '../helpers/cpuTime';

const signal = new AbortController().signal;
const tool = (name: string): AgentTool => allTools.find((candidate) => candidate.name === name)!;

/** A temporary workspace with `files`, a sibling folder outside it, and the Node ports over it. */
async function makeWorkspace(files: Record<string, string>) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'tools-paths-')));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'outside secret\n');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await mkdir(root, { recursive: true });
  const ctx: ToolContext = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
  return { root, outside, ctx, cleanup: () => rm(base, { recursive: true, force: true }) };
}

async function call(name: string, args: unknown, ctx: ToolContext) {
  const prepared = await tool(name).prepare(args, ctx, signal);
  const outcome = await prepared.execute(signal);
  return { prepared, outcome };
}

describe('glob', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/test/*.ts', 'test/a.ts', true],
    ['**/test/*.ts', 'a/b/test/a.ts', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['*.{js,ts}', 'x/y.js', true],
    ['*.{js,ts}', 'y.md', false],
    ['file[0-9].txt', 'file7.txt', true],
    ['file[!0-9].txt', 'file7.txt', false],
    ['file[!0-9].txt', 'fileA.txt', true],
    ['.git/**', '.git', true],
    ['.git/**', '.git/config', true],
    ['.git/**', 'sub/.git/config', false],
    ['.env*', '.env.local', true],
    ['.env*', 'config/.env', true],
    ['a+b(c).txt', 'a+b(c).txt', true],
    ['id_*', '.ssh/id_ed25519', true],
    ['*.{p12,pfx}', 'certs/client.pfx', true],
    ['.ssh/**', '.ssh/config', true],
  ];
  for (const [pattern, path, expected] of cases) {
    test(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(matchesGlob(path, pattern), expected);
    });
  }

  test('a character class never matches a separator, and case can be ignored', () => {
    assert.equal(matchesGlob('a/b', 'a[/x]b'), false);
    assert.equal(matchesGlob('KEYS/SERVER.PEM', '*.pem'), false);
    assert.equal(matchesGlob('KEYS/SERVER.PEM', '*.pem', { ignoreCase: true }), true);
  });
});

describe('normalizeWorkspacePath', () => {
  const refused: [string, RegExp][] = [
    ['../x', /leads outside the workspace/],
    ['a/../../x', /leads outside the workspace/],
    ['..', /leads outside the workspace/],
    ['/etc/passwd', /absolute path/],
    ['C:\\Windows\\System32', /absolute path/],
    ['c:/x', /absolute path/],
    ['\\\\srv\\share\\x', /absolute path/],
    ['..\\x', /leads outside the workspace/],
    ['~/.ssh/id_rsa', /home folder/],
    ['~root/x', /home folder/],
    ['a\0b', /NUL/],
    ['', /empty/],
    ['   ', /empty/],
  ];
  for (const [raw, reason] of refused) {
    test(`refuses ${JSON.stringify(raw)}`, () => {
      const checked = normalizeWorkspacePath(raw);
      assert.equal(checked.ok, false);
      assert.match(checked.ok ? '' : checked.reason, reason);
      assert.match(checked.ok ? '' : checked.reason, /relative to the workspace root/);
    });
  }

  test('normalizes what stays inside', () => {
    assert.deepEqual(normalizeWorkspacePath('./src//a.ts'), { ok: true, path: 'src/a.ts' });
    assert.deepEqual(normalizeWorkspacePath('src/x/../a.ts'), { ok: true, path: 'src/a.ts' });
    assert.deepEqual(normalizeWorkspacePath('src\\a.ts'), { ok: true, path: 'src/a.ts' });
    assert.deepEqual(normalizeWorkspacePath('.'), { ok: true, path: '.' });
    assert.deepEqual(normalizeWorkspacePath('a/..'), { ok: true, path: '.' });
  });
});

describe('protectingPattern', () => {
  const cases: [string, string | undefined][] = [
    ['.env', '.env*'],
    ['.env.production', '.env*'],
    ['config/.env.local', '.env*'],
    ['.env.d/extra', '.env*'],
    ['certs/server.pem', '*.pem'],
    ['deploy/id.KEY', '*.key'],
    ['.git', '**/.git/**'],
    ['.git/config', '**/.git/**'],
    ['.git/hooks/pre-commit', '**/.git/**'],
    ['vendor/lib/.git/config', '**/.git/**'],
    ['projB/.git', '**/.git/**'],
    ['deep/a/b/.env', '.env*'],
    ['deep/a/b/c.key', '*.key'],
    ['.github/workflows/ci.yml', undefined],
    ['src/environment.ts', undefined],
    ['keys.ts', undefined],
    ['.gitignore', undefined],
    ['.', undefined],
  ];
  for (const [path, pattern] of cases) {
    test(`${path}: ${pattern ?? 'not protected'}`, () => {
      assert.equal(protectingPattern(path, defaultProtectedFiles), pattern);
    });
  }
});

describe('protectingPatternOfEntry (a walk that never enters a protected folder)', () => {
  test('the path itself matched as protectingPattern matches it', () => {
    for (const path of ['.env', 'config/.env.local', 'certs/server.pem', 'deep/a/b/c.key', '.git']) {
      assert.equal(protectingPatternOfEntry(path, defaultProtectedFiles), protectingPattern(path, defaultProtectedFiles), path);
    }
    assert.equal(protectingPatternOfEntry('src/environment.ts', defaultProtectedFiles), undefined);
  });

  test('a file inside a protected folder is left to the folder: the walk covered the folder whole', () => {
    assert.equal(protectingPattern('.env.d/extra', defaultProtectedFiles), '.env*');
    assert.equal(protectingPatternOfEntry('.env.d/extra', defaultProtectedFiles), undefined);
    assert.equal(protectingPatternOfEntry('.env.d', defaultProtectedFiles), '.env*');
  });
});

describe('path escapes through the tools, on a real folder', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  before(async () => {
    ws = await makeWorkspace({ 'src/a.ts': 'export const a = 1;\n', '.env': 'TOKEN=s3cret\n', 'certs/site.pem': 'PEM\n' });
    await symlink('/etc', join(ws.root, 'etc-link'));
    await symlink(ws.outside, join(ws.root, 'out-dir'));
    await symlink(join(ws.outside, 'secret.txt'), join(ws.root, 'secret-link.txt'));
    await symlink(join(ws.root, '.env'), join(ws.root, 'innocent.txt'));
    await symlink(join(ws.outside, 'not-yet.txt'), join(ws.root, 'dangling.txt'));
    await symlink(join(ws.root, 'src', 'a.ts'), join(ws.root, 'a-link.ts'));
  });
  after(() => ws.cleanup());

  const escapes: [string, RegExp][] = [
    ['../x', /leads outside the workspace/],
    ['a/../../x', /leads outside the workspace/],
    ['/etc/passwd', /absolute path/],
    ['C:\\Windows', /absolute path/],
    ['\\\\srv\\s', /absolute path/],
    ['~/.ssh/id_rsa', /home folder/],
    ['etc-link/passwd', /through a symbolic link/],
    ['out-dir/secret.txt', /through a symbolic link/],
    ['secret-link.txt', /through a symbolic link/],
    ['out-dir/new-file.txt', /through a symbolic link/],
    ['dangling.txt', /through a symbolic link/],
  ];
  for (const [path, reason] of escapes) {
    test(`read_file refuses ${JSON.stringify(path)}`, async () => {
      const { prepared, outcome } = await call('read_file', { path }, ws.ctx);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, reason);
      assert.equal(prepared.refusal, outcome.output);
      assert.doesNotMatch(outcome.output, /outside secret|root:/);
    });

    test(`write_file refuses ${JSON.stringify(path)} and writes nothing`, async () => {
      const { prepared, outcome } = await call('write_file', { path, content: 'pwned\n' }, ws.ctx);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, reason);
      assert.equal(prepared.preview, undefined);
    });
  }

  test('nothing outside was created or changed by the refused writes', async () => {
    assert.equal(await readFile(join(ws.outside, 'secret.txt'), 'utf8'), 'outside secret\n');
    await assert.rejects(stat(join(ws.outside, 'new-file.txt')), { code: 'ENOENT' });
    await assert.rejects(stat(join(ws.outside, 'not-yet.txt')), { code: 'ENOENT' });
  });

  test('edit_file and list_files refuse escapes too', async () => {
    const edit = await call('edit_file', { path: 'out-dir/secret.txt', old_text: 'outside', new_text: 'x' }, ws.ctx);
    assert.match(edit.outcome.output, /through a symbolic link/);
    const list = await call('list_files', { folder: '../' }, ws.ctx);
    assert.match(list.outcome.output, /leads outside the workspace/);
    const search = await call('search_text', { pattern: 'secret', folder: 'out-dir' }, ws.ctx);
    assert.match(search.outcome.output, /through a symbolic link/);
  });

  test('a symlink that stays inside works', async () => {
    const { outcome } = await call('read_file', { path: 'a-link.ts' }, ws.ctx);
    assert.deepEqual(outcome, { ok: true, output: 'export const a = 1;' });
  });

  test('protected files are neither read nor written, directly or through a symlink', async () => {
    const read = await call('read_file', { path: '.env' }, ws.ctx);
    assert.equal(read.outcome.ok, false);
    assert.match(read.outcome.output, /protected file \(matches "\.env\*"/);
    assert.doesNotMatch(read.outcome.output, /s3cret/);

    const viaLink = await call('read_file', { path: 'innocent.txt' }, ws.ctx);
    assert.equal(viaLink.outcome.ok, false);
    assert.match(viaLink.outcome.output, /a link to "\.env"/);
    assert.doesNotMatch(viaLink.outcome.output, /s3cret/);

    const pem = await call('read_file', { path: 'certs/site.pem' }, ws.ctx);
    assert.match(pem.outcome.output, /matches "\*\.pem"/);

    const write = await call('write_file', { path: '.env', content: 'TOKEN=mine\n' }, ws.ctx);
    assert.match(write.outcome.output, /protected file/);
    const writeViaLink = await call('write_file', { path: 'innocent.txt', content: 'TOKEN=mine\n' }, ws.ctx);
    assert.match(writeViaLink.outcome.output, /protected file/);
    const edit = await call('edit_file', { path: '.env', old_text: 's3cret', new_text: 'x' }, ws.ctx);
    assert.match(edit.outcome.output, /protected file/);
    const gitHook = await call('write_file', { path: '.git/hooks/pre-commit', content: 'curl evil\n' }, ws.ctx);
    assert.match(gitHook.outcome.output, /matches "\*\*\/\.git\/\*\*"/);
    const upperCase = await call('write_file', { path: 'deploy/ID.KEY', content: 'x' }, ws.ctx);
    assert.match(upperCase.outcome.output, /matches "\*\.key"/);

    assert.equal(await readFile(join(ws.root, '.env'), 'utf8'), 'TOKEN=s3cret\n');
    await assert.rejects(stat(join(ws.root, '.git')), { code: 'ENOENT' });
  });

  test('protected files and outward symlinks are left out of listings and searches', async () => {
    const list = await call('list_files', {}, ws.ctx);
    assert.equal(list.outcome.ok, true);
    const paths = list.outcome.output.split('\n');
    assert.ok(paths.includes('src/a.ts'));
    assert.ok(paths.includes('a-link.ts'));
    for (const hidden of ['.env', 'innocent.txt', 'certs/site.pem', 'etc-link/', 'out-dir/', 'secret-link.txt', 'dangling.txt']) {
      assert.ok(!paths.includes(hidden), `${hidden} listed:\n${list.outcome.output}`);
    }
    const search = await call('search_text', { pattern: 's3cret' }, ws.ctx);
    assert.match(search.outcome.output, /^No matches for s3cret/);
  });

  test('a protected pattern set by the user replaces the default', async () => {
    // The ports get the same setting, as the composition root passes it: they check every file they open against it.
    const protectedFiles = ['src/**'];
    const ctx = { ...ws.ctx, files: new NodeWorkspaceFiles(ws.root, { protectedFiles: () => protectedFiles }), protectedFiles };
    const read = await call('read_file', { path: 'src/a.ts' }, ctx);
    assert.match(read.outcome.output, /matches "src\/\*\*"/);
    const env = await call('read_file', { path: '.env' }, ctx);
    assert.equal(env.outcome.ok, true);
  });
});

describe('NodeWorkspaceFiles', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  before(async () => {
    ws = await makeWorkspace({
      '.gitignore': '# build output\ndist/\n*.log\n!keep.log\n/root-only.txt\nnested/**/tmp\n',
      'dist/out.js': '',
      'src/dist': 'a file named dist, not a folder\n',
      'app.log': '',
      'keep.log': '',
      'root-only.txt': '',
      'src/root-only.txt': '',
      'nested/a/b/tmp': '',
      'node_modules/x/index.js': '',
      'src/a.ts': '',
    });
    await symlink(ws.outside, join(ws.root, 'out'));
  });
  after(() => ws.cleanup());

  test('isIgnored follows the root .gitignore, plus node_modules and .git always', async () => {
    const files = new NodeWorkspaceFiles(ws.root);
    const expected: [string, boolean][] = [
      ['dist', true],
      ['dist/out.js', true],
      ['src/dist', false],
      ['app.log', true],
      ['keep.log', false],
      ['root-only.txt', true],
      ['src/root-only.txt', false],
      ['nested/a/b/tmp', true],
      ['node_modules', true],
      ['node_modules/x/index.js', true],
      ['.git/config', true],
      ['src/a.ts', false],
      ['.', false],
    ];
    for (const [path, ignored] of expected) assert.equal(await files.isIgnored(path, signal), ignored, path);
  });

  test('a changed .gitignore applies at once', async () => {
    const files = new NodeWorkspaceFiles(ws.root);
    assert.equal(await files.isIgnored('src/a.ts', signal), false);
    await writeFile(join(ws.root, '.gitignore'), 'src/\n');
    const later = new Date(Date.now() + 5000);
    await utimes(join(ws.root, '.gitignore'), later, later);
    assert.equal(await files.isIgnored('src/a.ts', signal), true);
  });

  test('realPathInside resolves symlinks and missing paths, and says undefined outside', async () => {
    const files = new NodeWorkspaceFiles(ws.root);
    assert.equal(await files.realPathInside('src/a.ts', signal), 'src/a.ts');
    assert.equal(await files.realPathInside('.', signal), '.');
    assert.equal(await files.realPathInside('new/dir/file.ts', signal), 'new/dir/file.ts');
    assert.equal(await files.realPathInside('out/secret.txt', signal), undefined);
    assert.equal(await files.realPathInside('out/missing/deeper.txt', signal), undefined);
  });

  test('the ports refuse a path outside even when the policy is bypassed', async () => {
    const files = new NodeWorkspaceFiles(ws.root);
    await assert.rejects(files.readText('../outside/secret.txt', signal), /outside the workspace/);
    await assert.rejects(new NodeFileChanges(ws.root).write('../outside/x.txt', 'x', signal), /outside the workspace/);
  });

  test('NodeFileChanges creates missing folders', async () => {
    await new NodeFileChanges(ws.root).write('made/up/dir/file.txt', 'hello\n', signal);
    assert.equal(await readFile(join(ws.root, 'made/up/dir/file.txt'), 'utf8'), 'hello\n');
  });
});

describe('glob matching time', () => {
  // On a backtracking engine `*a*a*…*b` against a name of a's costs about n^10 steps: 3.4 s at 30
  // characters, a minute at 40. picomatch's regex runs on re2js here, linear in the name. The bound
  // is a generous one (the match takes a millisecond); before the change this test took minutes.
  test('a glob with many stars against a long name that almost matches answers at once', () => {
    const started = cpuStart();
    assert.equal(matchesGlob(`${'a'.repeat(40)}`, '*a*a*a*a*a*a*a*a*a*a*b'), false);
    assert.equal(matchesGlob(`dir/${'a'.repeat(5000)}`, '**/*a*a*a*a*a*a*a*a*a*a*b'), false);
    assert.ok(cpuMsSince(started) < 1000, `${cpuMsSince(started)} CPU ms`);
  });

  test('a glob picomatch reads into something re2 cannot run is refused with the reason', () => {
    const long = compileGlob('x'.repeat(1001));
    assert.equal(long.ok, false);
    assert.match(long.ok ? '' : long.reason, /longer than 1000/);
  });
});

describe('ignore files at every depth', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  before(async () => {
    ws = await makeWorkspace({
      '.gitignore': '*.log\n',
      '.git/info/exclude': 'local-notes.md\n',
      'local-notes.md': '',
      'app/.gitignore': 'generated/\n/only-here.txt\n!important.log\n',
      'app/generated/x.ts': '',
      'app/only-here.txt': '',
      'app/sub/only-here.txt': '',
      'app/important.log': '',
      'app/debug.log': '',
      'app/sub/.gitignore': 'secret-*.json\n',
      'app/sub/secret-1.json': '',
      'app/sub/ok.json': '',
      'other/generated/y.ts': '',
      'other/secret-1.json': '',
      'src/a.ts': '',
    });
  });
  after(() => ws.cleanup());

  test('nested .gitignore files and .git/info/exclude apply, each relative to its folder', async () => {
    const files = new NodeWorkspaceFiles(ws.root);
    const expected: [string, boolean][] = [
      ['local-notes.md', true],
      ['app/generated', true],
      ['app/generated/x.ts', true],
      ['other/generated/y.ts', false],
      ['app/only-here.txt', true],
      ['app/sub/only-here.txt', false],
      ['app/debug.log', true],
      ['app/important.log', false],
      ['app/sub/secret-1.json', true],
      ['app/sub/ok.json', false],
      ['other/secret-1.json', false],
      ['src/a.ts', false],
    ];
    for (const [path, ignored] of expected) assert.equal(await files.isIgnored(path, signal), ignored, path);
  });

  test('list_files and search_text leave out what nested ignore files hide', async () => {
    const listed = await call('list_files', {}, ws.ctx);
    assert.equal(listed.outcome.ok, true);
    for (const hidden of ['app/generated', 'app/only-here.txt', 'app/sub/secret-1.json', 'local-notes.md', 'app/debug.log']) {
      assert.ok(!listed.outcome.output.split('\n').some((line) => line.startsWith(hidden)), `${hidden} listed:\n${listed.outcome.output}`);
    }
    for (const shown of ['app/sub/only-here.txt', 'app/important.log', 'other/generated/y.ts', 'other/secret-1.json']) {
      assert.ok(listed.outcome.output.split('\n').includes(shown), `${shown} missing:\n${listed.outcome.output}`);
    }
    await writeFile(join(ws.root, 'app/generated/x.ts'), 'needle\n');
    await writeFile(join(ws.root, 'other/generated/y.ts'), 'needle\n');
    const found = await call('search_text', { pattern: 'needle' }, ws.ctx);
    assert.equal(found.outcome.output, 'other/generated/y.ts:1: needle');
  });
});
