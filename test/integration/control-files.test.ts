// Control paths (issue 21, findings 2 and 5) without the sandbox: what counts as one, the message the model
// reads, the workspace walk, the guard's walk after a command, and the quarantine's moves (real files).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, realpath, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { controlPathOf, isControlName, rollbackNote } from '../../src/terminal/common/controlPaths';
import { needsApprovalAlways } from '../../src/agent/common/approvalPolicy';
import type { ControlPathWatcher } from '../../src/terminal/common/commandPorts';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { ControlQuarantine } from '../../src/terminal/node/controlQuarantine';
import { newControlPaths, scanWorkspace, WorkspaceTooLarge } from '../../src/terminal/node/sandboxWorkspaceScan';
import { NodeControlWatcher } from '../../src/terminal/node/nodeControlWatcher';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../src/base/common/ports';
import { allTools } from '../../src/tools/common/registry';
import { defaultProtectedFiles, type ToolContext } from '../../src/tools/common/tool';
import { putFiles } from '../unit/helpers/workspaceFixture';
import { cpuMsSince, cpuStart } from '../unit/helpers/cpuTime';

const signal = new AbortController().signal;
/** A watcher that reports nothing: these tests look at the walk after a command on its own. */
const noWatcher: ControlPathWatcher = { watch: () => ({ dispose: () => undefined }) };

describe('control paths', () => {
  test('names at any depth, case-insensitively; .github/hooks only under .github', () => {
    assert.equal(controlPathOf('sub/.git/config'), 'sub/.git');
    assert.equal(controlPathOf('a/b/.VSCode/tasks.json'), 'a/b/.VSCode');
    assert.equal(controlPathOf('.husky/pre-commit'), '.husky');
    assert.equal(controlPathOf('x/my.code-workspace'), 'x/my.code-workspace');
    assert.equal(controlPathOf('lib/.envrc'), 'lib/.envrc');
    assert.equal(controlPathOf('tools/.github/hooks/run.json'), 'tools/.github/hooks');
    assert.equal(controlPathOf('.github/workflows/ci.yml'), undefined);
    assert.equal(controlPathOf('hooks/x'), undefined);
    assert.equal(controlPathOf('src/.gitignore'), undefined);
    assert.equal(controlPathOf('src/git/x.ts'), undefined);
    assert.equal(isControlName('.git', ''), true);
    assert.equal(isControlName('hooks', '.github'), true);
  });

  test('a write_file to a control path asks in every mode: the same list as the sandbox', () => {
    for (const path of ['lib/.envrc', 'tools/.github/hooks/run.json', 'a/.husky/pre-commit', 'w.code-workspace', 'x/.git/config']) {
      assert.equal(needsApprovalAlways(path, []), true, path);
    }
    assert.equal(needsApprovalAlways('.github/workflows/ci.yml', []), false);
  });

  test('the model is told what was moved, why, and not to try again another way; at most 20 names', () => {
    const moved = Array.from({ length: 25 }, (_, index) => ({ path: `p${index}/.git`, kind: 'directory' as const, kept: index !== 0 }));
    const note = rollbackNote({ moved, failed: [{ path: 'q/.envrc', reason: 'its folder q was moved' }] }, true);
    assert.match(note, /^Stopped: the command created a control file while it ran/);
    assert.match(note, /- p0\/\.git \(a Git repository\) — deleted, too large to keep\n- p1\/\.git \(a Git repository\)\n/);
    assert.match(note, /- and 5 more\n/);
    assert.match(note, /Do not create them again in another way/);
    assert.match(note, /Could not move q\/\.envrc out of the workspace: its folder q was moved/);
    assert.equal(rollbackNote({ moved: [], failed: [] }, false), '');
  });
});

describe('the workspace walk and the guard (real files)', () => {
  let base: string;
  let root: string;
  let outside: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'control-unit-')));
    root = join(base, 'workspace');
    outside = join(base, 'outside');
    await putFiles(root, { '.git/HEAD': 'x\n', 'node_modules/a/.git/HEAD': 'x\n', 'src/a.ts': '\n', '.envrc': 'x\n' });
    await putFiles(outside, { '.git/config': '[core]\n', 'sub/.git/config': '[core]\n', 'keep.txt': 'keep\n' });
    await symlink(outside, join(root, 'linked'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  test('the walk finds control paths in node_modules, never follows a link, and covers protected ones', async () => {
    const scan = await scanWorkspace(root, { protectedPatterns: ['.env*'], signal });
    assert.deepEqual([...scan.controls.keys()].sort(), ['.envrc', '.git', 'node_modules/a/.git']);
    assert.deepEqual(scan.hidden, [{ path: join(root, '.envrc'), directory: false }]);
    assert.deepEqual(scan.readOnly.sort(), [join(root, '.git'), join(root, 'node_modules/a/.git')]);
  });

  test('a workspace too large to walk is refused with a reason', async () => {
    await putFiles(root, Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`many/${index}`, ''])));
    let time = 0;
    await assert.rejects(scanWorkspace(root, { signal, now: () => (time += 1000), timeLimitMs: 10_000 }), WorkspaceTooLarge);
    await rm(join(root, 'many'), { recursive: true });
  });

  test('a path replaced by another of the same name is new', async () => {
    const before = (await scanWorkspace(root, { signal })).controls;
    await rename(join(root, 'node_modules/a'), join(root, 'node_modules/b'));
    await putFiles(root, { 'node_modules/a/.git/HEAD': 'planted\n' });
    const added = newControlPaths(before, (await scanWorkspace(root, { signal })).controls);
    assert.deepEqual(
      added.map((entry) => entry.path),
      ['node_modules/a/.git', 'node_modules/b/.git'],
    );
    await rm(join(root, 'node_modules'), { recursive: true });
    await putFiles(root, { 'node_modules/a/.git/HEAD': 'x\n' });
  });

  // 2,000, each holding a folder: far past the moves in flight (8) and the note's 20 names. Two moves running at
  // once that took one item name (the old count of items moved so far) fail here: a folder is not renamed over
  // one that is not empty. The 10,000 of a real command, watcher and sandbox included, stay in
  // test/security/control-files.test.ts; here 10,000 empty folders cost most of the unit stage's file-system
  // time (creating, walking and renaming 30,000 folders) and, empty, let that clash pass unseen.
  test('2,000 control paths left by a command are all moved out, in bounded time', async () => {
    const guard = new NodeControlGuard({ root, quarantineFolder: join(base, 'quarantine'), watcher: noWatcher, willSandbox: () => true });
    const watch = await guard.watch(signal);
    assert.ok(watch);
    // One mkdir process makes them all: two thousand calls from here would take most of the test's time.
    const made = spawnSync('mkdir', ['-p', ...Array.from({ length: 2_000 }, (_, index) => `planted/${index}/.vscode/held`)], { cwd: root });
    assert.equal(made.status, 0);
    const started = cpuStart();
    const rollback = await watch.settle(signal);
    assert.ok(cpuMsSince(started) < 20_000, `settling took ${cpuMsSince(started)} CPU ms`);
    assert.equal(rollback.moved.length, 2_000);
    assert.deepEqual(rollback.failed, []);
    const left = (await scanWorkspace(root, { signal })).controls;
    assert.deepEqual([...left.keys()].sort(), ['.envrc', '.git', 'node_modules/a/.git']);
    await rm(join(root, 'planted'), { recursive: true });
  });

  test('no watch when the command will not run sandboxed (the user approved it)', async () => {
    const guard = new NodeControlGuard({ root, quarantineFolder: join(base, 'q2'), watcher: noWatcher, willSandbox: () => false });
    assert.equal(await guard.watch(signal), undefined);
  });

  test('a quarantine inside the workspace is refused: the sandbox could reach what it keeps', async () => {
    const guard = new NodeControlGuard({ root, quarantineFolder: join(root, 'q'), watcher: noWatcher, willSandbox: () => true });
    await assert.rejects(guard.watch(signal), /quarantine folder for control files is inside the workspace/);
  });

  test('a command the user approved (not sandboxed) may create a repository: run_command leaves it', async () => {
    const ctx: ToolContext = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, { shell: '/bin/sh' }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      controlGuard: new NodeControlGuard({ root, quarantineFolder: join(base, 'q5'), watcher: new NodeControlWatcher(), willSandbox: () => false }),
    };
    const runCommand = allTools.find((tool) => tool.name === 'run_command')!;
    const outcome = await (await runCommand.prepare({ command: 'git init -q approved && echo done' }, ctx, signal)).execute(signal);
    assert.equal(outcome.output, 'Exit code 0.\ndone\n');
    assert.ok(existsSync(join(root, 'approved/.git/HEAD')));
    await rm(join(root, 'approved'), { recursive: true });
  });

  test('a move never takes what a folder swapped for a link leads to', async () => {
    const batch = await new ControlQuarantine({ root, folder: join(base, 'q3') }).openBatch(signal);
    // The last folder on the way is a link now, and a folder further up: both lead outside.
    await batch.moveAside('linked/.git', 'directory', signal);
    await batch.moveAside('linked/sub/.git', 'directory', signal);
    assert.deepEqual(
      batch.rollback.failed.map((failed) => failed.path),
      ['linked/.git', 'linked/sub/.git'],
    );
    assert.match(batch.rollback.failed[0].reason, /gone or is a link now/);
    assert.match(batch.rollback.failed[1].reason, /was moved while it was being taken out/);
    assert.equal(await readFile(join(outside, '.git/config'), 'utf8'), '[core]\n');
    assert.equal(await readFile(join(outside, 'sub/.git/config'), 'utf8'), '[core]\n');
  });

  test('on another file system a path is renamed aside at once, then copied out and deleted; restore puts it back', async () => {
    const shm = await mkdtemp('/dev/shm/control-quarantine-');
    try {
      await putFiles(root, { 'web/.vscode/tasks.json': '{"tasks":[]}\n' });
      const batch = await new ControlQuarantine({ root, folder: shm }).openBatch(signal);
      await batch.moveAside('web/.vscode', 'directory', signal);
      const held = (await readdir(join(root, 'web'))).filter((name) => name.startsWith('.gateway-held-'));
      assert.equal(held.length, 1, 'renamed in place, no longer a control path');
      assert.equal(existsSync(join(root, 'web/.vscode')), false);
      await batch.settleHeld(signal);
      assert.deepEqual(await readdir(join(root, 'web')), []);
      assert.deepEqual(batch.rollback.moved, [{ path: 'web/.vscode', kind: 'directory', kept: true }]);
      await batch.restore('web/.vscode', signal);
      assert.equal(await readFile(join(root, 'web/.vscode/tasks.json'), 'utf8'), '{"tasks":[]}\n');
      await rm(join(root, 'web'), { recursive: true });
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  test('the quarantine keeps a bounded number of batches', async () => {
    const folder = join(base, 'q4');
    const quarantine = new ControlQuarantine({ root, folder, maxBatches: 3 });
    for (let index = 0; index < 6; index++) await quarantine.openBatch(signal);
    assert.equal((await readdir(folder)).length, 3);
  });
});
