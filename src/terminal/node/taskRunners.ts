/**
 * The task runners a hook's text may run, and the task file each reads from the folder it runs in: `make check` runs
 * the Makefile's recipe, `deno task check` deno.json's `tasks.check`, `pdm run lint` pyproject.toml's
 * `[tool.pdm.scripts]`. One table, read by both the sandbox's review (hookPrograms.ts: a changed task file is held
 * and its tasks are followed as the hook's own lines are) and a hook's approval (NodeHookFiles follows with the same
 * mentionedBy, so the task file is in the approval's digest): a runner added here is known to both (round 19a).
 * A runner not listed is met by the name rule (unknownRunners.ts).
 */
import { withoutComments } from './programConfigs';
import { withEscapesDecoded } from './formatEscapes';
import { pyprojectTaskSections, setupCfgToxSections } from './taskFileSections';

/** What a runner's word makes the text read: its task files (relative to where it runs), and whether it runs package.json's scripts. */
export interface RunnerFiles {
  /** Files (or folders, held whole) relative to the place the runner runs in. */
  files: readonly string[];
  /** It runs package.json's scripts (`deno task` falls back to them; turbo, nx and lerna run them in each package). */
  packageScripts?: boolean;
}

const MAKEFILES = ['makefile', 'gnumakefile', 'Makefile', 'GNUmakefile'];
const GULPFILES = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'babel.js', 'coffee'].flatMap((extension) => [`gulpfile.${extension}`, `Gulpfile.${extension}`]);
const GRUNTFILES = ['js', 'coffee', 'ts', 'cjs', 'mjs'].flatMap((extension) => [`Gruntfile.${extension}`, `gruntfile.${extension}`]);
const INVOKE = ['tasks.py', 'tasks', 'invoke.yaml', 'invoke.yml', 'invoke.json', 'invoke.py'];
const GRADLE = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'];
const MAVEN = ['pom.xml', '.mvn'];

/** A runner's word (the program's file name) and what it reads. */
const RUNNERS: Readonly<Record<string, RunnerFiles>> = {
  make: { files: MAKEFILES },
  // A recipe's `$(MAKE) -C dir`: make again.
  MAKE: { files: MAKEFILES },
  just: { files: ['justfile', '.justfile'] },
  // Task also reads its `.dist` files (a project's shared default, the plain one a user's override); taskipy's `task`
  // reads pyproject.toml's [tool.taskipy.tasks].
  task: {
    files: [...['taskfile', 'Taskfile', 'taskfile.dist', 'Taskfile.dist'].flatMap((stem) => [`${stem}.yml`, `${stem}.yaml`]), 'pyproject.toml'],
  },
  rake: { files: ['rakefile', 'Rakefile', 'rakefile.rb', 'Rakefile.rb'] },
  lefthook: { files: ['lefthook.yml', '.lefthook.yml', 'lefthook-local.yml', 'lefthook.yaml', 'lefthook.toml', 'lefthook.json'] },
  'lint-staged': {
    files: ['.lintstagedrc', '.lintstagedrc.json', '.lintstagedrc.yml', '.lintstagedrc.yaml', 'lint-staged.config.js', 'lint-staged.config.mjs'],
  },
  deno: { files: ['deno.json', 'deno.jsonc'], packageScripts: true },
  composer: { files: ['composer.json'] },
  pdm: { files: ['pyproject.toml', 'pdm.toml', '.pdm.toml'] },
  hatch: { files: ['hatch.toml', 'pyproject.toml'] },
  poe: { files: ['pyproject.toml', 'poe_tasks.toml', 'poe_tasks.yaml', 'poe_tasks.json'] },
  rye: { files: ['pyproject.toml'] },
  tox: { files: ['tox.ini', 'tox.toml', 'pyproject.toml', 'setup.cfg'] },
  nox: { files: ['noxfile.py'] },
  invoke: { files: INVOKE },
  inv: { files: INVOKE },
  'cargo-make': { files: ['Makefile.toml'] },
  makers: { files: ['Makefile.toml'] },
  gulp: { files: GULPFILES },
  grunt: { files: GRUNTFILES },
  mise: {
    files: [
      'mise.toml',
      '.mise.toml',
      'mise.local.toml',
      '.mise.local.toml',
      '.config/mise.toml',
      'mise/config.toml',
      '.mise/config.toml',
      'mise-tasks',
      '.mise-tasks',
      'mise/tasks',
      '.mise/tasks',
    ],
  },
  bundle: { files: ['Gemfile', 'gems.rb'] },
  bundler: { files: ['Gemfile', 'gems.rb'] },
  earthly: { files: ['Earthfile'] },
  mage: { files: ['magefile.go', 'magefiles'] },
  turbo: { files: ['turbo.json', 'turbo.jsonc'], packageScripts: true },
  nx: { files: ['nx.json', 'project.json'], packageScripts: true },
  lerna: { files: ['lerna.json'], packageScripts: true },
  // pytest imports every conftest.py on its way to the tests (and its plugins), code as a Makefile's recipes are.
  pytest: { files: ['conftest.py', 'pytest.ini'] },
  gradle: { files: GRADLE },
  gradlew: { files: GRADLE },
  mvn: { files: MAVEN },
  mvnw: { files: MAVEN },
  ant: { files: ['build.xml'] },
  devbox: { files: ['devbox.json', 'devbox.lock'] },
  flox: { files: ['.flox/env/manifest.toml', '.flox/env.json'] },
};

/** The words that run a package's program from node_modules (`npx lint-staged`, `yarn lint-staged`, `pnpm exec x`). */
export const PACKAGE_RUNNERS = /^(npm|npx|yarn|pnpm|pnpx|bun|bunx)$/;

/**
 * What the word at `index` of a text's words runs, when it names a runner: by its file name (`./gradlew`,
 * `/usr/bin/make`), and `cargo make` as cargo-make.
 */
export function runnerFilesAt(words: readonly string[], index: number): RunnerFiles | undefined {
  const word = words[index];
  const name = word.slice(word.lastIndexOf('/') + 1);
  if (name === 'cargo') return words[index + 1] === 'make' ? RUNNERS['cargo-make'] : undefined;
  return Object.hasOwn(RUNNERS, name) ? RUNNERS[name] : undefined;
}

/** Whether `name` (a program's file name) is a runner of the table or a package runner. */
export function isKnownRunner(name: string): boolean {
  return Object.hasOwn(RUNNERS, name) || name === 'cargo' || PACKAGE_RUNNERS.test(name);
}

/**
 * What of a task file runs, as text read as a hook's is (one command line a line): package.json's scripts, deno.json's
 * tasks, composer.json's scripts, devbox.json's init_hook and scripts, the runners' sections of pyproject.toml and
 * setup.cfg; any other file whole. A text that does not parse is read whole: nothing of it goes unread.
 */
export function taskFileText(name: string, text: string): string {
  switch (name) {
    case 'package.json':
      return jsonStrings(text, (json) => [json.scripts]);
    case 'deno.json':
    case 'deno.jsonc':
      // A task is a string or `{ "command": … }` (deno 2).
      return jsonStrings(text, (json) => [json.tasks]);
    case 'composer.json':
      return composerScripts(text);
    case 'devbox.json':
      return jsonStrings(text, (json) => [asRecord(json.shell).init_hook, asRecord(json.shell).scripts]);
    case 'pyproject.toml': {
      const sections = pyprojectTaskSections(text);
      return `${sections}\n${withEscapesDecoded(sections)}`;
    }
    case 'setup.cfg':
      return setupCfgToxSections(text);
    default:
      return text;
  }
}

/** The strings (nested in arrays and objects, 4 deep) of the values `pick` takes from a JSON text, one a line. */
function jsonStrings(text: string, pick: (json: Record<string, unknown>) => unknown[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutComments(text));
  } catch {
    return text;
  }
  const lines: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') lines.push(value);
    else if (depth < 4 && typeof value === 'object' && value !== null) for (const item of Object.values(value)) walk(item, depth + 1);
  };
  for (const value of pick(asRecord(parsed))) walk(value, 0);
  return lines.join('\n');
}

/**
 * composer.json's scripts: `@php x` runs php, `@composer x` composer; a PHP callback (`App\Scripts\Lint::run`) loads its
 * class's file, named here (`Lint.php`, held wherever it is).
 */
function composerScripts(text: string): string {
  const scripts = jsonStrings(text, (json) => [json.scripts]);
  return scripts
    .split('\n')
    .map((line) => {
      const callback = /^\\?(?:[A-Za-z_][A-Za-z0-9_]*\\)*([A-Za-z_][A-Za-z0-9_]*)::[A-Za-z_][A-Za-z0-9_]*$/.exec(line.trim());
      return callback ? `${callback[1]}.php` : line.replace(/^@(php|composer|putenv)\b/, '$1');
    })
    .join('\n');
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
