// What the change review reads outside the workspace (src/terminal/node/configsAround.ts, reviewReadable.ts): the
// configs of the folders above it and of the window's other folders, judged as the workspace's walk judges them, and
// never a file the command's sandbox hides. The attacks these close, run in the real sandbox, are
// test/security/attack19b-parent-editor-configs.test.ts and attack19b-review-oracle-window-secrets.test.ts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isReviewedConfig } from '../../../src/terminal/common/changeReview';
import { configsAround } from '../../../src/terminal/node/configsAround';
import { followPrograms, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { pathsRunnerConfigsPointAt } from '../../../src/terminal/node/runnerConfigs';
import { commandCouldRead, unknownIfThere } from '../../../src/terminal/node/reviewReadable';

const never = new AbortController().signal;

describe('isReviewedConfig', () => {
  test('takes the runner, repository, program and held configs by what they are', () => {
    for (const path of [
      '.envrc',
      '.husky',
      '.hg/hgrc',
      '.vscode/tasks.json',
      '.claude/settings.json',
      'x.code-workspace',
      '.roo/mcp.json',
      '.github/hooks/a.json',
    ]) {
      assert.ok(isReviewedConfig(path, path === '.husky'), path);
    }
    for (const path of ['README.md', '.vscode', 'src/index.ts', '.github/workflows/ci.yml']) assert.ok(!isReviewedConfig(path, path === '.vscode'), path);
  });
});

describe('configsAround', () => {
  let base: string;
  let root: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'review-outside-')));
    root = join(base, 'mono', 'workspace');
    await mkdir(join(root, 'scripts'), { recursive: true });
    await mkdir(join(base, 'mono', '.vscode'), { recursive: true });
    await mkdir(join(base, 'mono', '.claude'), { recursive: true });
    await mkdir(join(base, 'mono', '.github', 'hooks'), { recursive: true });
    await mkdir(join(base, 'mono', 'docs'), { recursive: true });
    await writeFile(join(base, 'mono', '.vscode', 'tasks.json'), JSON.stringify({ tasks: [{ command: 'sh workspace/scripts/build.sh' }] }));
    await writeFile(join(base, 'mono', '.claude', 'settings.json'), '{}');
    await writeFile(join(base, 'mono', '.github', 'hooks', 'hooks.json'), '{}');
    await writeFile(join(base, 'mono', 'mono.code-workspace'), '{}');
    await writeFile(join(base, 'mono', 'docs', 'notes.json'), '{}');
    await writeFile(join(base, 'mono', '.envrc'), '');
    // Another folder of the window, and a linked editor folder there.
    await mkdir(join(base, 'other', 'shared-vscode'), { recursive: true });
    await writeFile(join(base, 'other', 'shared-vscode', 'tasks.json'), JSON.stringify({ tasks: [{ command: 'sh ../mono/workspace/scripts/x.sh' }] }));
    await symlink('shared-vscode', join(base, 'other', '.vscode'));
  });
  after(async () => rm(base, { recursive: true, force: true }));

  test("lists the folders above's configs, each with the folder it was found in", async () => {
    const found = await configsAround(root, [], never);
    const mono = found.filter((config) => config.top === join(base, 'mono')).map((config) => config.path);
    assert.deepEqual(
      mono.sort(),
      ['../.claude/settings.json', '../.envrc', '../.github/hooks/hooks.json', '../.vscode/tasks.json', '../mono.code-workspace'].sort(),
    );
  });

  test("lists a window folder's configs at its top, a linked editor folder included; not one inside the workspace", async () => {
    const found = await configsAround(root, [join(base, 'other'), join(root, 'scripts')], never);
    assert.ok(found.some((config) => config.path === '../../other/.vscode/tasks.json' && config.top === join(base, 'other')));
    assert.ok(!found.some((config) => config.path.startsWith('scripts')));
  });

  test('what they run is followed from their own folder', async () => {
    const around = await configsAround(root, [join(base, 'other')], never);
    const mentioned = noneMentioned();
    await pathsRunnerConfigsPointAt({
      root,
      upper: join(base, 'no-layer'),
      configs: around.map((config) => config.path),
      tops: new Map(around.map((config) => [config.path, config.top])),
      mentioned,
    });
    // `sh workspace/scripts/build.sh` from the monorepo's top, `sh ../mono/workspace/scripts/x.sh` from the other folder's.
    assert.ok(mentioned.programs.has(join(root, 'scripts', 'build.sh')), [...mentioned.programs].join(', '));
    assert.ok(mentioned.programs.has(join(root, 'scripts', 'x.sh')), [...mentioned.programs].join(', '));
  });
});

describe('commandCouldRead', () => {
  const options = {
    root: '/w/app',
    home: '/home/u',
    protectedPatterns: ['**/.env', '**/*.pem'],
    hidden: ['/srv/other/.env', '/data/azure', '/run/user/1000', '/tmp'],
    shown: ['/run/user/1000/resolv.conf'],
  };

  test('the workspace: all but its protected files, none of which makes what runs unknown', () => {
    assert.ok(commandCouldRead('/w/app/scripts/a.sh', options));
    assert.ok(!commandCouldRead('/w/app/.env', options));
    assert.ok(!unknownIfThere('/w/app/.env', options));
  });

  test('what the sandbox hides is not read and makes what runs unknown, as the home folder', () => {
    for (const path of ['/srv/other/.env', '/data/azure/config', '/run/user/1000/x', '/tmp/x', '/home/u/.bashrc']) {
      assert.ok(!commandCouldRead(path, options), path);
      assert.ok(unknownIfThere(path, options), path);
    }
    assert.ok(commandCouldRead('/run/user/1000/resolv.conf', options));
    assert.ok(commandCouldRead('/srv/other/scripts/x.sh', options));
    assert.ok(!unknownIfThere('/srv/other/scripts/x.sh', options));
  });

  test('a protected name is never read wherever it is, even when the launch did not say it hides it', () => {
    assert.ok(!commandCouldRead('/opt/keys/id.pem', options));
    assert.ok(!commandCouldRead('/srv/third/.env', { ...options, hidden: [] }));
    assert.ok(unknownIfThere('/srv/third/.env', { ...options, hidden: [] }));
  });
});

describe('commandCouldRead: where a path leads (round 20b)', () => {
  let base: string;
  let root: string;
  let home: string;
  let options: { root: string; home: string; protectedPatterns: string[]; hidden: string[]; shown: string[] };
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'review-leads-')));
    home = join(base, 'home');
    root = join(home, 'dotfiles');
    await mkdir(join(root, 'config'), { recursive: true });
    await mkdir(join(root, 'kube'), { recursive: true });
    await mkdir(join(root, 'scripts'), { recursive: true });
    await mkdir(join(home, '.private'), { recursive: true });
    await mkdir(join(base, 'srv'), { recursive: true });
    await writeFile(join(root, '.env'), 'sh tr0ub4dor3.sh\n');
    await writeFile(join(root, 'kube', 'config'), 'server: https://h\n');
    await writeFile(join(root, 'scripts', 'check.sh'), 'echo ok\n');
    await writeFile(join(home, '.private', 'app'), 'x\n');
    await writeFile(join(base, 'srv', 'tool.sh'), 'echo tool\n');
    // The workspace's own links: to a protected file, to the covered real place of ~/.kube, into the home folder,
    // to a readable file outside, to a file of its own; one that leads nowhere.
    await symlink('../.env', join(root, 'config', 'app.conf'));
    await symlink('../kube/config', join(root, 'config', 'cluster'));
    await symlink(join(home, '.private', 'app'), join(root, 'config', 'private'));
    await symlink(join(base, 'srv', 'tool.sh'), join(root, 'config', 'tool.sh'));
    await symlink('../scripts/check.sh', join(root, 'config', 'check.sh'));
    await symlink('../nowhere', join(root, 'config', 'dangling'));
    await symlink(join(root, 'kube'), join(home, '.kube'));
    options = { root, home, protectedPatterns: ['**/.env'], hidden: [join(root, 'kube'), home, '/run/user/1000'], shown: [] };
  });
  after(async () => rm(base, { recursive: true, force: true }));

  test('a link to a protected file is not read, and, as the protected file, makes nothing unknown', () => {
    assert.ok(!commandCouldRead(join(root, 'config', 'app.conf'), options));
    assert.ok(!unknownIfThere(join(root, 'config', 'app.conf'), options));
  });

  test('a covered place inside the workspace (a linked home secret there) is not read, spelled or reached, and makes what runs unknown', () => {
    for (const path of [join(root, 'kube', 'config'), join(root, 'config', 'cluster'), join(home, '.kube', 'config')]) {
      assert.ok(!commandCouldRead(path, options), path);
      assert.ok(unknownIfThere(path, options), path);
    }
  });

  test('a link into the home folder is not read and makes what runs unknown; one that leads nowhere is not read', () => {
    assert.ok(!commandCouldRead(join(root, 'config', 'private'), options));
    assert.ok(unknownIfThere(join(root, 'config', 'private'), options));
    assert.ok(!commandCouldRead(join(root, 'config', 'dangling'), options));
  });

  test('what hides a folder holding the workspace (the home folder) does not hide the workspace; readable places stay readable', () => {
    for (const path of [
      join(root, 'scripts', 'check.sh'),
      join(root, 'config', 'check.sh'),
      join(root, 'config', 'tool.sh'),
      // Not there yet (the command's new file, read from its layer): judged by its spelling.
      join(root, 'scripts', 'new.sh'),
    ]) {
      assert.ok(commandCouldRead(path, options), path);
    }
  });

  test('an extension an interpreter adds (`sh config/app` reads config/app.sh) is judged where it leads too', async () => {
    await symlink('../.env', join(root, 'config', 'app.sh'));
    await writeFile(join(root, 'run.sh'), 'sh config/app\n');
    const mentioned = noneMentioned();
    mentioned.programs.add(join(root, 'run.sh'));
    await followPrograms({
      root,
      mentioned,
      add: () => {},
      readable: (path) => commandCouldRead(path, options),
      unknownIfThere: (path) => unknownIfThere(path, options),
    });
    assert.ok(!mentioned.names.has('tr0ub4dor3.sh'), [...mentioned.names].join(', '));
    assert.ok(mentioned.names.has('app'), [...mentioned.names].join(', '));
  });
  test("a linked installed package (`npm link`'s node_modules/lib -> ~/code/lib) is held whole, as before: nothing waits", async () => {
    await mkdir(join(home, 'code', 'lib'), { recursive: true });
    await writeFile(join(home, 'code', 'lib', 'index.js'), 'x\n');
    await mkdir(join(root, 'node_modules'), { recursive: true });
    await symlink(join(home, 'code', 'lib'), join(root, 'node_modules', 'lib'));
    await writeFile(join(root, 'lint.sh'), 'node node_modules/lib/index.js\n');
    assert.ok(unknownIfThere(join(root, 'node_modules', 'lib', 'index.js'), options));
    const mentioned = noneMentioned();
    mentioned.programs.add(join(root, 'lint.sh'));
    const added: string[] = [];
    await followPrograms({
      root,
      mentioned,
      add: (path) => added.push(path),
      readable: (path) => commandCouldRead(path, options),
      unknownIfThere: (path) => unknownIfThere(path, options),
    });
    assert.ok(added.includes(join(root, 'node_modules', 'lib', 'index.js')), added.join(', '));
  });
});
