/**
 * What `auto` means for commands: they run in a bubblewrap sandbox, not after a
 * deny list (no parser reads `{rm,-rf,x}`, `/bin/r[m]` or `python3 -c` the way
 * the shell will). Inside it the whole file system is read-only except the
 * workspace and a private temp folder ($TMPDIR); the workspace's protected files and the
 * home folder's secrets are covered by empty ones; `.git` and `.vscode` (what
 * decides what runs next) are read-only; and there is no network unless the
 * user allows it. This module builds bwrap's arguments and nothing else: the
 * host finds the paths (they must exist) and runs it.
 */

/** Home-folder files and folders that hold credentials; covered when they exist. */
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
];

/** Workspace folders that decide what runs next: readable in the sandbox, never writable. */
export const readOnlyWorkspaceFolders: readonly string[] = ['.git', '.vscode'];

export interface SandboxSpec {
  /** Absolute: the only folder (with `tempDir`) a command may write to. */
  workspace: string;
  /** Absolute: a private folder, writable inside the sandbox and given to the command as TMPDIR. */
  tempDir: string;
  /** Absolute: where the command starts, inside the workspace. */
  cwd: string;
  /** Absolute paths of existing files and folders to cover with empty ones (protected files, home secrets). */
  hidden: readonly { path: string; directory: boolean }[];
  /** Absolute paths of existing folders to make read-only (inside the writable workspace). */
  readOnly: readonly string[];
  /** Whether the command may reach the network (gateway.agent.sandboxNetwork). */
  network: boolean;
}

/**
 * bwrap's arguments for `spec`, up to and including `--`; the shell and the
 * command line follow. Order matters: later mounts cover earlier ones.
 */
export function bubblewrapArguments(spec: SandboxSpec): string[] {
  const args = ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // The temp folder at its own path, not over /tmp: a workspace under /tmp keeps its siblings
  // visible (read-only), so `touch ../x` says "Read-only file system" rather than "No such file".
  args.push('--bind', spec.tempDir, spec.tempDir, '--setenv', 'TMPDIR', spec.tempDir);
  args.push('--bind', spec.workspace, spec.workspace);
  for (const folder of spec.readOnly) args.push('--ro-bind', folder, folder);
  for (const { path, directory } of spec.hidden) {
    if (directory) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  if (!spec.network) args.push('--unshare-net');
  args.push('--chdir', spec.cwd, '--');
  return args;
}

/** What the model is told after a sandboxed command, so a failure reads as the sandbox, not a mystery. */
export function sandboxNote(network: boolean): string {
  return (
    '(Ran in the sandbox of the auto approval mode: only the workspace and $TMPDIR are writable, not .git, .vscode or protected files; ' +
    `protected files and the home folder's credentials cannot be read${network ? '' : '; there is no network'}. ` +
    'A command that needs more must be run by the user, or in the ask or auto-edit mode.)'
  );
}
