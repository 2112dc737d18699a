/**
 * The environment a sandboxed command gets: rebuilt from an allow-list, never
 * the extension host's own. The host's environment holds what a command must
 * not see (VS Code's IPC handles, $SSH_AUTH_SOCK, D-Bus addresses, tokens a
 * user exported before starting VS Code); only variables that say where
 * programs are and how to format text pass.
 */

/** Passed as they are when set. */
const allowedNames = new Set([
  'PATH',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  // Toolchains: where they are installed and which version is chosen.
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'PNPM_HOME',
  'VOLTA_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'SDKMAN_DIR',
  'GRADLE_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'DOTNET_ROOT',
  'RBENV_ROOT',
  'GEM_HOME',
  'GEM_PATH',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
]);

/** Locale variables (LC_ALL, LC_CTYPE, …). */
const allowedPrefixes = ['LC_'];

/** Never passed, whatever the list says: a name that says it holds a credential. */
const credentialName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/** The longest value passed: a PATH is long, a pasted certificate is not wanted. */
const MAX_VALUE_LENGTH = 32 * 1024;

export interface SandboxEnvironmentOptions {
  /** The home folder (hidden inside, but programs expect $HOME). */
  home: string;
  /** The shell that runs the command. */
  shell: string;
}

/** The command's whole environment, from the host's `env`. */
export function sandboxEnvironment(env: Readonly<Record<string, string | undefined>>, options: SandboxEnvironmentOptions): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length > MAX_VALUE_LENGTH || value.includes('\0')) continue;
    if (!isAllowedName(name)) continue;
    result[name] = value;
  }
  result.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  result.HOME = options.home;
  result.SHELL = options.shell;
  result.TMPDIR = '/tmp';
  // No pager: it would wait for keys nobody presses.
  result.PAGER = 'cat';
  result.GIT_PAGER = 'cat';
  return result;
}

export function isAllowedName(name: string): boolean {
  if (credentialName.test(name)) return false;
  return allowedNames.has(name) || allowedPrefixes.some((prefix) => name.startsWith(prefix) && /^[A-Z_]+$/.test(name));
}
