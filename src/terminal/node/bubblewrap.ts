/**
 * The sandbox of the `auto` approval mode on this machine: bubblewrap (bwrap)
 * with a seccomp program, when it is installed and can create namespaces here
 * (a container without user namespaces, or a kernel that forbids them, fails the
 * probe), on x86-64 or arm64 Linux. Finds the paths the core's bwrap arguments
 * need (the workspace's protected files, the home folder's toolchains, a
 * private temp folder per agent session) and starts commands with the program
 * on a pipe.
 *
 * Why our own wrapper and not @anthropic-ai/sandbox-runtime or its fork
 * @vscode/sandbox-runtime (measured for issue 21, esbuild --bundle --minify
 * --platform=node of a file importing SandboxManager):
 * - size: the extension's bundle must stay under 550 KB; it was 521,628 bytes
 *   minified before this sandbox and is 528,683 after it. The Anthropic library
 *   alone bundles to 546,520 bytes (0.0.78, npm's latest) or 633,994 (0.0.83), the
 *   VS Code fork (0.0.1) to 127,592: either takes the bundle past the limit, before their
 *   native apply-seccomp helpers (~0.7 MB a machine; x64 only in the fork) and
 *   Anthropic's 5.7 MB of Windows helpers;
 * - their Linux network filtering runs socat and an HTTP/SOCKS proxy per
 *   sandbox: we need on or off (gateway.agent.sandboxNetwork), which a network
 *   namespace gives with nothing running beside the command;
 * - what they add beyond that is macOS (Seatbelt) and Windows (srt-win in
 *   Anthropic's 0.0.83, the fork's own): there `auto` keeps asking before each
 *   command, a gap we accept for now.
 * What they taught (no code copied): a new session, every namespace new, PID
 * namespace so the tree dies with the command, --disable-userns where bwrap has
 * it, a seccomp rule on socket(AF_UNIX) compared on the low 32 bits, io_uring
 * refused, and 32-bit x86 left unsupported (socketcall cannot be filtered).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { bubblewrapArguments, homeSecrets, homeToolchains, seccompFd, type SandboxLaunch } from '../common/sandbox';
import { sandboxEnvironment } from '../common/sandboxEnvironment';
import { seccompArchOf, seccompProgram, type SeccompArch } from '../common/seccompFilter';
import { removeTree, runtimeFolders, shellOutside } from './sandboxFolders';
import { protectedPathsIn } from './sandboxWorkspaceScan';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

/** The probe's own time limit: bwrap answers in milliseconds or not at all. */
const probeTimeoutMs = 5000;

export class SandboxUnavailable extends Error {}

export interface BubblewrapOptions {
  /** The bwrap executable; default `bwrap` from PATH. */
  bwrap?: string;
  /** Default the user's home folder. */
  home?: string;
  /** The shell that runs the command inside; default `$SHELL`, else /bin/sh. */
  shell?: string;
  /** The environment the command's is filtered from; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Where the sessions' private folders are made; default the system's temp folder. */
  tempRoot?: string;
}

/** One command to start in the sandbox. */
export interface SandboxRequest {
  /** Absolute: the workspace folder. */
  root: string;
  /** Absolute, inside root. */
  cwd: string;
  command: string;
  protectedFiles: readonly string[];
  network: boolean;
}

/** What the probe found: whether bwrap can forbid user namespaces inside, and the machine's seccomp architecture. */
type Probe = { ok: true; disableUserns: boolean; arch: SeccompArch } | { ok: false; reason: string };

export class BubblewrapSandbox {
  private probe: Promise<Probe> | undefined;
  private readonly sessions = new Set<BubblewrapSession>();

  constructor(private readonly options: BubblewrapOptions = {}) {}

  /** Whether commands can run sandboxed here, probed once by running `true` under the same kind of sandbox. */
  async available(): Promise<SandboxAvailability> {
    const probe = await this.probed();
    return probe.ok ? { ok: true } : probe;
  }

  /** The sandbox of one agent session: its own private /tmp, removed by `dispose`. */
  forSession(sessionId: string): BubblewrapSession {
    const session = new BubblewrapSession(sessionId, this, () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }

  /** The window is closing: every session's folder goes now (synchronously: the host may not wait for a promise). */
  dispose(): void {
    for (const session of [...this.sessions]) session.disposeNow();
  }

  private probed(): Promise<Probe> {
    this.probe ??= probeBubblewrap(this.options.bwrap ?? 'bwrap');
    return this.probe;
  }

  /** The launch of `request` with `tempDir` as /tmp. */
  async launch(tempDir: string, request: SandboxRequest, signal: AbortSignal): Promise<SandboxLaunch> {
    const probe = await this.probed();
    if (!probe.ok) throw new SandboxUnavailable(probe.reason);
    const env = this.options.env ?? process.env;
    const home = this.options.home ?? homedir();
    const inWorkspace = await protectedPathsIn(request.root, request.protectedFiles, signal);
    const secrets = await existing(homeSecrets.map((path) => join(home, ...path.split('/'))));
    const toolchains = (await existing(homeToolchains.map((path) => join(home, ...path.split('/'))))).map(({ path }) => path);
    const { emptied, kept } = await runtimeFolders(env);
    const spec = {
      workspace: request.root,
      tempDir,
      cwd: request.cwd,
      // bwrap cannot mount over a folder that is not there (a service user's /nonexistent), and `/` is no home to empty.
      home: home !== '/' && (await isFolder(home)) ? home : undefined,
      toolchains,
      emptied,
      kept,
      hidden: [...secrets, ...inWorkspace.hidden],
      readOnly: inWorkspace.readOnly,
      network: request.network,
      disableUserns: probe.disableUserns,
    };
    const shell = shellOutside(this.options.shell ?? env.SHELL, home);
    return {
      argv: [this.options.bwrap ?? 'bwrap', ...bubblewrapArguments(spec), shell, '-c', request.command],
      env: sandboxEnvironment(env, { home, shell }),
      seccomp: seccompProgram(probe.arch),
      network: request.network,
    };
  }

  /** A new private folder for a session: 0700, under the system's temp folder (or `tempRoot`). */
  makeTempDir(sessionId: string): Promise<string> {
    const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40);
    return mkdtemp(join(this.options.tempRoot ?? tmpdir(), `gateway-agent-${safe}-`));
  }
}

/** One agent session's sandbox: every command of the session shares its /tmp, no other session sees it. */
export class BubblewrapSession {
  private tempDir: Promise<string> | undefined;
  /** The folder once made, for a synchronous removal. */
  private madeTempDir: string | undefined;
  private disposed = false;

  constructor(
    private readonly sessionId: string,
    private readonly sandbox: BubblewrapSandbox,
    private readonly forget: () => void,
  ) {}

  async launch(request: SandboxRequest, signal: AbortSignal): Promise<SandboxLaunch> {
    if (this.disposed) throw new SandboxUnavailable('this session has ended: its sandbox is gone');
    this.tempDir ??= this.sandbox.makeTempDir(this.sessionId).then((made) => (this.madeTempDir = made));
    const tempDir = await this.tempDir;
    // Disposed while the folder was being made: it must not outlive the session.
    if (this.disposed) {
      await removeTree(tempDir);
      throw new SandboxUnavailable('this session has ended: its sandbox is gone');
    }
    return this.sandbox.launch(tempDir, request, signal);
  }

  /** Removes the session's /tmp; later launches are refused. */
  async dispose(): Promise<void> {
    this.disposed = true;
    try {
      const tempDir = await this.tempDir?.catch(() => undefined);
      if (tempDir) await removeTree(tempDir);
    } finally {
      this.forget();
    }
  }

  /** As dispose, synchronously, for a host that is shutting down. */
  disposeNow(): void {
    this.disposed = true;
    try {
      // A folder still being made is removed by launch(), which sees `disposed`.
      if (this.madeTempDir) rmSync(this.madeTempDir, { recursive: true, force: true });
    } catch {
      // Something inside resisted (made unreadable): left to the system's temp cleaning.
    } finally {
      this.forget();
    }
  }
}

/**
 * Starts a launch: `argv` with exactly its environment, in its own process
 * group, no stdin (a command never reads the user's terminal), the seccomp
 * program written to a pipe at `seccompFd` and closed (a pipe, not a file the
 * sandbox could change before bwrap reads it).
 */
export function spawnSandboxed(launch: SandboxLaunch, cwd: string): ChildProcess {
  const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd, env: launch.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  const program = child.stdio[seccompFd] as Writable | null;
  // A bwrap that dies before reading it closes the pipe: that is its error to report, not this write's.
  program?.on('error', () => undefined);
  program?.end(Buffer.from(launch.seccomp));
  return child;
}

/** Runs `true` with the flags every command gets; without --disable-userns when this bwrap lacks it (before 0.8, or setuid). */
async function probeBubblewrap(bwrap: string): Promise<Probe> {
  if (process.platform !== 'linux') return { ok: false, reason: `the sandbox needs bubblewrap on Linux; this machine runs ${process.platform}` };
  const arch = seccompArchOf(process.arch);
  if (!arch) return { ok: false, reason: `the sandbox's seccomp filter is written for x86-64 and arm64 Linux; this machine is ${process.arch}` };
  const first = await probeRun(bwrap, arch, true);
  if (first.ok) return { ok: true, disableUserns: true, arch };
  if (first.missing) return { ok: false, reason: 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package' };
  const second = await probeRun(bwrap, arch, false);
  if (second.ok) return { ok: true, disableUserns: false, arch };
  return { ok: false, reason: second.reason };
}

async function probeRun(bwrap: string, arch: SeccompArch, disableUserns: boolean): Promise<{ ok: true } | { ok: false; missing: boolean; reason: string }> {
  const args = ['--unshare-all', '--unshare-user', ...(disableUserns ? ['--disable-userns'] : []), '--new-session', '--die-with-parent'];
  args.push('--cap-drop', 'ALL', '--seccomp', String(seccompFd), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true');
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawnSandboxed(
      { argv: [bwrap, ...args], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, seccomp: seccompProgram(arch), network: false },
      '/',
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), probeTimeoutMs);
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(0, 500)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, missing: error.code === 'ENOENT', reason: `bwrap could not be started: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, missing: false, reason: `bwrap cannot create a sandbox here (${stderr.trim() || `exit code ${code ?? 'none'}`})` });
    });
  });
}

async function existing(paths: string[]): Promise<{ path: string; directory: boolean }[]> {
  const found: { path: string; directory: boolean }[] = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    found.push({ path, directory: await isFolder(path) });
  }
  return found;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
