// Control paths and the change review around a sandboxed command, without the sandbox (real files, no bubblewrap):
// what counts as a control path (the file tools ask before writing one), the message the model reads, the
// protected files the sandbox covers, and the guard: a change layer whose upper folder a test writes into as overlayfs would
// (new entries only: whiteouts need a real overlay, test/security/control-files.test.ts has those), then the
// review, Apply and Discard on real folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { judgeChanges, type ChangedEntry } from '../../src/terminal/common/changeReview';
import { controlPathOf, isControlName, rollbackNote } from '../../src/terminal/common/controlPaths';
import { needsApprovalAlways } from '../../src/agent/common/approvals/approvalPolicy';
import type { ControlPathWatcher, QuarantinedControlPaths } from '../../src/terminal/common/commandPorts';
import type { ChangeLayer } from '../../src/terminal/node/changeLayer';
import { NodeControlGuard, type CoverageTold, type NodeControlGuardOptions } from '../../src/terminal/node/controlGuard';
import { ProtectedPathCache, WorkspaceTooLarge } from '../../src/terminal/node/protectedPathCache';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../src/base/common/ports';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { putFiles } from '../unit/helpers/workspaceFixture';
import { cpuMsSince, cpuStart } from '../unit/helpers/cpuTime';

const signal = new AbortController().signal;
const runCommand = allTools.find((tool) => tool.name === 'run_command')!;
const REPOSITORY = /^a Git repository or git directory/;
const EDITOR = /^settings, tasks or hooks that VS Code or another agent runs$/;

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

  test('a write_file to a control path asks in every mode', () => {
    for (const path of ['lib/.envrc', 'tools/.github/hooks/run.json', 'a/.husky/pre-commit', 'w.code-workspace', 'x/.git/config']) {
      assert.equal(needsApprovalAlways(path, []), true, path);
    }
    assert.equal(needsApprovalAlways('.github/workflows/ci.yml', []), false);
  });

  test('the model is told what was held, why, and not to try again another way; at most 20 names', () => {
    const reason = 'a Git repository or git directory (Git would open it and run its config)';
    const moved = Array.from({ length: 25 }, (_, index) => ({ path: `p${index}/.git`, kind: 'directory' as const, kept: true, reason }));
    // Without a reason the kind and name say what it is.
    delete (moved[1] as { reason?: string }).reason;
    const note = rollbackNote({ moved, failed: [{ path: 'q/a.txt', reason: 'its folder q was moved while the change was landing' }] }, true);
    assert.match(note, /^Stopped: a protected file appeared in the workspace while the command ran, so it was killed at once\.\n/);
    assert.match(note, /\nHeld back: the command ran on a copy of the workspace; its ordinary changes were applied, but these were not, because/);
    assert.match(
      note,
      /\n- p0\/\.git \(a Git repository or git directory \(Git would open it and run its config\)\)\n- p1\/\.git \(a Git repository\)\n- p2\/\.git /,
    );
    assert.match(note, /\n- p19\/\.git \([^\n]*\)\n- and 5 more\n/);
    assert.doesNotMatch(note, /p20\//);
    assert.match(note, /\nDo not create them again in another way \(another command, a copy, a link, a rename\)\./);
    assert.match(note, /\nCould not apply q\/a\.txt to the workspace: its folder q was moved while the change was landing$/);
    // A name with a line break or an invisible character is spelled out, never printed raw.
    const odd = rollbackNote({ moved: [{ path: 'a\nb/.git', kind: 'directory', kept: true, reason }], failed: [] }, false);
    assert.match(odd, /\n- "a\\nb\/\.git" \(/);
    assert.equal(
      rollbackNote(
        {
          moved: [{ path: 'many/1', kind: 'file', kept: true, reason: 'part of a change set too large to check' }],
          failed: [],
          incomplete: 'the command changed more than 50 files',
        },
        false,
      ),
      'Held back whole: the command changed more than 50 files, too much to check, so none of what it changed reached the workspace; the user can apply it.',
    );
    assert.equal(rollbackNote({ moved: [], failed: [] }, false), '');
  });

  test('a command stopped because a protected file appeared is told so, even when nothing was held', () => {
    assert.equal(
      rollbackNote({ moved: [], failed: [] }, true),
      'Stopped: a protected file appeared in the workspace while the command ran, so it was killed at once.',
    );
  });
});

// The rest of the protected-file cache (found as a walk finds them, seen again at the next look, folders not read
// again) is in test/unit/terminal/sandbox-change-review.test.ts.
describe('the protected files the sandbox covers (real files)', () => {
  let base: string;
  let root: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'control-protected-')));
    root = join(base, 'workspace');
    await putFiles(root, { '.git/HEAD': 'x\n', 'src/a.ts': '\n', 'src/.env.local': 'x\n', '.envrc': 'x\n', 'sub/.git': 'gitdir: ../.git\n' });
    await putFiles(join(base, 'outside'), { '.env': 'outside\n', 'keys/id.pem': 'k\n' });
    await symlink(join(base, 'outside'), join(root, 'linked'));
    await symlink(join(base, 'outside/.env'), join(root, 'linked.pem'));
    await symlink(join(base, 'outside/keys'), join(root, 'keys.pem'));
    await symlink('/nonexistent/secret', join(root, 'dangling.pem'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  test('an .envrc is covered, a .git never (Git reads it); a protected link is covered where it leads, a dangling one left out; no link is followed', async () => {
    const hidden = await new ProtectedPathCache().hiddenIn(root, defaultProtectedFiles, signal);
    assert.deepEqual(
      hidden.map((entry) => ({ ...entry, path: entry.path.slice(root.length + 1) })).sort((a, b) => (a.path < b.path ? -1 : 1)),
      [
        { path: '.envrc', directory: false },
        { path: 'keys.pem', directory: true },
        { path: 'linked.pem', directory: false },
        { path: 'src/.env.local', directory: false },
      ],
    );
  });

  test('a workspace too slow to look through is refused with a reason', async () => {
    let time = 0;
    const cache = new ProtectedPathCache({ now: () => (time += 30_000) });
    await assert.rejects(cache.hiddenIn(root, defaultProtectedFiles, signal), (error: unknown) => {
      assert.ok(error instanceof WorkspaceTooLarge);
      assert.match(error.message, /took more than 20 s/);
      return true;
    });
  });
});

describe('the change review of a command (real files, the overlay written by hand)', () => {
  let base: string;
  let root: string;
  let home: string;
  let outside: string;
  const armed: ChangeLayer[] = [];
  const held: QuarantinedControlPaths[] = [];
  /** The sandbox's side of the guard: the test takes the layer a launch would mount. */
  const layers = { arm: (layer: ChangeLayer) => (armed.push(layer), () => undefined) };
  const guardOf = (folder: string, options: Partial<NodeControlGuardOptions> = {}) =>
    new NodeControlGuard({
      root,
      quarantineFolder: join(base, folder),
      layers,
      protectedFiles: () => defaultProtectedFiles,
      willSandbox: () => true,
      home,
      onRollback: (changes) => held.push(changes),
      ...options,
    });

  /** What a sandboxed command would leave: its guard's watch, then `write` into the layer's upper folder, then the review. */
  async function command(guard: NodeControlGuard, write: (upper: string) => Promise<void>) {
    const watch = await guard.watch(signal);
    assert.ok(watch, 'the guard reviews a sandboxed command');
    const layer = armed.at(-1)!;
    await write(layer.upper);
    const heldBefore = held.length;
    const started = cpuStart();
    const review = await watch.settle(signal);
    return { review, layer, cpuMs: cpuMsSince(started), changes: held.length > heldBefore ? held.at(-1) : undefined };
  }

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'control-review-')));
    root = join(base, 'workspace');
    home = join(base, 'home');
    outside = join(base, 'outside');
    await mkdir(home);
    await putFiles(root, { 'src/a.ts': 'export {};\n', 'box/readme': 'box\n', 'deep/sub/readme': 'sub\n' });
    await putFiles(outside, { 'keep.txt': 'keep\n', 'sub/keep.txt': 'keep\n' });
  });
  after(() => rm(base, { recursive: true, force: true }));

  // 1,000 planted folders beside ordinary files: each held once, none in the workspace, the ordinary ones landed.
  // The 10,000 of a real command, real overlay included, are in test/security/control-files.test.ts.
  test('1,000 control paths a command left are all held, the rest lands, in bounded time', async () => {
    const { review, changes, cpuMs } = await command(guardOf('changes-many'), async (upper) => {
      // One mkdir process makes them all: a thousand calls from here would take most of the test's time.
      const made = spawnSync('mkdir', ['-p', ...Array.from({ length: 1_000 }, (_, index) => `planted/${index}/.vscode/held`)], { cwd: upper });
      assert.equal(made.status, 0);
      await putFiles(upper, { 'planted/readme.md': 'ordinary\n', 'src/b.ts': 'export const b = 1;\n' });
    });
    assert.ok(cpuMs < 10_000, `reviewing took ${cpuMs} CPU ms`);
    assert.equal(review.moved.length, 1_000);
    assert.equal(new Set(review.moved.map((entry) => entry.path)).size, 1_000, 'each held path once');
    for (const entry of review.moved) {
      assert.match(entry.path, /^planted\/\d+\/\.vscode$/);
      assert.deepEqual({ kind: entry.kind, kept: entry.kept }, { kind: 'directory', kept: true });
      assert.match(entry.reason ?? '', EDITOR);
    }
    assert.deepEqual(review.failed, []);
    assert.ok(changes, 'the user is told');
    assert.equal(await readFile(join(root, 'planted/readme.md'), 'utf8'), 'ordinary\n');
    assert.equal(await readFile(join(root, 'src/b.ts'), 'utf8'), 'export const b = 1;\n');
    const found = spawnSync('find', ['.', '-iname', '.vscode'], { cwd: root, encoding: 'utf8' });
    assert.equal(found.stdout, '', 'no .vscode reached the workspace');
    await changes.discard(signal);
    await rm(join(root, 'planted'), { recursive: true });
    await rm(join(root, 'src/b.ts'));
  });

  test('no review when the command will not run sandboxed (the user approved it)', async () => {
    const armedBefore = armed.length;
    assert.equal(await guardOf('changes-unsandboxed', { willSandbox: () => false }).watch(signal), undefined);
    assert.equal(armed.length, armedBefore, 'no layer armed');
    assert.equal(existsSync(join(base, 'changes-unsandboxed')), false, 'no layer made');
  });

  test('a folder for the layers inside the workspace is refused: the sandbox could reach what it holds', async () => {
    const guard = new NodeControlGuard({
      root,
      quarantineFolder: join(root, 'q'),
      layers,
      protectedFiles: () => defaultProtectedFiles,
      willSandbox: () => true,
    });
    await assert.rejects(guard.watch(signal), /the folder for the sandbox’s change layers is inside the workspace/);
    assert.equal(existsSync(join(root, 'q')), false);
  });

  test('a command the user approved (not sandboxed) may create a repository: run_command leaves it', async () => {
    const ctx: ToolContext = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, { shell: '/bin/sh' }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      controlGuard: guardOf('changes-approved', { willSandbox: () => false }),
    };
    const outcome = await (await runCommand.prepare({ command: 'git init -q approved && echo done' }, ctx, signal)).execute(signal);
    assert.equal(outcome.output, 'Exit code 0.\ndone\n');
    assert.ok(existsSync(join(root, 'approved/.git/HEAD')));
    await rm(join(root, 'approved'), { recursive: true });
  });

  test('a protected file that appears in the workspace while the command runs stops it; the model is told why', async () => {
    let report: ((path: string) => void) | undefined;
    const watcher: ControlPathWatcher = {
      watch: (_root, _folders, onPath) => {
        report = onPath;
        return { dispose: () => (report = undefined) };
      },
    };
    const ctx: ToolContext = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      // Not really sandboxed: the guard's review is what is under test, the layer stays empty.
      commands: new NodeCommandRunner(root, { shell: '/bin/sh' }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
      controlGuard: guardOf('changes-trip', { watcher }),
    };
    const started = Date.now();
    const running = (await runCommand.prepare({ command: 'sleep 30' }, ctx, signal)).execute(signal);
    while (!report) await new Promise((resolve) => setTimeout(resolve, 10));
    // An ordinary file does not stop it; a protected one does.
    report('src/c.ts');
    await new Promise((resolve) => setTimeout(resolve, 100));
    report('config/.env');
    const outcome = await running;
    assert.ok(Date.now() - started < 10_000, 'stopped, not run to its end');
    assert.equal(outcome.ok, false);
    assert.equal(outcome.output, 'Stopped: a protected file appeared in the workspace while the command ran, so it was killed at once.');
    assert.equal(report, undefined, 'the watch ends with the command');
  });

  test("every further folder the launch covers is watched as the root is, for the command's lifetime", async () => {
    const watched = new Map<string, (path: string) => void>();
    const watcher: ControlPathWatcher = {
      watch: (folder, _folders, onPath) => {
        watched.set(folder, onPath);
        return { dispose: () => watched.delete(folder) };
      },
    };
    let told: CoverageTold | undefined;
    const launchSide = { arm: (layer: ChangeLayer, covered?: CoverageTold) => ((told = covered), layers.arm(layer)) };
    const guard = guardOf('changes-covered', { watcher, layers: launchSide });
    const watch = await guard.watch(signal);
    assert.ok(watch);
    assert.deepEqual([...watched.keys()], [root], 'the root from the start');
    // What the launch that takes the layer covers beside the root: the window's other folders.
    told!.folders([join(base, 'app'), join(base, 'lib')]);
    assert.deepEqual([...watched.keys()], [root, join(base, 'app'), join(base, 'lib')]);
    watched.get(join(base, 'app'))!('src/index.ts');
    assert.equal(watch.tripped.aborted, false, 'an ordinary file does not stop it');
    watched.get(join(base, 'lib'))!('config/.env');
    assert.equal(watch.tripped.aborted, true);
    assert.match(String(watch.tripped.reason), new RegExp(`appeared in the workspace folder ${join(base, 'lib')} while the command ran: config/\\.env`));
    await watch.settle(signal);
    assert.equal(watched.size, 0, 'every watch ends with the review');
    // A launch that tells only after the review began (the command was stopped meanwhile) leaves no watch behind.
    told!.folders([join(base, 'late')]);
    assert.equal(watched.size, 0);
  });

  test('a covered protected file moved away (its folder renamed: the watcher names only the folder) stops the command', async () => {
    const gone = new Map<string, (path: string) => void>();
    const appeared = new Map<string, (path: string) => void>();
    const watcher: ControlPathWatcher = {
      watch: (folder, _folders, onPath, onGone) => {
        appeared.set(folder, onPath);
        if (onGone) gone.set(folder, onGone);
        return { dispose: () => (gone.delete(folder), appeared.delete(folder)) };
      },
    };
    let told: CoverageTold | undefined;
    const launchSide = { arm: (layer: ChangeLayer, covered?: CoverageTold) => ((told = covered), layers.arm(layer)) };
    const guard = guardOf('changes-moved', { watcher, layers: launchSide });
    await mkdir(join(root, 'config'), { recursive: true });
    await writeFile(join(root, 'config', '.env'), 'TOKEN=1\n');
    await writeFile(join(root, 'notes.txt'), 'notes\n');
    const watch = await guard.watch(signal);
    assert.ok(watch);
    told!.folders([]);
    told!.files([join(root, 'config', '.env')]);
    assert.equal(watch.tripped.aborted, false, 'every covered file is where it was covered');
    // Another file removed, a folder that holds no covered file renamed: nothing to stop.
    await rm(join(root, 'notes.txt'));
    gone.get(root)!('notes.txt');
    assert.equal(watch.tripped.aborted, false);
    // The user renames the folder: the editor reports `settings` (created) and `config` (deleted), not `settings/.env`.
    await rename(join(root, 'config'), join(root, 'settings'));
    appeared.get(root)!('settings');
    assert.equal(watch.tripped.aborted, false, 'the new name alone says nothing protected');
    gone.get(root)!('config');
    assert.equal(watch.tripped.aborted, true);
    assert.match(String(watch.tripped.reason), /a protected file was moved or removed while the command ran \(.*config\/\.env\)/);
    await watch.settle(signal);
    await rm(join(root, 'settings'), { recursive: true });
  });

  test('a covered protected file already gone when the launch tells of it stops the command before it starts', async () => {
    let told: CoverageTold | undefined;
    const launchSide = { arm: (layer: ChangeLayer, covered?: CoverageTold) => ((told = covered), layers.arm(layer)) };
    const guard = guardOf('changes-moved-early', { watcher: { watch: () => ({ dispose: () => undefined }) }, layers: launchSide });
    const watch = await guard.watch(signal);
    assert.ok(watch);
    told!.files([join(root, 'moved-before-start', '.env')]);
    assert.equal(watch.tripped.aborted, true);
    await watch.settle(signal);
  });

  test('Apply puts exactly the held path in, once; Discard removes what is still held', async () => {
    const { review, changes } = await command(guardOf('changes-apply'), async (upper) => {
      await putFiles(upper, { 'web/.vscode/tasks.json': '{"tasks":[]}\n', 'web/.envrc': 'use flake\n', 'web/index.html': '<p>\n' });
    });
    assert.deepEqual(
      review.moved.map((entry) => [entry.path, entry.kept, entry.reason]),
      [
        ['web/.envrc', true, 'settings, tasks or hooks that VS Code or another agent runs'],
        ['web/.vscode', true, 'settings, tasks or hooks that VS Code or another agent runs'],
      ],
    );
    assert.deepEqual(await readdir(join(root, 'web')), ['index.html']);
    assert.ok(changes);
    await changes.restore('web/.vscode', signal);
    assert.deepEqual(await readdir(join(root, 'web')), ['.vscode', 'index.html']);
    assert.equal(await readFile(join(root, 'web/.vscode/tasks.json'), 'utf8'), '{"tasks":[]}\n');
    assert.equal(changes.rollback.moved.find((entry) => entry.path === 'web/.vscode')?.kept, false);
    await assert.rejects(changes.restore('web/.vscode', signal), /web\/\.vscode is not held/);
    await changes.discard(signal);
    assert.equal(existsSync(join(root, 'web/.envrc')), false);
    await assert.rejects(changes.restore('web/.envrc', signal), /not held/);
    assert.ok(changes.rollback.moved.every((entry) => !entry.kept));
    await rm(join(root, 'web'), { recursive: true });
  });

  test('Apply of a held link makes the link; it never writes where the link leads', async () => {
    const { review, changes } = await command(guardOf('changes-link'), async (upper) => {
      await mkdir(join(upper, 'box'));
      await symlink(outside, join(upper, 'box/.git'));
    });
    assert.deepEqual(
      review.moved.map((entry) => [entry.path, entry.kind, entry.kept]),
      [['box/.git', 'symlink', true]],
    );
    assert.match(review.moved[0].reason ?? '', REPOSITORY);
    await assert.rejects(lstat(join(root, 'box/.git')), { code: 'ENOENT' });
    await changes!.restore('box/.git', signal);
    assert.ok((await lstat(join(root, 'box/.git'))).isSymbolicLink());
    assert.equal(await readlink(join(root, 'box/.git')), outside);
    assert.deepEqual((await readdir(outside)).sort(), ['keep.txt', 'sub']);
    await rm(join(root, 'box/.git'));
  });

  test('Apply never goes through a folder swapped for a link since the review: nothing is written where it leads', async () => {
    const { review, changes } = await command(guardOf('changes-swap'), async (upper) => {
      await putFiles(upper, { 'box/.git/config': '[core]\n\tfsmonitor = touch /tmp/x\n', 'deep/sub/.vscode/settings.json': '{}\n' });
    });
    assert.deepEqual(review.moved.map((entry) => entry.path).sort(), ['box/.git', 'deep/sub/.vscode']);
    // Something outside the sandbox swaps the held path's folder (and, deeper, a folder further up) for links out.
    await rm(join(root, 'box'), { recursive: true });
    await symlink(outside, join(root, 'box'));
    await rm(join(root, 'deep'), { recursive: true });
    await symlink(outside, join(root, 'deep'));
    await assert.rejects(changes!.restore('box/.git', signal), /box.*(gone or is a link now|was moved)/);
    await assert.rejects(changes!.restore('deep/sub/.vscode', signal), /deep\/sub.*(gone or is a link now|was moved while the change was landing)/);
    assert.deepEqual((await readdir(outside)).sort(), ['keep.txt', 'sub']);
    assert.deepEqual(await readdir(join(outside, 'sub')), ['keep.txt']);
    await rm(join(root, 'box'));
    await rm(join(root, 'deep'));
    await putFiles(root, { 'box/readme': 'box\n', 'deep/sub/readme': 'sub\n' });
  });

  test('layers on another file system: ordinary files land by copy, and a held path applies', async () => {
    const shm = await mkdtemp('/dev/shm/control-review-');
    try {
      const guard = guardOf('unused', { quarantineFolder: shm });
      const { review, changes } = await command(guard, async (upper) => {
        await putFiles(upper, { 'shm/.vscode/tasks.json': '{"tasks":[]}\n', 'shm/out.txt': 'landed\n' });
      });
      assert.deepEqual(
        review.moved.map((entry) => entry.path),
        ['shm/.vscode'],
      );
      assert.deepEqual(review.failed, []);
      assert.equal(await readFile(join(root, 'shm/out.txt'), 'utf8'), 'landed\n');
      assert.equal(existsSync(join(root, 'shm/.vscode')), false);
      await changes!.restore('shm/.vscode', signal);
      assert.equal(await readFile(join(root, 'shm/.vscode/tasks.json'), 'utf8'), '{"tasks":[]}\n');
      // Nothing held any more: the layer is gone, and no temporary name was left behind.
      assert.deepEqual(await readdir(shm), []);
      assert.deepEqual((await readdir(join(root, 'shm'))).sort(), ['.vscode', 'out.txt']);
      await rm(join(root, 'shm'), { recursive: true });
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  test('the guard keeps a bounded number of layers with something held; the oldest are discarded', async () => {
    const guard = guardOf('changes-bounded', { maxHeldLayers: 3 });
    const all: QuarantinedControlPaths[] = [];
    for (let index = 0; index < 6; index++) {
      const { changes } = await command(guard, (upper) => putFiles(upper, { [`b${index}/.envrc`]: 'x\n' }));
      all.push(changes!);
    }
    assert.equal((await readdir(join(base, 'changes-bounded'))).length, 3);
    await assert.rejects(all[0].restore('b0/.envrc', signal), /not held/);
    await all[5].restore('b5/.envrc', signal);
    assert.equal(await readFile(join(root, 'b5/.envrc'), 'utf8'), 'x\n');
    for (let index = 0; index < 6; index++) await rm(join(root, `b${index}`), { recursive: true, force: true });
  });
});

describe("the review's cost", () => {
  // judgeChanges runs on the extension host's thread, after the change set was read (the review's 20 s bound covers
  // the reading only). Each entry is compared with every path held so far: measured here 0.4 s for 5,000 held
  // folders, 1.8 s for 10,000, 3.9 s for 20,000, 16.7 s for 40,000 (80,001 entries, under the 100,000 bound).
  test('judging 10,000 held folders (20,001 entries) takes under 0.4 s of CPU', () => {
    const entries: ChangedEntry[] = [{ path: 'many', kind: 'directory', mode: 0o755, existed: false }];
    for (let index = 0; index < 10_000; index++) {
      entries.push({ path: `many/${index}`, kind: 'directory', mode: 0o755, existed: false });
      entries.push({ path: `many/${index}/.vscode`, kind: 'directory', mode: 0o755, existed: false });
    }
    const started = cpuStart();
    const verdict = judgeChanges(entries, { gitDirectories: new Set(), pointedAt: [] }, { protectedPatterns: defaultProtectedFiles });
    const cpuMs = cpuMsSince(started);
    assert.equal(verdict.held.length, 10_000);
    assert.equal(verdict.land.length, 10_001);
    assert.ok(cpuMs < 400, `judging took ${Math.round(cpuMs)} CPU ms`);
  });
});
