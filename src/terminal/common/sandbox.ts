/**
 * What `auto` means for commands: they run in a bubblewrap sandbox, not after a
 * deny list (no parser reads `{rm,-rf,x}`, `/bin/r[m]` or `python3 -c` the way
 * the shell will). Inside it:
 * - every namespace is new (user, mount, PID, IPC, UTS, cgroup, and the network
 *   unless the user allows it), in a new session with no controlling terminal;
 *   the command is PID 1's only child, so when it ends, or is stopped, every
 *   process it started ends with it;
 * - the file system is read-only; the home folder, /tmp and /run are empty
 *   (the home folder is a throw-away tmpfs with only the toolchain folders
 *   bound back, read-only); /tmp is the session's private folder; the
 *   workspace is the merged view of the command's change layer (its writes go
 *   to the layer and are reviewed when it ends: changeReview.ts), its
 *   protected files covered;
 * - a seccomp program (seccompFilter.ts) refuses Unix sockets, keyrings, ptrace, terminal input
 *   injection and io_uring;
 * - the environment is rebuilt from an allow-list (sandboxEnvironment.ts).
 * This module builds bwrap's arguments and nothing else: the host finds the
 * paths (they must exist), passes the seccomp program on `seccompFd`, and runs it.
 */

/** Home-folder files and folders that hold credentials; covered when they exist (a second layer: the home folder is hidden). */
export const homeSecrets: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.npmrc',
  '.netrc',
  '.git-credentials',
  '.pypirc',
  '.config/git/credentials',
  '.password-store',
  // .NET keeps the user's certificate store, private keys too, inside its toolchain folder (bound back read-only).
  '.dotnet/corefx',
];

/**
 * Home-folder folders bound back read-only (when they exist) so compilers and
 * version managers work: programs and caches, never a place that holds a
 * credential or a user's configuration (not .cargo/credentials.toml, .m2/settings.xml,
 * .gradle/gradle.properties, .config, .npmrc, shell history).
 */
export const homeToolchains: readonly string[] = [
  '.cargo/bin',
  '.rustup',
  '.nvm',
  '.pyenv',
  '.rbenv',
  '.goenv',
  '.local/bin',
  '.local/lib',
  '.volta',
  '.bun/bin',
  '.deno/bin',
  'go/bin',
  'go/pkg/mod',
  '.sdkman/candidates',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.dotnet',
  '.ghcup/bin',
  '.elan',
];

/**
 * Files that hold credentials inside the toolchain folders bound back read-only, by their place (`*` one
 * folder of any name: a version): a toolchain's own global configuration (npm's `etc/npmrc` of a Node
 * installed by nvm or Volta, pip's `pip.conf` of a pyenv Python, Maven's and Gradle's settings of a
 * distribution). Covered where they exist.
 */
export const toolchainSecrets: readonly string[] = [
  '.nvm/versions/node/*/etc/npmrc',
  '.volta/tools/image/node/*/etc/npmrc',
  '.pyenv/versions/*/pip.conf',
  '.pyenv/versions/*/etc/pip.conf',
  '.sdkman/candidates/*/*/conf/settings.xml',
  '.sdkman/candidates/*/*/gradle.properties',
  '.gradle/wrapper/dists/*/*/*/gradle.properties',
  '.gradle/wrapper/dists/*/*/*/init.d',
];

/** The descriptor bwrap reads the seccomp program from: the child's stdio index 3, a pipe the host writes and closes. */
export const seccompFd = 3;

export interface SandboxSpec {
  /** Absolute: the folder (with `tempDir`) a command may write to and keep. */
  workspace: string;
  /** Absolute: the session's private folder, mounted as /tmp (and TMPDIR) inside. */
  tempDir: string;
  /** Absolute: where the command starts, inside the workspace. */
  cwd: string;
  /** Absolute: the home folder, hidden by an empty tmpfs; undefined when there is none to hide (a service user's /nonexistent). */
  home: string | undefined;
  /** Absolute paths of existing toolchain folders under `home`, bound back read-only. */
  toolchains: readonly string[];
  /** Absolute paths of existing folders emptied besides the home folder: /run, $XDG_RUNTIME_DIR (where the sockets live). */
  emptied: readonly string[];
  /** Absolute paths of existing files inside an emptied folder that must stay readable (/etc/resolv.conf's target). */
  kept: readonly string[];
  /** Absolute paths of existing files and folders to cover with empty ones (protected files, home secrets). */
  hidden: readonly { path: string; directory: boolean }[];
  /** Absolute paths of existing folders to make read-only (inside the writable workspace). */
  readOnly: readonly string[];
  /** Whether the command may reach the network (gateway.agent.sandboxNetwork). */
  network: boolean;
  /** Whether this bwrap can forbid new user namespaces inside (0.8 and later, not setuid). */
  disableUserns: boolean;
  /**
   * What is bound at `workspace`: the merged view of the command's copy-on-write layer (its writes go
   * there, the workspace itself is its read-only lower layer). Absent: the workspace itself.
   */
  workspaceView?: string;
  /** The user and group the command runs as inside (bwrap itself starts as root of an outer user namespace). */
  identity?: { uid: number; gid: number };
  /**
   * The size of each tmpfs the command can write (/dev/shm, the emptied home folder, /run): what it keeps there
   * is memory no per-process limit charges. Absent where bwrap cannot size a tmpfs (before 0.8): the kernel's
   * default, half the machine's memory each, and /dev stays as bwrap makes it.
   */
  scratchBytes?: number;
}

/** Whether `path` is `folder` or inside it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/**
 * bwrap's arguments for `spec`, up to and including `--`; the shell and the
 * command line follow. Order matters: later mounts cover earlier ones, so an
 * emptied folder that lies inside the workspace (a workspace that holds the
 * home folder) is emptied after the workspace is bound.
 */
export function bubblewrapArguments(spec: SandboxSpec): string[] {
  const args = ['--unshare-all', '--unshare-user'];
  if (spec.network) args.push('--share-net');
  if (spec.disableUserns) args.push('--disable-userns');
  if (spec.identity) args.push('--uid', String(spec.identity.uid), '--gid', String(spec.identity.gid));
  // The command is PID 1 itself: bwrap's own init, outside the seccomp program, would be a process the command
  // could write into through /proc/1/mem (ptrace is refused, that file is not). When it ends the namespace ends.
  args.push('--new-session', '--die-with-parent', '--as-pid-1', '--cap-drop', 'ALL', '--seccomp', String(seccompFd));
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...sharedMemory(spec.scratchBytes));
  // The session's folder is /tmp: nothing of the machine's /tmp (sockets, other sessions) shows,
  // and a program that ignores TMPDIR still writes where the session keeps its files.
  args.push('--bind', spec.tempDir, '/tmp');
  const emptied = [...(spec.home === undefined ? [] : [spec.home]), ...spec.emptied.filter((folder) => folder !== spec.home)];
  const outer = emptied.filter((folder) => !isWithin(folder, spec.workspace) || folder === spec.workspace);
  const inner = emptied.filter((folder) => !outer.includes(folder));
  args.push(...emptyFolders(outer, spec));
  args.push('--bind', spec.workspaceView ?? spec.workspace, spec.workspace);
  args.push(...emptyFolders(inner, spec));
  for (const folder of spec.readOnly) args.push('--ro-bind', folder, folder);
  for (const { path, directory } of spec.hidden) {
    if (directory) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--chdir', spec.cwd, '--');
  return args;
}

/**
 * /dev read-only (bwrap's --dev makes it a tmpfs the command could fill), then /dev/shm a tmpfs of `bytes`
 * of its own (POSIX shared memory, Python's multiprocessing and Chromium need it writable).
 */
function sharedMemory(bytes: number | undefined): string[] {
  return bytes === undefined ? [] : ['--remount-ro', '/dev', ...sized(bytes), '--tmpfs', '/dev/shm'];
}

/** bwrap's size of the next tmpfs, when there is one to give. */
function sized(bytes: number | undefined): string[] {
  return bytes === undefined ? [] : ['--size', String(bytes)];
}

/** Empty tmpfs over each folder, then what must stay inside it bound back read-only. */
function emptyFolders(folders: readonly string[], spec: SandboxSpec): string[] {
  const args: string[] = [];
  for (const folder of folders) {
    args.push(...sized(spec.scratchBytes), '--tmpfs', folder);
    const back = [...spec.kept, ...(folder === spec.home ? spec.toolchains : [])].filter((path) => isWithin(path, folder) && path !== folder);
    for (const path of back) args.push('--ro-bind', path, path);
  }
  return args;
}

/** What the model is told after a sandboxed command, so a failure reads as the sandbox, not a mystery. */
export function sandboxNote(network: boolean): string {
  return (
    '(Ran in the sandbox of the auto approval mode: only the workspace and /tmp ($TMPDIR, private to this agent session) keep what is written; ' +
    'what it changed in the workspace was applied when it ended, except what other software would run or what is not an ordinary file ' +
    '(.git or any repository, .vscode, hooks, links, new executables, protected files), which waits for the user; ' +
    'the home folder is an empty scratch folder (thrown away after each command) apart from toolchain folders (read-only); ' +
    'protected files cannot be read, and the environment holds only PATH, locale and toolchain variables; ' +
    `Unix sockets (ssh-agent, D-Bus, docker) cannot be used${network ? '' : ', and there is no network'}; ` +
    'every process the command started is stopped when it ends: nothing keeps running in the background. ' +
    'A command that needs more must be run by the user, or in the ask or auto-edit mode.)'
  );
}

/** Everything a sandboxed command's start needs: the host spawns `argv` with exactly `env`, and writes `seccomp` to stdio index `seccompFd`, then closes it. */
export interface SandboxLaunch {
  /** bwrap, its arguments, the shell, `-c` and the command line. */
  argv: string[];
  env: Record<string, string>;
  /** The seccomp program (seccompFilter.ts). */
  seccomp: Uint8Array;
  network: boolean;
}
