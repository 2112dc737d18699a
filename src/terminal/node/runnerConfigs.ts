/**
 * What the configs that name more files run outside the sandbox point at, read as their programs read them:
 * - direnv's `.envrc`: every path its text names (`source_env scripts/dev.envrc`, `dotenv_if_exists x.env`), and
 *   with `use flake` / `use nix` / `use devenv` / devbox / flox the flake or shell it builds (flake.nix and flake.lock,
 *   shell.nix, default.nix, devenv.nix, devbox.json, .flox/env/manifest.toml), whose shellHook direnv sources, and what those read in turn
 *   (3 deep: a flake's imports, a shellHook's script); direnv's allow covers the `.envrc` alone;
 * - husky's folder (its hooks and husky's own `_` scripts): every path the hooks' text names
 *   (`sh scripts/check.sh`), taken from the work tree's top, where Git runs them;
 * - the hook managers' configs (lefthook, pre-commit's `repo: local` entries…): every path they name.
 * A change to any of them is code that runs at the user's next prompt or commit, so it is held like what a Git
 * config points at. Both the workspace's version and the command's are read (either may be the one that runs).
 * Bounded: 500 configs, 200 files in a folder, 64 KB of each.
 */
import { lstat, readdir } from 'node:fs/promises';
import { isHeldConfigFile, isOtherRepositoryConfig, isProgramConfigPath, isRunnerConfigName } from '../common/changeReview';
import { programConfigTexts, stringLiterals } from './programConfigs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { listBeneath, readBeneath, withFolderBeneath } from './pinnedPaths';
import { absentOr, addNamedInside, ConfigTooLarge, pathLikeWords, readStart } from './gitStructure';
import { mentionedAnywhere, mentionedBy, mentionedByValue, type Mentioned } from './hookPrograms';
import { withEscapesDecoded } from './formatEscapes';
import { ReviewBound } from './reviewBounds';

/** Runner configs read in one review, and files of a config that is a folder (husky's): past either, the whole change set waits. */
const CONFIGS = new ReviewBound(500, 'the runner and program configs to read');
const CONFIG_FOLDER_FILES = new ReviewBound(200, "a config folder's files (husky's hooks)");
const FOLDER_FILES = CONFIG_FOLDER_FILES.limit;
const CONFIG_BYTES = 64 * 1024;
const SOURCED_DEPTH = 6;
/** Lines of a YAML or TOML file held by name that are values (blank and comment lines not counted). */
const VALUE_LINES = new ReviewBound(10_000, 'a YAML or TOML config held by name has lines');

/** Workspace-relative paths the runner configs at `configs` (workspace-relative) name, in the workspace or the layer `upper`. */
export async function pathsRunnerConfigsPointAt(options: {
  root: string;
  upper: string;
  configs: readonly string[];
  /** Absolute: the folder each config outside the workspace was found in (configsAround.ts); the workspace's top for the rest. */
  tops?: ReadonlyMap<string, string>;
  mentioned?: Mentioned;
}): Promise<string[]> {
  const { root, upper, configs } = options;
  const found = new Set<string>();
  const add = (path: string) => addNamedInside(found, root, path);
  CONFIGS.check(configs.length);
  for (const config of configs) {
    const name = config.slice(config.lastIndexOf('/') + 1).toLowerCase();
    // What the config's words are taken from: husky's hooks run at the work tree's top, the others where they are.
    // A Mercurial or Sapling config's hooks run from the repository's top, its extensions' paths are read from there too.
    const otherRepository = isOtherRepositoryConfig(basename(dirname(config)), name);
    const base = join(root, otherRepository ? dirname(dirname(config)) : dirname(config));
    const sourced: string[] = [];
    // An editor's or agent's config: its command lines, run from the workspace's top or the folder above the
    // config's own (`.vscode`, `.github/hooks`), read as a hook's text is.
    // Another JSON, YAML or TOML file held by name (`.roo/mcp.json`, `opencode.json`): read as a program config too.
    const heldOnly = !isProgramConfigPath(config) && !isRunnerConfigName(name) && !otherRepository && isHeldConfigFile(config);
    const programConfig = isProgramConfigPath(config) || heldOnly;
    // Never above the folder it was found in: a config outside the workspace runs from its own folder, as one inside from the top.
    const top = options.tops?.get(config) ?? root;
    const places = programConfig
      ? [...new Set([base, join(root, dirname(config), '..'), join(root, dirname(config), '..', '..'), root])].filter(
          (place) => !relative(top, place).startsWith('..'),
        )
      : otherRepository
        ? [base, join(root, dirname(config))]
        : [base];
    // A config outside the workspace is not in the command's layer: only the one on disk runs.
    for (const whole of await textsAndDecoded(config, root, config.startsWith('../') ? undefined : upper)) {
      const read = programConfig ? programConfigTexts(whole) : { commands: whole, values: [], json: false, placed: [] };
      // Such a file in YAML or TOML: its lines are values (a word naming an existing file is a program), not command lines.
      const { commands: text, values } = heldOnly && !read.json ? { commands: '', values: valueLines(whole) } : read;
      if (options.mentioned) mentionedBy(text, options.mentioned, places);
      // An entry's own working folder (`cwd`, a task's `options.cwd`, an npm task's `path`, lefthook's `root`): its
      // line runs there, so it is read from there too.
      for (const { folder, commands } of [...read.placed, ...lefthookRoots(name, whole, text)]) {
        if (!options.mentioned) continue;
        if (folder === undefined) mentionedAnywhere(commands, options.mentioned);
        else
          mentionedBy(
            commands,
            options.mentioned,
            inside(
              root,
              places.map((place) => resolve(place, folder)),
            ),
          );
      }
      // Its other values: a word that names an existing file is a program (an MCP server's envFile, an rcfile).
      for (const value of values) if (options.mentioned) mentionedByValue(value, options.mentioned, places);
      for (const word of pathLikeWords(text)) add(resolve(base, word));
      if (name !== '.envrc') continue;
      for (const word of pathLikeWords(text)) sourced.push(resolve(base, word));
      for (const built of builtByEnvrc(text)) sourced.push(join(base, built));
    }
    for (const path of sourced) add(path);
    // What direnv sources and builds reads more files in turn (a flake's imports, a shell's shellHook script).
    await followSourced({ root, upper, start: sourced, add });
  }
  return [...found];
}

/**
 * Follows the files direnv sources or builds, their words read as paths from their own folder: 6 deep, 200 files
 * at most; past either, what they read is not known, so the whole change set waits (ConfigTooLarge).
 */
async function followSourced(options: { root: string; upper: string; start: readonly string[]; add: (path: string) => void }): Promise<void> {
  const { root, upper, add } = options;
  const seen = new Set<string>();
  let read = 0;
  let level = [...options.start];
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const path of level) {
      if (seen.has(path)) continue;
      seen.add(path);
      const inside = relative(root, path);
      if (inside.startsWith('..') || isAbsolute(inside)) continue;
      const texts = await textsOf(inside, root, upper);
      if (texts.length === 0) continue;
      // Only files that are there count against the bounds (a word such as `pkgs.nodejs` names none).
      if (depth >= SOURCED_DEPTH || ++read > FOLDER_FILES) {
        throw new ConfigTooLarge(`what direnv sources goes more than ${SOURCED_DEPTH} files deep or past ${FOLDER_FILES} files, too many to check`);
      }
      for (const text of texts) {
        for (const word of pathLikeWords(text)) {
          const target = resolve(dirname(path), word);
          add(target);
          next.push(target);
        }
      }
    }
    level = next;
  }
}

/**
 * lefthook's `root` of a command ("change the CWD for the command you execute"): the config's text read again from
 * each (a text's lines all from each root: one more place, never one fewer). A root given by a variable is unknown.
 */
function lefthookRoots(name: string, whole: string, text: string): { folder: string | undefined; commands: string }[] {
  if (!/^\.?lefthook(?:-local)?\.(?:ya?ml|toml|json)$/.test(name)) return [];
  const roots = new Set<string | undefined>();
  for (const match of whole.matchAll(/^[ \t]*"?root"?[ \t]*[:=][ \t]*(["']?)([^"'#\n]*)\1[ \t,]*(?:#.*)?$/gm)) {
    const folder = match[2].trim();
    if (folder !== '') roots.add(/[$~{]/.test(folder) ? undefined : folder);
    ROOTS.check(roots.size);
  }
  // Anywhere on a line too, a JSON string decoded (round 20a: a one-line `lefthook.json`'s `"root":"tools/"`,
  // `"tool\u0073/"`): a wrong guess holds more, never less.
  for (const match of whole.matchAll(/"root"[ \t\r\n]*:[ \t\r\n]*("(?:[^"\\\n]|\\.)*")/g)) {
    let folder: string;
    try {
      folder = (JSON.parse(match[1]) as string).trim();
    } catch {
      folder = match[1].slice(1, -1).trim();
    }
    if (folder !== '') roots.add(/[$~{\\]/.test(folder) ? undefined : folder);
    ROOTS.check(roots.size);
  }
  // A JSON config's commands are its string values, decoded, one a line (its `"run":"eslint ."` is no shell line).
  const commands = name.endsWith('.json') ? `${text}\n${stringLiterals(whole).join('\n')}` : text;
  return [...roots].map((folder) => ({ folder, commands }));
}

/** Distinct `root`s of one lefthook config read (each reads the config's text again). */
const ROOTS = new ReviewBound(24, "a lefthook config's command `root`s");

/** The places inside the workspace. */
function inside(root: string, places: readonly string[]): string[] {
  return [...new Set(places)].filter((place) => {
    const path = relative(root, place);
    return !path.startsWith('..') && !isAbsolute(path);
  });
}

/** A YAML or TOML file's lines that may hold a value; past the bound the whole change set waits. */
function valueLines(whole: string): string[] {
  const lines = whole.split('\n').filter((line) => !/^\s*(?:#.*)?$/.test(line));
  VALUE_LINES.check(lines.length);
  return lines;
}

/**
 * The texts of a config, and each again with YAML's and TOML's string escapes decoded where it has any (`\u002f` is
 * `/` to the program's parser): the review reads both, what it holds only grows.
 */
async function textsAndDecoded(config: string, root: string, upper: string | undefined): Promise<string[]> {
  const texts = await textsOf(config, root, upper);
  // A JSON config's escapes are JSON.parse's to decode: decoded here, its `\"` would break the JSON (read then as raw
  // text, every path-like word of it held, a hook's own output file included). Kiro's `.kiro.hook` is JSON too.
  if (/\.(?:json|jsonc|code-workspace|hook)$/i.test(config)) return texts;
  const decoded = texts.map(withEscapesDecoded).filter((text, index) => text !== texts[index]);
  return [...texts, ...decoded];
}

/** The files `use flake`, `use nix`, `use devenv`, devbox and flox build the shell from. */
function builtByEnvrc(text: string): string[] {
  const built: string[] = [];
  if (/^[ \t]*use[ \t]+flake\b/m.test(text)) built.push('flake.nix', 'flake.lock');
  if (/^[ \t]*use[ \t]+nix\b/m.test(text)) built.push('shell.nix', 'default.nix');
  if (/^[ \t]*use[ \t]+devenv\b/m.test(text)) built.push('devenv.nix', 'devenv.yaml', 'devenv.lock', 'devenv.local.nix');
  // devbox's generated `.envrc` (`eval "$(devbox generate direnv --print-envrc)"`) runs devbox.json's init_hook, and
  // `use flox` the manifest's `[hook]` and `[profile]` (round 19a); neither spells its file. Their texts are followed as
  // command lines too: the words `devbox` and `flox` are runners of taskRunners.ts, read by mentionedBy.
  if (/\bdevbox\b/.test(text)) built.push('devbox.json', 'devbox.lock');
  if (/\bflox\b/.test(text)) built.push('.flox/env/manifest.toml', '.flox/env.json');
  return built;
}

/**
 * The texts of a config (a file, or a folder's files and its `_` folder's), from each base it is in. The command's
 * layer (`upper`) is read only through folders opened beneath it without following a link (a link it made there, as
 * an entry or as a folder on the way, could lead to the user's files: round 15); a link is held as a link, unread.
 */
async function textsOf(config: string, root: string, upper: string | undefined): Promise<string[]> {
  const texts: string[] = [];
  if (upper !== undefined) {
    const inside = config.split(sep).join('/');
    const slash = inside.lastIndexOf('/');
    const info = await withFolderBeneath(upper, slash < 0 ? '' : inside.slice(0, slash), (folder) =>
      lstat(`${folder}/${inside.slice(slash + 1)}`).catch((error: unknown) => absentOr(error, config)),
    );
    if (info?.isFile()) {
      const text = await readBeneath(upper, inside, CONFIG_BYTES, tooLarge(config));
      if (text !== undefined) texts.push(text);
    } else if (info?.isDirectory()) {
      for (const folder of [inside, `${inside}/_`]) {
        const entries = await listBeneath(upper, folder);
        CONFIG_FOLDER_FILES.check(entries.length);
        for (const entry of entries) {
          const text = entry.isFile() ? await readBeneath(upper, `${folder}/${entry.name}`, CONFIG_BYTES, tooLarge(entry.name)) : undefined;
          if (text !== undefined) texts.push(text);
        }
      }
    }
  }
  const path = join(root, config);
  const info = await lstat(path).catch((error: unknown) => absentOr(error, path));
  if (info?.isFile()) {
    const text = await wholeText(path);
    if (text !== undefined) texts.push(text);
  } else if (info?.isDirectory()) {
    for (const folder of [path, join(path, '_')]) {
      const names = (await readdir(folder).catch((error: unknown) => absentOr(error, folder))) ?? [];
      CONFIG_FOLDER_FILES.check(names.length);
      for (const name of names) {
        const text = await wholeText(join(folder, name));
        if (text !== undefined) texts.push(text);
      }
    }
  }
  return texts;
}

/** A config's whole text; over CONFIG_BYTES what it names past the bound is unknown, so the whole change set waits. */
function wholeText(path: string): Promise<string | undefined> {
  return readStart(path, CONFIG_BYTES, 'follow', tooLarge(path));
}

function tooLarge(path: string): () => Error {
  return () => new ConfigTooLarge(`${basename(path)} is over ${CONFIG_BYTES / 1024} KB, too large to check`);
}
