/**
 * The sandbox of the `auto` approval mode on this machine: bubblewrap (bwrap)
 * with a seccomp program, over a copy-on-write layer of the workspace, when it
 * is installed and can create namespaces and mount overlayfs in them here (a
 * container without user namespaces, a kernel before 5.11, fails the probe),
 * on x86-64 or arm64 Linux. Each command starts as util-linux's `unshare`
 * (a user and mount namespace of its own), whose bash mounts the layer the
 * control guard armed for it, closes inherited descriptors, sets the limits
 * and becomes bwrap. Finds the paths the core's bwrap arguments need (the
 * workspace's protected files, the home folder's toolchains, a private temp
 * folder per agent session) and starts commands with the program on a pipe.
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
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, rmSync, statSync, type Stats } from 'node:fs';
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { homedir, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { bubblewrapArguments, homeSecrets, homeToolchains, isWithin, seccompFd, toolchainSecrets, type SandboxLaunch } from '../common/sandbox';
import { sandboxEnvironment } from '../common/sandboxEnvironment';
import { seccompArchOf, seccompProgram, type SeccompArch } from '../common/seccompFilter';
import type { ChangeLayer } from './changeLayer';
import { changeReviewParts } from './changeReviewLoader';
import type { CoverageTold, LayerArming } from './controlGuard';
import { removeTree, runtimeFolders, shellOutside } from './sandboxFolders';
import { spawnSandboxed } from './sandboxSpawn';
import type { LoadedSandbox } from './lazySandbox';
import type { HiddenPath, ProtectedPathCache } from './protectedPathCache';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

/** The probe's own time limit: bwrap answers in milliseconds or not at all. */
const probeTimeoutMs = 5000;

/** What one sandboxed command may use: processes (of the sandbox's own user namespace), memory per process, bytes per file. */
export interface SandboxLimits {
  processes: number;
  /**
   * RLIMIT_DATA: a process's private writable memory (not its shared mappings); also the size of /dev/shm and of
   * each emptied folder's tmpfs (the home folder's scratch), where bwrap can size one.
   */
  memoryBytes: number;
  fileBytes: number;
}

export const defaultSandboxLimits = (): SandboxLimits => ({
  processes: 4096,
  memoryBytes: Math.min(16 * 1024 ** 3, Math.floor(totalmem() / 2)),
  fileBytes: 4 * 1024 ** 3,
});

/**
 * The outer step of every sandboxed command, run by bash as root of a new user and mount namespace (util-linux
 * `unshare -r -m`, which needs nothing privileged): the workspace is bound under the layer's folder and overlayfs
 * mounted over it with the layer's `upper` taking every write (Linux 5.11 and later mount overlayfs in a user
 * namespace; `userxattr` keeps its marks in user.* attributes); every inherited descriptor but the standard three
 * and the seccomp program's pipe is closed (the extension host holds log files open without close-on-exec); the
 * limits are set (hard and soft, so the command cannot raise them); then bwrap replaces it.
 * $1 the layer's folder, $2 the workspace, $3 processes, $4 memory KiB, $5 file KiB, then bwrap's argv.
 */
const LAUNCHER = [
  'cd -- "$1" || exit 125',
  // overlayfs reads its options split at commas and colons: a workspace path with one is bound under a plain name first.
  'lower=$2; case $2 in *[,:\\]*) mount --bind "$2" lower || { echo "gateway sandbox: cannot bind the workspace under its change layer" >&2; exit 125; }; lower=lower ;; esac',
  'mount -t overlay overlay -o "lowerdir=$lower,upperdir=upper,workdir=work,userxattr" merged || { echo "gateway sandbox: cannot mount the change layer (overlayfs in a user namespace)" >&2; exit 125; }',
  'for fd in /proc/self/fd/*; do n=${fd##*/}; case $n in 0|1|2|3) ;; *) eval "exec $n>&-" 2>/dev/null ;; esac; done',
  'ulimit -u "$3" 2>/dev/null; ulimit -d "$4" 2>/dev/null; ulimit -f "$5" 2>/dev/null',
  'shift 5',
  'exec "$@"',
].join('\n');

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
  /** Default defaultSandboxLimits(). */
  limits?: SandboxLimits;
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
  /**
   * Absolute: further folders whose protected files are covered too: the window's workspace folders, among them
   * the repository a worktree session was made from (it sits beside the worktree, reachable as `../../app/.env`
   * or through the links the worktree holds). Those the sandbox does not show need no look (see coveredBeside).
   */
  alsoCovered?: readonly string[];
}

/** A layer armed for a session's next launch, and whom the launch tells which further folders it covers (LayerArming). */
interface ArmedLayer {
  layer: ChangeLayer;
  covered?: CoverageTold | undefined;
}

/** At most this many further folders are looked at per command: a window has a handful. */
const coveredFolderLimit = 24;

/** What the probe found: whether bwrap can forbid user namespaces inside, and the machine's seccomp architecture. */
type Probe = { ok: true; disableUserns: boolean; arch: SeccompArch; sizesTmpfs: boolean } | { ok: false; reason: string };

export class BubblewrapSandbox implements LoadedSandbox {
  private probe: Promise<Probe> | undefined;
  private readonly sessions = new Set<BubblewrapSession>();
  private runtime: { at: number; folders: Promise<{ emptied: string[]; kept: string[] }> } | undefined;
  /** The workspaces' protected files, looked at folder by folder and read again only where a folder changed. */
  private protectedPaths: ProtectedPathCache | undefined;
  /** Per session, the change layers prepared for its next launches, oldest first, each with whom to tell what it covers. */
  private readonly armed = new Map<string, ArmedLayer[]>();

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

  /** Where session `sessionId`'s next command writes: its change layer, reviewed by the control guard when it ends. */
  layersFor(sessionId: string): LayerArming {
    return {
      arm: (layer, covered) => {
        const queue = this.armed.get(sessionId) ?? [];
        const entry = { layer, covered };
        queue.push(entry);
        this.armed.set(sessionId, queue);
        return () => {
          const index = queue.indexOf(entry);
          if (index >= 0) queue.splice(index, 1);
        };
      },
    };
  }

  private probed(): Promise<Probe> {
    this.probe ??= probeBubblewrap(this.options.bwrap ?? 'bwrap', this.options.tempRoot ?? tmpdir());
    return this.probe;
  }

  /** The launch of `request` with `tempDir` as /tmp, writing to the layer armed for `sessionId`. */
  async launch(tempDir: string, request: SandboxRequest, signal: AbortSignal, sessionId: string): Promise<SandboxLaunch> {
    const probe = await this.probed();
    if (!probe.ok) throw new SandboxUnavailable(probe.reason);
    // No layer, no command: its writes would have nowhere to go but the workspace, unreviewed.
    const { layer, covered } = this.armed.get(sessionId)?.shift() ?? {};
    if (!layer) throw new SandboxUnavailable('no change layer was prepared for this command, so it was not run');
    const env = this.options.env ?? process.env;
    const home = this.options.home ?? homedir();
    const limits = this.options.limits ?? defaultSandboxLimits();
    // Records for the session's root and every further folder (coveredFolderLimit), so no look walks again.
    const protectedPaths = (this.protectedPaths ??= new (changeReviewParts().ProtectedPathCache)({ maxWorkspaces: 2 * coveredFolderLimit }));
    const { hidden: protectedHere, ...structure } = await protectedPaths.look(request.root, request.protectedFiles, signal);
    const { emptied, kept } = await this.runtimeFoldersOf(env);
    const sandboxHome = home !== '/' && (await isFolder(home)) ? home : undefined;
    const beside = coveredBeside(request, [...(sandboxHome ? [sandboxHome] : []), ...emptied, '/tmp']);
    // Watched from before their look, as the root is: a protected file saved there later trips the command.
    covered?.folders(beside);
    const protectedBeside = await protectedIn(protectedPaths, { folders: beside, request, signal });
    // Before the command starts: one of them moved away from where it is covered stops it.
    covered?.files([...protectedHere, ...protectedBeside].map((entry) => entry.path));
    const secrets = existing([...homeSecrets.map((path) => join(home, ...path.split('/'))), ...expandedIn(home, toolchainSecrets)]);
    const secretsElsewhere = realPathsOf(secrets, request.root);
    const toolchains = existing(homeToolchains.map((path) => join(home, ...path.split('/')))).map(({ path }) => path);
    const spec = {
      workspace: request.root,
      tempDir,
      cwd: request.cwd,
      // bwrap cannot mount over a folder that is not there (a service user's /nonexistent), and `/` is no home to empty.
      home: sandboxHome,
      toolchains,
      emptied,
      kept,
      // The folder of the session's change layers: the overlay's own mount there shows the workspace without
      // the protected files covered, and earlier layers hold what was held back.
      hidden: [...secrets, ...secretsElsewhere, ...protectedHere, ...protectedBeside, { path: dirname(layer.folder), directory: true }],
      // Nothing in the workspace needs to be read-only: every write goes to the layer and is reviewed.
      readOnly: [],
      network: request.network,
      disableUserns: probe.disableUserns,
      // Shared memory and the scratch folders' files are bounded as one process's memory is.
      ...(probe.sizesTmpfs ? { scratchBytes: limits.memoryBytes } : {}),
      workspaceView: layer.merged,
      identity: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
    };
    // Every repository of the workspace, and the configs that name what runs: the review reads each (what they point
    // at is held). What this sandbox hides the review never reads for the command (reviewReadable.ts), every covered
    // place given, inside the workspace too (its protected files, a linked home secret's real place there: round 20b),
    // and the window's other folders' configs are read as the workspace's are.
    layer.knowWorkspace({
      ...structure,
      hidden: [...spec.hidden.map(({ path }) => path), ...emptied, ...(sandboxHome ? [sandboxHome] : []), '/tmp'],
      shown: kept,
      windowFolders: request.alsoCovered ?? [],
    });
    const shell = shellOutside(this.options.shell ?? env.SHELL, home);
    const bwrap = [this.options.bwrap ?? 'bwrap', ...bubblewrapArguments(spec), shell, '-c', request.command];
    return {
      argv: launcherArgv(layer.folder, request.root, limits, bwrap),
      env: sandboxEnvironment(env, { home, shell }),
      seccomp: seccompProgram(probe.arch),
      network: request.network,
    };
  }

  /** The machine's runtime folders, looked up again at most every 30 s (they are the system's, not the workspace's). */
  private runtimeFoldersOf(env: NodeJS.ProcessEnv): Promise<{ emptied: string[]; kept: string[] }> {
    const now = Date.now();
    if (!this.runtime || now - this.runtime.at > 30_000) this.runtime = { at: now, folders: runtimeFolders(env) };
    return this.runtime.folders;
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
    readonly sessionId: string,
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
    return this.sandbox.launch(tempDir, request, signal, this.sessionId);
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

/** The command line that runs `bwrap` (its argv) over the layer in `layerFolder`: unshare, then the launcher in bash. */
function launcherArgv(layerFolder: string, workspace: string, limits: SandboxLimits, bwrap: readonly string[]): string[] {
  const kib = (bytes: number) => String(Math.max(1, Math.floor(bytes / 1024)));
  return [
    'unshare',
    '--user',
    '--map-root-user',
    '--mount',
    '--propagation',
    'private',
    '/bin/bash',
    '-c',
    LAUNCHER,
    'gateway-sandbox',
    layerFolder,
    workspace,
    String(limits.processes),
    kib(limits.memoryBytes),
    kib(limits.fileBytes),
    ...bwrap,
  ];
}

/**
 * Runs `true` the way every command runs (a change layer over a scratch folder, bwrap with the same flags);
 * without --disable-userns when this bwrap lacks it (before 0.8, or setuid).
 */
async function probeBubblewrap(bwrap: string, tempRoot: string): Promise<Probe> {
  if (process.platform !== 'linux') return { ok: false, reason: `the sandbox needs bubblewrap on Linux; this machine runs ${process.platform}` };
  const arch = seccompArchOf(process.arch);
  if (!arch) return { ok: false, reason: `the sandbox's seccomp filter is written for x86-64 and arm64 Linux; this machine is ${process.arch}` };
  if (!existsSync('/bin/bash')) return { ok: false, reason: 'the sandbox needs /bin/bash to set it up' };
  const scratch = await mkdtemp(join(tempRoot, 'gateway-probe-'));
  try {
    const workspace = join(scratch, 'workspace');
    await mkdir(workspace);
    const layer = join(scratch, 'layer');
    for (const folder of [layer, ...['upper', 'work', 'merged', 'lower'].map((name) => join(layer, name))]) await mkdir(folder);
    const first = await probeRun(bwrap, arch, true, { layer, workspace });
    if (first.ok) return { ok: true, disableUserns: true, arch, sizesTmpfs: await sizesTmpfs(bwrap, arch, true, { layer, workspace }) };
    if (first.missing) return { ok: false, reason: first.reason };
    const second = await probeRun(bwrap, arch, false, { layer, workspace });
    if (second.ok) return { ok: true, disableUserns: false, arch, sizesTmpfs: await sizesTmpfs(bwrap, arch, false, { layer, workspace }) };
    return { ok: false, reason: second.reason };
  } finally {
    await removeTree(scratch).catch(() => undefined);
  }
}

/**
 * Whether this bwrap can size a tmpfs (`--size`, bwrap 0.8 and later) here: a run that sizes one, as every command's
 * /dev/shm is sized, succeeds. Its --help is looked at first, so an older bwrap costs no second run.
 */
async function sizesTmpfs(bwrap: string, arch: SeccompArch, disableUserns: boolean, scratch: { layer: string; workspace: string }): Promise<boolean> {
  const listed = await new Promise<boolean>((resolve) => {
    execFile(bwrap, ['--help'], { timeout: probeTimeoutMs, maxBuffer: 1 << 16 }, (_error, stdout) => resolve(/^\s*--size\s/m.test(String(stdout))));
  });
  return listed && (await probeRun(bwrap, arch, disableUserns, scratch, ['--size', String(1 << 20), '--tmpfs', '/dev/shm'])).ok;
}

async function probeRun(
  bwrap: string,
  arch: SeccompArch,
  disableUserns: boolean,
  scratch: { layer: string; workspace: string },
  extra: readonly string[] = [],
): Promise<{ ok: true } | { ok: false; missing: boolean; reason: string }> {
  const { layer, workspace } = scratch;
  const args = ['--unshare-all', '--unshare-user', ...(disableUserns ? ['--disable-userns'] : []), '--new-session', '--die-with-parent'];
  args.push('--uid', String(process.getuid?.() ?? 0), '--gid', String(process.getgid?.() ?? 0));
  args.push('--cap-drop', 'ALL', '--seccomp', String(seccompFd), '--ro-bind', '/', '/', '--dev', '/dev', ...extra, '--proc', '/proc');
  args.push('--bind', join(layer, 'merged'), workspace, '--', 'true');
  return new Promise((resolve) => {
    let stderr = '';
    const argv = launcherArgv(layer, workspace, defaultSandboxLimits(), [bwrap, ...args]);
    const child = spawnSandboxed({ argv, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, seccomp: seccompProgram(arch), network: false }, '/');
    const timer = setTimeout(() => child.kill('SIGKILL'), probeTimeoutMs);
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(0, 500)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, missing: true, reason: `the sandbox could not be started (${error.message}): it needs util-linux's unshare` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else if (/bwrap: (command )?not found|No such file or directory.*bwrap|execvp: bwrap/.test(stderr) || code === 127) {
        resolve({ ok: false, missing: true, reason: 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package' });
      } else resolve({ ok: false, missing: false, reason: `a sandbox cannot be made here (${stderr.trim() || `exit code ${code ?? 'none'}`})` });
    });
  });
}

/**
 * The protected files of `folders`, looked up as the root's are (each folder's records cached). One that would
 * cover the session's root whole is left out: it would hide the workspace, whose own look covers what is in it.
 */
async function protectedIn(
  cache: ProtectedPathCache,
  look: { folders: readonly string[]; request: SandboxRequest; signal: AbortSignal },
): Promise<HiddenPath[]> {
  const { folders, request, signal } = look;
  const found: HiddenPath[] = [];
  for (const folder of folders) {
    const hidden = await cache.hiddenIn(folder, request.protectedFiles, signal).catch((error: unknown) => {
      // The same refusal as for the root (too large, unreadable), saying which folder.
      if (error instanceof Error && !signal.aborted) error.message = `the workspace folder ${folder}: ${error.message}`;
      throw error;
    });
    found.push(...hidden.filter((entry) => !isWithin(request.root, entry.path)));
  }
  return found;
}

/**
 * The further folders of `request` whose protected files the sandbox must cover: each once, not the root, and not
 * one the root's own look walks (inside the root) or the sandbox does not show (inside an emptied folder such as
 * the home folder, or the machine's /tmp, which is the session's own inside).
 */
function coveredBeside(request: SandboxRequest, unseen: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const folder of request.alsoCovered ?? []) {
    if (isWithin(folder, request.root) || unseen.some((hidden) => isWithin(folder, hidden))) continue;
    folders.add(folder);
  }
  // Bounded before anything looks at or watches them.
  if (folders.size > coveredFolderLimit) {
    throw new SandboxUnavailable(`the window has more than ${coveredFolderLimit} workspace folders, too many to cover their protected files at each command`);
  }
  return [...folders];
}

/**
 * The paths `patterns` (relative to `home`, `*` any one name) name that exist; bounded: a folder's first 64 names.
 * Synchronous, as `existing`: mostly folders that are not there, at every command.
 */
function expandedIn(home: string, patterns: readonly string[]): string[] {
  const found: string[] = [];
  for (const pattern of patterns) {
    let paths = [home];
    for (const segment of pattern.split('/')) {
      const next: string[] = [];
      for (const path of paths) {
        if (segment !== '*') next.push(join(path, segment));
        else for (const name of namesIn(path).slice(0, 64)) next.push(join(path, name));
      }
      paths = next;
      if (paths.length === 0) break;
    }
    found.push(...paths.filter((path) => existsSync(path)));
  }
  return found;
}

/**
 * Which of `paths` exist, and which are folders: one synchronous stat each (a few µs) where an awaited one costs
 * ten times that, at every command (issue 36's per-command target).
 */
function existing(paths: string[]): { path: string; directory: boolean }[] {
  const found: { path: string; directory: boolean }[] = [];
  for (const path of paths) {
    const info = statOrNothing(path);
    if (info) found.push({ path, directory: info.isDirectory() });
  }
  return found;
}

/**
 * Where each of `secrets` really is, when a link on its path leads elsewhere (a dotfiles repository's
 * `~/.kube -> ~/dotfiles/kube`, `~/.azure -> /data/azure`): the home folder is emptied inside, so a covering at the
 * link's own path covers nothing, while `/` shows where it leads (and the workspace's bind, when it leads there).
 * Left out: a path the sandbox does not show (the machine's /tmp, but for the workspace in it), and a folder that
 * holds the workspace (covering it would hide the workspace). One realpath each: a handful of existing paths.
 */
function realPathsOf(secrets: readonly { path: string; directory: boolean }[], workspace: string): { path: string; directory: boolean }[] {
  const found: { path: string; directory: boolean }[] = [];
  for (const { path, directory } of secrets) {
    const real = realPathOrNothing(path);
    if (real === undefined || real === path || isWithin(workspace, real)) continue;
    if (isWithin(real, '/tmp') && !isWithin(real, workspace)) continue;
    found.push({ path: real, directory });
  }
  return found;
}

function realPathOrNothing(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** As existsSync: a path that cannot be reached (EACCES, ENOTDIR) is not there. */
function statOrNothing(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
