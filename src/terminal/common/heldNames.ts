/**
 * What the change review holds by name, or by the structure a name gives (changeReview.ts): the folders version
 * control systems find a repository by, and the files editors, agents, runners and Git's hook managers run code
 * from. Those programs find them by name, so here the name is the structure. The file tools ask before writing any
 * of them in every approval mode (isHeldByName: one predicate for both).
 */
import { isControlPath } from './controlPaths';

/**
 * The folders version control systems find a repository by, whatever is in them: Git's `.git`, Mercurial's `.hg`
 * and Sapling's `.sl` (hg and sl run their config's `[hooks]` and load its `[extensions]` at every command, a
 * shell prompt's or an editor's status included, and trust a config the user owns).
 */
export const REPOSITORY_NAMES = new Set(['.git', '.hg', '.sl']);

/**
 * A Mercurial or Sapling repository's own config, by the folder it is in (`.hg/hgrc`, `.sl/config`): what its hooks
 * and extensions name is followed as a hook's text is (node/runnerConfigs.ts), from the repository's top.
 */
export function isOtherRepositoryConfig(folderName: string, name: string): boolean {
  const folder = folderName.toLowerCase();
  const lower = name.toLowerCase();
  return (folder === '.hg' && lower === 'hgrc') || (folder === '.sl' && lower === 'config');
}

/** The config file of a `.hg` or `.sl` folder named `name`, or undefined for another name. */
export function otherRepositoryConfigIn(name: string): string | undefined {
  const lower = name.toLowerCase();
  return lower === '.hg' ? `${name}/hgrc` : lower === '.sl' ? `${name}/config` : undefined;
}

/**
 * Names VS Code, other editors and agents, and the tools Git runs on its own events run code from, wherever
 * they are (case-insensitive): those programs find them by name.
 */
const EDITOR_AND_AGENT_NAMES = new Set([
  '.vscode',
  '.husky',
  '.envrc',
  '.gitmodules',
  '.gitattributes',
  '.lfsconfig',
  '.claude',
  '.codex',
  '.gemini',
  '.cursor',
  '.windsurf',
  '.roo',
  '.kilocode',
  '.continue',
  '.amazonq',
  '.idea',
  '.zed',
  '.kiro',
  '.opencode',
  'opencode.json',
  '.mcp.json',
  '.devcontainer',
  '.devcontainer.json',
  '.pre-commit-config.yaml',
  '.pre-commit-hooks.yaml',
  '.overcommit.yml',
  '.git-hooks',
  // mise runs a trusted config's hooks and env on entering its folder, and trusts by path, not content.
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  '.mise',
  '.rtx.toml',
  // Other agents and editors that run commands or servers from their workspace configs.
  '.qwen',
  '.crush.json',
  'crush.json',
  '.helix',
  // Factory's Droid, Augment's Auggie, Qoder and Amp run the hooks and servers of their project settings, and
  // OpenCode reads opencode.jsonc as opencode.json; GitHub Copilot CLI starts the language servers of a lsp.json.
  '.factory',
  '.augment',
  '.qoder',
  '.amp',
  'opencode.jsonc',
  'lsp.json',
  // OpenHands runs `.openhands/setup.sh` at the start of every session and installs `.openhands/pre-commit.sh` as the
  // Git pre-commit hook of its commits; its `hooks.json` is Claude Code's hooks format.
  '.openhands',
  // bun loads the modules bunfig.toml's `preload` names, and pnpm runs .pnpmfile.cjs, at every install or run.
  'bunfig.toml',
  '.bunfig.toml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  // yarn runs the program yarnPath / yarn-path names for every yarn command (a hook's `yarn lint-staged`).
  '.yarnrc.yml',
  '.yarnrc',
]);

/** Names of Git hook managers' configs (lefthook, simple-git-hooks, husky 4, lint-staged), in every spelling their documentation accepts. */
const HOOK_MANAGER_NAMES = [
  /^\.?lefthook(-local)?(\.(ya?ml|toml|jsonc?))?$/,
  /^\.?simple-git-hooks(\.(c?js|json))?$/,
  /^\.huskyrc(\.(json|ya?ml|[cm]?js))?$/,
  /^husky\.config\.[cm]?js$/,
  /^\.lintstagedrc(\.(json|ya?ml|[cm]?[jt]s))?$/,
  /^lint-staged\.config\.[cm]?[jt]s$/,
  /^\.?nano-staged(\.(json|[cm]?js|ya?ml))?$/,
  /^nano-staged\.config\.[cm]?[jt]s$/,
  /^\.commitlintrc(\.(json|ya?ml|[cm]?[jt]s))?$/,
  /^commitlint\.config\.[cm]?[jt]s$/,
  // aider runs its lint and test commands after every edit.
  /^\.aider\.conf\.ya?ml$/,
  // mise's per-environment configs (MISE_ENV).
  /^\.?mise\.[^.]+(\.local)?\.toml$/,
  // package.json's other spellings, where lint-staged and others read their keys too.
  /^package\.ya?ml$/,
  /^\.?captainhook\.json$/,
  /^\.?rusty-hook\.toml$/,
  /^grumphp\.ya?ml(\.dist)?$/,
  /^hk\.pkl$/,
  /^\.pre-commit-config\.ya?ml$/,
];
const WORKSPACE_FILE_SUFFIX = '.code-workspace';
/** Folders whose `hooks` folder an agent runs programs from at its events. */
const HOOK_FOLDER_PARENTS = new Set(['.github', '.clinerules', '.cline']);
/** Files of `.github` whose servers GitHub Copilot CLI starts (the rest of `.github`, its workflows, runs on GitHub's machines). */
const GITHUB_SERVER_CONFIGS = new Set(['lsp.json', 'mcp.json']);

/**
 * The configs whose text names more files that run outside the sandbox: direnv's `.envrc` (what it sources, the
 * flake or shell it uses), husky's folder (the scripts its hooks run), the hook managers' configs. Found by the
 * name their programs look for; what they name is held like what a Git config points at.
 */
export function isRunnerConfigName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === '.envrc' ||
    lower === '.husky' ||
    lower === 'mise.toml' ||
    lower === '.mise.toml' ||
    /^\.?mise\.[^.]+(\.local)?\.toml$/.test(lower) ||
    lower === '.yarnrc.yml' ||
    lower === '.yarnrc' ||
    HOOK_MANAGER_NAMES.some((pattern) => pattern.test(lower))
  );
}

/**
 * Whether `path` (workspace-relative) is an editor's or agent's config whose command lines run outside the sandbox
 * without a new question once approved (VS Code's tasks, MCP servers, settings and debug configurations, a
 * `*.code-workspace`, Copilot's, Cline's, Claude Code's,
 * Cursor's and Gemini's hooks and servers, Dev Containers' config, a project's `.mcp.json`): what those lines run is
 * followed as a hook's text is (node/runnerConfigs.ts, node/programConfigs.ts).
 */
export function isProgramConfigPath(path: string): boolean {
  const segments = path.toLowerCase().split('/');
  const name = segments[segments.length - 1];
  const parent = segments[segments.length - 2] ?? '';
  const grandparent = segments[segments.length - 3] ?? '';
  // A workspace file's settings, tasks and launch configurations run programs as .vscode's do.
  if (name === '.mcp.json' || name === '.devcontainer.json' || name.endsWith(WORKSPACE_FILE_SUFFIX)) return true;
  if (name === 'devcontainer.json' && segments.includes('.devcontainer')) return true;
  if (parent === 'hooks' && HOOK_FOLDER_PARENTS.has(grandparent)) return true;
  return (PROGRAM_CONFIGS.get(parent) ?? []).includes(name);
}

/**
 * Whether `path` is a config among what is held by name (`.roo/mcp.json`, `.kilocode/mcp.json`, `.qwen/settings.json`,
 * `opencode.json`, `crush.json`, `.zed/settings.json`, `.codex/config.toml`, Kiro's `.kiro/hooks/x.kiro.hook`,
 * JetBrains' File Watchers…): the agents and editors that read it may start a server or a tool it names, so its
 * values are read as a program config's are (node/runnerConfigs.ts, node/programConfigs.ts: by what the text parses
 * as, JSON or XML whatever the extension), whichever program reads it: no list of configs keeps up. Which files are
 * read goes by the name, since every one is read at every review (64 KB each, 500 in all, past either the whole change
 * set waits): the JSON, YAML and TOML ones, Kiro's `.hook` files (JSON), and of the XML ones those JetBrains IDEs run
 * programs from by themselves. Not the rest of `.idea`: its project model and window state (workspace.xml names the
 * user's open and changed files, other.xml and the caches run past 64 KB) would hold ordinary edits or whole change sets.
 */
export function isHeldConfigFile(path: string): boolean {
  return (/\.(jsonc?|json5|ya?ml|toml|hook)$/i.test(path) || isIdeRunConfig(path)) && isEditorOrAgentPath(path);
}

/**
 * A JetBrains config that runs programs without the user starting them: File Watchers (`.idea/watcherTasks.xml`, run
 * at each save), and the shared run configurations (`.idea/runConfigurations/*.xml`), which a startup task runs at
 * project open.
 */
function isIdeRunConfig(path: string): boolean {
  const segments = path.toLowerCase().split('/');
  const [name, parent, grandparent] = [segments[segments.length - 1], segments[segments.length - 2], segments[segments.length - 3]];
  return (parent === '.idea' && name === 'watchertasks.xml') || (grandparent === '.idea' && parent === 'runconfigurations' && name.endsWith('.xml'));
}

/**
 * Whether the entry at `path` (`/`-separated, from the folder it is found in) is a config the review reads: a runner
 * config, a Mercurial or Sapling repository's config, an editor's or agent's program config, or a file held by name
 * whose values may start a program. One predicate for the workspace's walk (node/protectedPathCache.ts) and the
 * folders above it and beside it (node/configsAround.ts), so a config is read wherever it is found.
 */
export function isReviewedConfig(path: string, isDirectory: boolean): boolean {
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  return (
    isRunnerConfigName(name) ||
    isOtherRepositoryConfig(segments[segments.length - 2] ?? '', name) ||
    isProgramConfigPath(path) ||
    (!isDirectory && isHeldConfigFile(path))
  );
}

/** The configs, by their folder, whose command lines run. */
const PROGRAM_CONFIGS = new Map([
  // settings.json: a terminal profile's path and args, an interpreter's or a tool's path (`python.defaultInterpreterPath`,
  // `git.path`), terminal variables (BASH_ENV, NODE_OPTIONS); launch.json: a debug configuration's program.
  ['.vscode', ['tasks.json', 'mcp.json', 'settings.json', 'launch.json']],
  ['.claude', ['settings.json', 'settings.local.json']],
  ['.cursor', ['hooks.json', 'mcp.json']],
  ['.gemini', ['settings.json']],
  // OpenHands' session setup script and its commits' pre-commit hook: what they run is followed as a hook's is.
  ['.openhands', ['hooks.json', 'setup.sh', 'pre-commit.sh']],
]);

/** Whether `path` is one of the files VS Code or another agent runs code from, by the name those programs look for. */
export function isEditorOrAgentPath(path: string): boolean {
  const segments = path.toLowerCase().split('/');
  return segments.some(
    (segment, index) =>
      EDITOR_AND_AGENT_NAMES.has(segment) ||
      segment.endsWith(WORKSPACE_FILE_SUFFIX) ||
      // Copilot's hooks, Cline's (`.clinerules/hooks/TaskStart`, `.cline/hooks/PreToolUse`: run at its events).
      (segment === 'hooks' && HOOK_FOLDER_PARENTS.has(segments[index - 1])) ||
      (GITHUB_SERVER_CONFIGS.has(segment) && segments[index - 1] === '.github') ||
      // mise reads mise/config.toml and .config/mise/… in every folder up from where you are.
      segment === 'mise' ||
      HOOK_MANAGER_NAMES.some((name) => name.test(segment)),
  );
}

/**
 * Whether `path` (workspace-relative, `/`-separated) is or lies in what the review holds by name or by the
 * structure its name gives it: a repository folder (`.git`, `.hg`, `.sl`), the control paths, the files editors,
 * agents, runners and hook managers run code from. One predicate for both sides: a sandboxed command's change there
 * is held, and a file tool's write there asks in every approval mode (agent/common/approvals/approvalPolicy.ts).
 */
export function isHeldByName(path: string): boolean {
  if (isControlPath(path) || isEditorOrAgentPath(path)) return true;
  return path
    .toLowerCase()
    .split('/')
    .some((segment) => REPOSITORY_NAMES.has(segment));
}
