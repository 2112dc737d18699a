// Issue 36: how a sandboxed command's change set is judged (terminal/common/changeReview.ts), what Git's own rules
// say about a folder and a config (terminal/node/gitStructure.ts, on real files), and the protected-file cache
// that replaced the walk before every command (terminal/node/protectedPathCache.ts).
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, realpath, rename, rm, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { holdReason, judgeChanges, type ChangedEntry } from '../../../src/terminal/common/changeReview';
import { configEntries, isGitDirectory, pathsConfigPointsAt } from '../../../src/terminal/node/gitStructure';
import { ProtectedPathCache } from '../../../src/terminal/node/protectedPathCache';
import { AGENT_CONFIG_BYTES, isAgentConfigCandidate, namesProgramsAt, namesProgramsIn } from '../../../src/terminal/node/agentConfigs';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { putFiles } from '../helpers/workspaceFixture';

const never = new AbortController().signal;
const noRepositories = { gitDirectories: new Set<string>(), pointedAt: [] };
const file = (path: string, extra: Partial<ChangedEntry> = {}): ChangedEntry => ({ path, kind: 'file', mode: 0o644, existed: false, ...extra });
const folder = (path: string, extra: Partial<ChangedEntry> = {}): ChangedEntry => ({ path, kind: 'directory', mode: 0o755, existed: false, ...extra });

describe('the change review: what lands and what is held', () => {
  test('ordinary files and folders land, a folder before what it holds', () => {
    const verdict = judgeChanges(
      [file('src/b.ts'), folder('src'), file('a.txt', { existed: true }), { path: 'old.txt', kind: 'deleted', mode: 0, existed: true }],
      noRepositories,
      {
        protectedPatterns: defaultProtectedFiles,
      },
    );
    assert.deepEqual(
      verdict.land.map((entry) => entry.path),
      ['a.txt', 'old.txt', 'src', 'src/b.ts'],
    );
    assert.deepEqual(verdict.held, []);
  });

  test('each kind of entry that other software would run, or that is not an ordinary file, is held with its reason', () => {
    const cases: [ChangedEntry, string][] = [
      [folder('x/.GIT'), 'repository'],
      [file('notes', { gitLink: true }), 'git-link'],
      [folder('.vscode'), 'editor-or-agent'],
      [file('proj.code-workspace'), 'editor-or-agent'],
      [file('.github/hooks/h.json'), 'editor-or-agent'],
      [file('deep/.claude/settings.local.json'), 'editor-or-agent'],
      [file('.mcp.json'), 'editor-or-agent'],
      [file('.env.local'), 'protected'],
      [{ path: 'l', kind: 'symlink', mode: 0o777, existed: false }, 'symlink'],
      [{ path: 'p', kind: 'special', mode: 0o644, existed: false }, 'special'],
      [file('h', { hardLinked: true }), 'hard-link'],
      [file('s', { mode: 0o4755, wasExecutable: true, existed: true }), 'setuid'],
      [file('run.sh', { mode: 0o755 }), 'executable'],
      [file('tool', { mode: 0o755, existed: true, wasExecutable: false }), 'executable'],
      [file('mine.txt', { existed: true, changedOutside: true }), 'changed-outside'],
      [{ path: 'vendor', kind: 'deleted', mode: 0, existed: true, removesRepository: true }, 'removes-repository'],
    ];
    for (const [entry, reason] of cases) assert.equal(holdReason(entry, noRepositories, defaultProtectedFiles), reason, entry.path);
    // An executable that was one already (a script edited) lands.
    assert.equal(holdReason(file('build.sh', { mode: 0o755, existed: true, wasExecutable: true }), noRepositories, defaultProtectedFiles), undefined);
  });

  test('a git directory by layout, and what a repository config points at, are held whole, below them too', () => {
    const facts = { gitDirectories: new Set(['tools/cache']), pointedAt: ['.githooks', 'scripts/clean.sh'] };
    const verdict = judgeChanges(
      [
        folder('tools'),
        folder('tools/cache'),
        file('tools/cache/HEAD'),
        file('tools/readme'),
        folder('.githooks'),
        file('.githooks/pre-commit'),
        file('scripts/clean.sh'),
        file('scripts/other.sh'),
      ],
      facts,
      { protectedPatterns: [] },
    );
    assert.deepEqual(
      verdict.held.map((held) => `${held.entry.path}: ${held.reason}`),
      ['.githooks: repository-config', 'scripts/clean.sh: repository-config', 'tools/cache: repository'],
    );
    assert.deepEqual(
      verdict.land.map((entry) => entry.path),
      ['tools', 'scripts/other.sh', 'tools/readme'],
    );
    // Deleting a folder that holds what a config points at is held too.
    assert.equal(holdReason({ path: 'scripts', kind: 'deleted', mode: 0, existed: true }, facts, []), 'repository-config');
    // So is a file put where that folder was (round 17: overlayfs leaves no whiteout then, the file removes the folder).
    assert.equal(holdReason(file('scripts', { existed: true, removesFolder: true }), facts, []), 'repository-config');
    assert.equal(holdReason(file('scripts', { existed: true }), { ...facts, pointedAt: [] }, []), undefined);
  });

  test('an entry put where a folder was is judged by what that folder held (round 17)', () => {
    const replacing = file('vendor/lib', { existed: true, removesFolder: true, removesRepository: true });
    assert.equal(holdReason(replacing, noRepositories, []), 'removes-repository');
    assert.equal(holdReason({ ...replacing, removesRepository: false, changedOutside: true }, noRepositories, []), 'changed-outside');
    assert.equal(holdReason({ ...replacing, removesRepository: false }, noRepositories, []), undefined);
  });

  test('past a bound, everything waits for the user', () => {
    const verdict = judgeChanges([file('a.txt'), folder('b')], noRepositories, { protectedPatterns: [], incomplete: true });
    assert.deepEqual(verdict.land, []);
    assert.deepEqual(
      verdict.held.map((held) => held.reason),
      ['unchecked', 'unchecked'],
    );
  });
});

describe("agents' configs: by name, and by what they are", () => {
  const HOOKS = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'sh x.sh' }] }] } });
  const SERVERS = JSON.stringify({ mcpServers: { x: { command: 'sh', args: ['x.sh'] } } });
  /** How the review judges a new file of `path` with `text` (the shape read as changeLayer.ts reads it). */
  const judged = (path: string, text: string | Buffer) => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    const namesPrograms = isAgentConfigCandidate(path) && namesProgramsIn(bytes, bytes.length, path);
    return holdReason(file(path, { namesPrograms }), noRepositories, defaultProtectedFiles);
  };

  test("the agents' project configs round 17 found are held by name, whatever their text", () => {
    const named = [
      'opencode.jsonc',
      '.factory/settings.json',
      '.factory/hooks.json',
      '.factory/mcp.json',
      '.augment/settings.json',
      '.qoder/settings.json',
      '.amp/settings.json',
      'lsp.json',
      '.github/lsp.json',
      '.github/mcp.json',
      'bunfig.toml',
      '.pnpmfile.cjs',
      'packages/web/bunfig.toml',
    ];
    for (const path of named) assert.equal(judged(path, '{}'), 'editor-or-agent', path);
    // The rest of .github runs on GitHub's machines, not here.
    assert.equal(judged('.github/workflows/ci.yml', 'on: push\n'), undefined);
  });

  test("an unnamed agent's config with hooks or servers at its top is held, in a dot-folder or at the workspace's top", () => {
    const cases: [string, string][] = [
      ['.newagent/settings.json', HOOKS],
      ['deep/.newagent/config.json', SERVERS],
      ['.newagent/settings.jsonc', `{\n  // a comment\n  "mcp": { "x": { "command": ["sh"] } },\n}`],
      ['newagent.json', JSON.stringify({ lspServers: { x: { command: 'sh' } } })],
      ['.newagent/config.toml', '[mcp_servers.x]\ncommand = "sh"\n'],
      ['.newagent/config.toml', '"hooks".pre = "sh x.sh"\n'],
      ['.newagent/config.yaml', 'name: x\nmcpServers:\n  x:\n    command: sh\n'],
      ['.newagent/config.yml', '---\n"\\x68ooks":\n  start: sh x.sh\n'],
      ['.newagent/config.yaml', '{lsp: {x: {command: sh}}}\n'],
      ['.amp2/settings.json', JSON.stringify({ 'amp.mcpServers': { x: { command: 'sh' } } })],
      ['.newagent/mcp.json', JSON.stringify({ servers: { x: { command: 'sh' } } })],
      // Droid's hooks.json shape: events at the top.
      ['.newagent/hooks.json', JSON.stringify(JSON.parse(HOOKS).hooks)],
      // An escape-spelled key is the key to the program's parser.
      ['.newagent/settings.json', '{"\\u0068ooks": {}}'],
      // JSON5 that JSON.parse refuses: read loosely.
      ['.newagent/settings.json5', '{hooks: {start: "sh x.sh"}}'],
      // No ordinary package.json has `hooks` at its top: held like any other config.
      ['package.json', JSON.stringify({ name: 'x', hooks: { start: 'sh x.sh' } })],
      // The word rule holds a nested key or a value too (fail closed): a CI job's `hooks`.
      ['.gitlab-ci.yml', 'test:\n  hooks:\n    pre_get_sources_script: echo hi\n  script: make\n'],
      // cosmiconfig's extension-less rc files, JSON or YAML by their content.
      ['.newagentrc', SERVERS],
      ['.config/newagentrc', 'hooks:\n  start: sh x.sh\n'],
    ];
    for (const [path, text] of cases) assert.equal(judged(path, text), 'agent-config', `${path}: ${text}`);
  });

  test("ordinary project files land: no agent's key at their top", () => {
    const cases: [string, string][] = [
      // husky 4's hooks are nested under `husky` (packageHooks.ts judges them when they change).
      ['package.json', JSON.stringify({ name: 'x', husky: { hooks: { 'pre-commit': 'lint' } }, dependencies: { 'react-hooks': '1' } })],
      ['tsconfig.json', '{\n  // comment\n  "compilerOptions": { "strict": true },\n}'],
      ['.eslintrc.json', JSON.stringify({ plugins: ['react-hooks'], rules: { 'react-hooks/rules-of-hooks': 'error' } })],
      ['.eslintrc', 'plugins:\n  - react-hooks\nrules:\n  react-hooks/exhaustive-deps: warn\n'],
      ['.gitconfig.json', JSON.stringify({ 'git-hooks-path': '.githooks' })],
      ['docker-compose.yml', 'services:\n  web:\n    image: nginx\n    command: npm start\n'],
      // A package.json is strict JSON: its top level only (a description's prose, husky 4's nested `hooks`).
      ['package.json', JSON.stringify({ name: 'x', description: 'MCP servers and hooks', husky: { hooks: { 'pre-commit': 'lint' } } })],
      ['.nvmrc', '20\n'],
      ['pyproject.toml', '[project]\nname = "x"\n[tool.ruff]\nline-length = 100\n'],
      ['.config/app.yaml', 'servers:\n  - host: a\n'],
      // Not read: not a config format, or not in a dot-folder nor at the top.
      ['src/settings.json', HOOKS],
      ['.newagent/notes.txt', HOOKS],
      // What a package manager unpacks is no project's config.
      ['node_modules/.pnpm/x/package.json', HOOKS],
    ];
    for (const [path, text] of cases) assert.equal(judged(path, text), undefined, `${path}: ${text}`);
  });

  test("round 18's spellings: each parser's reading of the key is one of the word rule's readings", () => {
    const cases: [string, string | Buffer][] = [
      // 1: escapes in a YAML flow top and under a merge key.
      ['.newagent/config.yaml', '{"\\x68ooks": {start: sh x.sh}}\n'],
      ['agent.yaml', 'base: &b\n  "\\u0068ooks": {}\n<<: *b\n'],
      // 2: JSON5's identity escape and line continuation, jsonc-parser's dropped bad escape, a comment before `:`.
      ['.newagent/config.json5', '{"mcp\\Servers": {}}'],
      ['.newagent/config.json5', '{"ho\\\noks": {}}'],
      ['.newagent/config.jsonc', '{"hoo\\oks": {},}'],
      ['.newagent/config.json5', '{mcpServers /* c */ : {},}'],
      ['.newagent/config.json5', '{/* c */hooks: {}}'],
      ['.newagent/config.json5', '{hooks/* c */: {}}'],
      // 3: lone CR, U+2028 and NEL line breaks.
      ['.newagent/config.yaml', 'name: x\rhooks: {}\r'],
      ['.newagent/config.yaml', 'name: x\u2028mcpServers: {}'],
      ['.newagent/config.yaml', 'name: x\u0085hooks: {}'],
      // 4: the key on the `---` line.
      ['.newagent/config.yaml', '--- hooks: {}\n'],
      ['.newagent/config.yaml', '--- &a "\\x6cspServers": {}\n'],
      // 6: extension-less rc files.
      ['.newagentrc', '{"mcpServers": {}}'],
      // 7: a line comment ended by a CR or U+2028.
      ['.newagent/mcp.json', '{"name": "x" // note\r, "mcpServers": {}\n}'],
      ['agent.json5', '{name: "x" // note\u2028, mcpServers: {}\n}'],
      // 11: UTF-16 with a BOM, LE and BE, and without one.
      ['.newagent/config.yaml', Buffer.from('\ufeffhooks:\n  a: b\n', 'utf16le')],
      ['.newagent/config.yaml', Buffer.from('\ufeffhooks:\n  a: b\n', 'utf16le').swap16()],
      ['agent.json', Buffer.from('{"mcpServers": {}}', 'utf16le')],
      // 12: a properties line with a comment.
      ['.newagent/config.yaml', '!!map # c\n  hooks: {}\n'],
      // 13: blanks past any bound.
      ['.newagent/config.yaml', `hooks${' '.repeat(300)}: {}\n`],
      ['.newagent/config.toml', `[${' '.repeat(300)}mcp_servers.x]\ncommand = "sh"\n`],
      // Other escapes: \u{…}, octal, TOML's line-ending backslash, a dotted key.
      ['.newagent/config.json5', '{"\\u{68}ooks": {}}'],
      ['.newagent/config.yaml', '"\\150ooks": {}\n'],
      ['.newagent/config.toml', '"amp.mcp\\   \n   Servers" = 1\n'],
      // Droid's hooks.json events of command entries, without a `hooks` key.
      ['.newagent/events.json', JSON.stringify({ PreToolUse: [{ type: 'command', command: 'sh x.sh' }] })],
      // Not decodable: UTF-32, bytes no UTF-8 is, a NUL.
      ['.newagent/config.yaml', Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0])],
      ['.newagent/config.yaml', Buffer.from([0x61, 0x3a, 0x20, 0xc3, 0x28])],
      ['.newagent/config.yaml', 'a: b\n\0'],
    ];
    for (const [path, text] of cases) assert.equal(judged(path, text), 'agent-config', `${path}: ${JSON.stringify(text.toString())}`);
  });

  test("real files land: this repository's own package.json and package-lock.json", async () => {
    for (const path of ['package.json', 'package-lock.json', 'tsconfig.json']) {
      const text = await readFile(join(process.cwd(), path)).catch(() => undefined);
      if (text) assert.equal(judged(path, text), undefined, path);
    }
  });

  test('read from the file, bounded: a file past the size bound is held unread wherever it is, a large one under it is read', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'gw-agentconfigs-')));
    try {
      const big = `{"data": "${'x'.repeat(2 * 1024 * 1024)}"}`;
      await putFiles(base, { 'small.json': HOOKS, 'plain.json': '{"a": 1}', 'big.json': big, 'bighooks.yaml': `hooks: {}\n#${'x'.repeat(2 * 1024 * 1024)}\n` });
      assert.equal(namesProgramsAt(join(base, 'small.json'), '.newagent/settings.json'), true);
      assert.equal(namesProgramsAt(join(base, 'plain.json'), '.newagent/settings.json'), false);
      assert.equal(namesProgramsAt(join(base, 'big.json'), 'package-lock.json'), false);
      assert.equal(namesProgramsAt(join(base, 'bighooks.yaml'), 'agent.yaml'), true);
      await writeFile(join(base, 'huge.json'), '');
      await truncate(join(base, 'huge.json'), AGENT_CONFIG_BYTES + 1);
      assert.equal(namesProgramsAt(join(base, 'huge.json'), 'package-lock.json'), true);
      // A link is never followed (the command could point it at the user's files): held for what it is, a link.
      await symlink(join(base, 'plain.json'), join(base, 'link.json'));
      assert.equal(namesProgramsAt(join(base, 'link.json'), '.newagent/settings.json'), true);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe("Git's own rules, on real files", () => {
  let base: string;
  before(async () => (base = await realpath(await mkdtemp(join(tmpdir(), 'gw-gitrules-')))));
  after(() => rm(base, { recursive: true, force: true }));

  test('a folder is a git directory by HEAD with objects and refs, or with a commondir, whatever its name', async () => {
    await putFiles(base, {
      'bare/HEAD': 'ref: refs/heads/main\n',
      'bare/objects/.keep': '',
      'bare/refs/.keep': '',
      'wt/HEAD': 'x\n',
      'wt/commondir': '../bare\n',
      'no/HEAD': 'x\n',
      'no/objects/.keep': '',
    });
    assert.equal(await isGitDirectory(join(base, 'bare')), true);
    assert.equal(await isGitDirectory(join(base, 'wt')), true);
    assert.equal(await isGitDirectory(join(base, 'no')), false);
  });

  test('config entries: sections, subsections, values on the header line, comments and quotes', () => {
    const entries = configEntries(
      '[core]\n\thooksPath = .githooks ; note\n[filter "fmt"]\n\tclean = "./x.sh %f"\n[include] path = ../.gitconfig\n# c\n[alias]\n\tst = !./tools/st\n',
    );
    assert.deepEqual(entries, [
      { key: 'core.hookspath', value: '.githooks' },
      { key: 'filter.fmt.clean', value: './x.sh %f' },
      { key: 'include.path', value: '../.gitconfig' },
      { key: 'alias.st', value: '!./tools/st' },
    ]);
    // A # or ; inside quotes is part of the value, as Git reads it; escapes are undone.
    assert.deepEqual(configEntries('[alias]\n\tship = "!f() { npm test ; ./tools/release.sh; }; f" # note\n\tq = "say \\"hi\\"" ; x\n'), [
      { key: 'alias.ship', value: '!f() { npm test ; ./tools/release.sh; }; f' },
      { key: 'alias.q', value: 'say "hi"' },
    ]);
  });

  test('what a repository points at: includes (followed), hooks path, worktree, programs; nothing outside the workspace', async () => {
    const root = join(base, 'ws');
    await putFiles(root, {
      '.git/config':
        '[include]\n\tpath = ../.gitconfig\n[core]\n\thooksPath = .githooks\n\tfsmonitor = tools/monitor.sh\n[diff "x"]\n\ttextconv = /usr/bin/cat\n',
      '.gitconfig': '[filter "f"]\n\tsmudge = ./scripts/smudge.sh --fast\n[include]\n\tpath = /etc/elsewhere\n',
    });
    const paths = await pathsConfigPointsAt({ gitDir: join(root, '.git'), workTree: root, root, home: base, globalConfigs: [] });
    assert.deepEqual(paths.sort(), ['.gitconfig', '.githooks', 'scripts/smudge.sh', 'tools/monitor.sh']);
  });
});

describe('the protected files, without a walk before every command', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gw-protected-')));
    await putFiles(root, { 'src/a.ts': '', 'src/deep/.env': 'S=1', 'keys/id.pem': 'k', '.git/config': '', 'node_modules/x/.env': '' });
  });
  after(() => rm(root, { recursive: true, force: true }));

  /** Every folder's time well in the past, as in a workspace nobody touched for a while. */
  const age = async (...folders: string[]) => {
    const old = new Date(Date.now() - 60_000);
    for (const path of folders) await utimes(join(root, path), old, old);
  };

  test('found as a walk finds them; .git and node_modules are not looked in; the repositories found on the way', async () => {
    const cache = new ProtectedPathCache();
    const hidden = await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(hidden.map((entry) => entry.path.slice(root.length + 1)).sort(), ['keys/id.pem', 'src/deep/.env']);
    // The same look finds the folders that hold a repository (the review reads their configs).
    assert.deepEqual((await cache.look(root, defaultProtectedFiles, never)).repositories, ['']);
  });

  test('a protected folder is covered whole, once: what is in it is not listed again', async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), 'gw-protected-folder-')));
    try {
      await putFiles(other, { '.env.d/extra': 'S=1', '.env.d/more/.env': 'S=2', 'ok/.env.d/x': 'S=3' });
      const hidden = await new ProtectedPathCache().hiddenIn(other, defaultProtectedFiles, never);
      const relative = hidden.map((entry) => [entry.path.slice(other.length + 1), entry.directory]);
      assert.deepEqual(relative.sort(), [
        ['.env.d', true],
        ['ok/.env.d', true],
      ]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  test('a new one, one renamed in, one gone, a folder swapped for a link: each seen at the next look', async () => {
    const cache = new ProtectedPathCache();
    await age('', 'src', 'src/deep', 'keys');
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    await writeFile(join(root, 'src/.env.production'), 'S=2');
    await writeFile(join(root, 'src/notes'), 'n');
    await rename(join(root, 'src/notes'), join(root, 'src/deep/server.key'));
    await rm(join(root, 'keys/id.pem'));
    await mkdir(join(root, 'elsewhere'));
    await writeFile(join(root, 'elsewhere/.env'), 'S=3');
    await rm(join(root, 'src/deep'), { recursive: true });
    await symlink(join(root, 'elsewhere'), join(root, 'src/deep'));
    const hidden = (await cache.hiddenIn(root, defaultProtectedFiles, never)).map((entry) => entry.path.slice(root.length + 1)).sort();
    assert.deepEqual(hidden, ['elsewhere/.env', 'src/.env.production']);
  });

  test('a folder whose time is unchanged is not read again (the walk is gone); a changed one is, and only it', async () => {
    const reads: string[] = [];
    const cache = new ProtectedPathCache({
      readFolder: (path) => {
        reads.push(path.slice(root.length + 1));
        return readdir(path, { withFileTypes: true });
      },
    });
    await age('', 'src', 'keys', 'elsewhere');
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.ok(reads.length >= 4, reads.join(' '));
    reads.length = 0;
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, []);
    await writeFile(join(root, 'keys/late.pem'), 'k');
    const again = (await cache.hiddenIn(root, defaultProtectedFiles, never)).map((entry) => entry.path.slice(root.length + 1));
    assert.deepEqual(reads, ['keys']);
    assert.ok(again.includes('keys/late.pem'), again.join(' '));
  });

  test('a folder changed just before a look is read again at the next one only, not for seconds (kernel-clock filesystems)', async () => {
    const reads: string[] = [];
    let later = 0;
    const cache = new ProtectedPathCache({
      now: () => Date.now() + later,
      readFolder: (path) => {
        reads.push(path.slice(root.length + 1));
        return readdir(path, { withFileTypes: true });
      },
    });
    await age('', 'src', 'keys', 'elsewhere');
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    await writeFile(join(root, 'keys/fresh.pem'), 'k');
    reads.length = 0;
    // Read in the same tick as the change: that read cannot stand, so the next look reads again…
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, ['keys']);
    later = 100;
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, ['keys', 'keys']);
    // …and once it was read well after its time, it stands while the folder is unchanged.
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, ['keys', 'keys']);
  });

  test('a folder whose time is a whole second (a coarse clock, or set by hand) is read again for 2 s after it', async () => {
    const reads: string[] = [];
    let later = 0;
    const cache = new ProtectedPathCache({
      now: () => Date.now() + later,
      readFolder: (path) => {
        reads.push(path.slice(root.length + 1));
        return readdir(path, { withFileTypes: true });
      },
    });
    await age('', 'src', 'elsewhere');
    const whole = Math.floor(Date.now() / 1000);
    await utimes(join(root, 'keys'), whole, whole);
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    reads.length = 0;
    later = 500;
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, ['keys']);
    later = 2500;
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    await cache.hiddenIn(root, defaultProtectedFiles, never);
    assert.deepEqual(reads, ['keys', 'keys']);
  });
});
