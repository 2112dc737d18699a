// What every security test needs: a workspace and a fake home folder in a fresh temp folder, the real
// bubblewrap sandbox, and commands run through the same runner the extension uses.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Writable } from 'node:stream';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CommandResult } from '../../src/terminal/common/commandPorts';
import type { SandboxLaunch } from '../../src/terminal/common/sandbox';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import type { ControlRollback } from '../../src/terminal/common/controlPaths';
import type { QuarantinedControlPaths } from '../../src/terminal/common/commandPorts';
import { BubblewrapSandbox, type BubblewrapOptions, type BubblewrapSession } from '../../src/terminal/node/bubblewrap';
import type { ChangeLimits } from '../../src/terminal/node/changeLayer';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { removeTree } from '../../src/terminal/node/sandboxFolders';

export const never = new AbortController().signal;

/**
 * Whether the real sandbox works here. Where it does not, the file's only test checks why (and fails in CI,
 * which installs bubblewrap): these tests never pass without checking something.
 */
export async function sandboxHere(): Promise<boolean> {
  const probe = await new BubblewrapSandbox().available();
  if (probe.ok) return true;
  test('no sandbox here: the probe says why', () => {
    assert.ok(!process.env.CI, `CI needs bubblewrap for these tests (npm run e2e:setup installs it): ${probe.reason}`);
    assert.match(probe.reason, /bwrap|bubblewrap/);
  });
  return false;
}

export interface Fixture {
  /** The test's own temp folder (real path); everything below is removed by `remove`. */
  base: string;
  root: string;
  home: string;
  sandbox: BubblewrapSandbox;
  session: BubblewrapSession;
  /** The session's change review, as the extension makes it: what a command changed lands or is held. */
  guard: NodeControlGuard;
  /** Every review that held something back, newest last (what the user's notification gets). */
  held: QuarantinedControlPaths[];
  /** The session's launch of a command (as the extension makes it), in the workspace; its change layer is armed, never reviewed. */
  launch(command: string, options?: { network?: boolean; cwd?: string }): Promise<SandboxLaunch>;
  /** Runs a command sandboxed through NodeCommandRunner, as the extension does, its changes reviewed after it. */
  run(
    command: string,
    options?: { network?: boolean; timeoutMs?: number; signal?: AbortSignal; onOutput?: (text: string) => void },
  ): Promise<CommandResult & { review: ControlRollback }>;
  remove(): Promise<void>;
}

/**
 * `place.root`: the workspace's path under the fixture's folder (default `home/projects/workspace`), e.g. where a
 * session's worktree is made beside a repository; `place.tempFolder`: where the fixture's folder is made (default
 * the system's temp folder, which the sandbox replaces with the session's own: /var/tmp is one it shows read-only);
 * `place.windowFolders`: the window's workspace folders under the fixture's folder (as `root`), whose protected
 * files every launch covers too, as the extension's SandboxDecision passes them (e.g. the repository a worktree
 * session was made from).
 */
export async function makeFixture(
  options: Omit<BubblewrapOptions, 'home'> = {},
  place: { root?: string; tempFolder?: string; windowFolders?: readonly string[] } = {},
): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(place.tempFolder ?? tmpdir(), 'gw-security-')));
  const home = join(base, 'home');
  const root = join(base, place.root ?? join('home', 'projects', 'workspace'));
  await mkdir(root, { recursive: true });
  const alsoCovered = (place.windowFolders ?? []).map((folder) => join(base, folder));
  const sandbox = new BubblewrapSandbox({ shell: '/bin/bash', tempRoot: base, ...options, home });
  const session = sandbox.forSession('test');
  const held: QuarantinedControlPaths[] = [];
  const guard = reviewGuard({ root, base, sandbox, sessionId: 'test', home, onRollback: (changes) => held.push(changes) });
  const launch: Fixture['launch'] = async (command, opts = {}) => {
    await guard.watch(never);
    return session.launch({ root, cwd: opts.cwd ?? root, command, protectedFiles: defaultProtectedFiles, network: opts.network ?? false, alsoCovered }, never);
  };
  return {
    base,
    root,
    home,
    sandbox,
    session,
    guard,
    held,
    launch,
    run: async (command, opts = {}) => {
      const runner = new NodeCommandRunner(root, {
        ...(opts.onOutput ? { onOutput: opts.onOutput } : {}),
        sandbox: {
          launch: (line, cwd) =>
            session.launch({ root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: opts.network ?? false, alsoCovered }, never),
        },
      });
      const watch = await guard.watch(never);
      const result = await runner.run(command, '.', opts.timeoutMs ?? 30_000, opts.signal ?? never);
      const review = await watch!.settle(never);
      return { ...result, review };
    },
    remove: async () => {
      sandbox.dispose();
      // A change layer's overlay work folder is left mode 000 by the kernel: removeTree makes it removable first.
      await removeTree(base);
    },
  };
}

/** The change review of a sandbox session, as the extension composes it (the layers kept under `base`). */
export function reviewGuard(options: {
  root: string;
  base: string;
  sandbox: BubblewrapSandbox;
  sessionId: string;
  home: string;
  onRollback?: (held: QuarantinedControlPaths) => void;
  limits?: Partial<ChangeLimits>;
}): NodeControlGuard {
  return new NodeControlGuard({
    root: options.root,
    quarantineFolder: join(options.base, `changes-${options.sessionId}`),
    layers: options.sandbox.layersFor(options.sessionId),
    protectedFiles: () => defaultProtectedFiles,
    willSandbox: () => true,
    home: options.home,
    ...(options.onRollback ? { onRollback: options.onRollback } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}

/** Runs a program outside the sandbox and gives its exit code and output (bounded in time). */
export function runOutside(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; extraFd?: Uint8Array; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const extra = child.stdio[3] as Writable;
    extra.on('error', () => undefined);
    extra.end(Buffer.from(options.extraFd ?? new Uint8Array()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The user's git, outside the sandbox, in the fixture's workspace: the fixture's home as HOME, no system config, an
 * identity to commit with. What a planted hook or config runs, it runs here, as at the user's next commit.
 */
export function gitOutside(fixture: Fixture, args: string[]): ReturnType<typeof runOutside> {
  return runOutside('git', ['-C', fixture.root, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
    env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/**
 * A file written by a sandboxed command (`printf`, its folder made first) and whether it landed in the workspace
 * unapplied, with the review: how an attack test plants a config and sees it held or not.
 */
export async function plantFile(fixture: Fixture, path: string, text: string): Promise<{ landed: boolean; review: ControlRollback }> {
  const folder = path.includes('/') ? `mkdir -p ${path.slice(0, path.lastIndexOf('/'))} && ` : '';
  const result = await fixture.run(`${folder}printf '%s' '${text.replace(/'/g, `'\\''`)}' > ${path}`);
  assert.equal(result.exitCode, 0, result.output);
  const landed = await access(join(fixture.root, path)).then(
    () => true,
    () => false,
  );
  return { landed, review: result.review };
}

/** The user's next commit: a new file `x.txt`, added and committed with gitOutside (the repository's hooks run outside). */
export async function userCommit(fixture: Fixture): ReturnType<typeof runOutside> {
  await writeFile(join(fixture.root, 'x.txt'), 'x\n');
  await gitOutside(fixture, ['add', 'x.txt']);
  return gitOutside(fixture, ['commit', '-q', '-m', 'user commit']);
}

/**
 * The user's next commits, one at each call: a new file `c<n>.txt`, added and committed with gitOutside, so the
 * repository's hooks run outside the sandbox. `fixture` is read at each call (tests make it in `before`).
 */
export function userCommits(fixture: () => Fixture): () => ReturnType<typeof runOutside> {
  let commits = 0;
  return async () => {
    commits++;
    await writeFile(join(fixture().root, `c${commits}.txt`), 'x\n');
    await gitOutside(fixture(), ['add', `c${commits}.txt`]);
    return gitOutside(fixture(), ['commit', '-q', '-m', `user commit ${commits}`]);
  };
}

/** Processes of this machine whose command line holds `marker` (read from /proc, as anyone outside sees them). */
export async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').join(' ').includes(marker)) found.push(Number(name));
  }
  return found;
}

/** Waits for `check` to hold, looking at most `attempts` times (each after the event loop turns); false if it never did. */
export async function eventually(check: () => Promise<boolean>, attempts = 200): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}
