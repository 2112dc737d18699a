/**
 * What an editor's or agent's config runs (VS Code's tasks, MCP servers and settings, a `*.code-workspace`, Copilot's,
 * Claude Code's, Cursor's and Gemini's hooks and servers, Dev Containers' host-side `initializeCommand`, a project's
 * `.mcp.json`), read from the config as its program reads it (JSON, with comments and trailing commas as VS Code
 * allows them):
 * - the command lines: the values of the keys that hold one (`command`, `args`, `bash`, `initializeCommand`…), and an
 *   npm task's script as `npm run <script>`, without what they write (a `>` target), read as a hook's text is
 *   (hookPrograms.ts mentionedBy);
 * - every other string value, whatever its key (`envFile`, `apiKeyHelper`, `tools.discoveryCommand`, a terminal
 *   profile's `--rcfile x`, `python.defaultInterpreterPath`: no list of keys keeps up): each word that names an
 *   existing file is a program too (hookPrograms.ts mentionedByValue).
 * runnerConfigs.ts follows and holds both as what a Git hook runs is. A text that is not JSON is read whole as
 * command lines and its string literals as values (VS Code reads JSON with jsonc-parser, which uses what it can parse of
 * a text JSON.parse refuses: a stray U+00A0, an extra token). Bounded: the text is at most 64 KB (the caller's bound),
 * 20 levels and 10,000 values are walked; past either the text is read the same way (round 14: a config past 10,000
 * values read as command lines alone hid `"args": ["server"]`).
 */

import { withoutOutputs } from '../common/shellWords';
import { relativeFolder } from '../common/shellFolders';
import { xmlConfig } from './xmlConfigs';

/**
 * A command line of an entry that names its working folder (a Copilot hook's or MCP server's `cwd`, a task's
 * `options.cwd`, an npm task's `path`): workspace-relative, `${workspaceFolder}` expanded, read as the approval reads
 * a hook's `cwd` (hookConfig.ts relativeFolder); undefined when it is not known before the entry runs (another
 * variable, a folder outside the workspace), its words then held wherever they are (hookPrograms.ts mentionedAnywhere).
 */
export interface PlacedCommands {
  folder: string | undefined;
  commands: string;
}

/** Keys whose value (a string, or strings in an array or object) is a command line or part of one (`arguments`: a JetBrains File Watcher's). */
const COMMAND_KEYS = new Set(['command', 'args', 'arguments', 'bash', 'sh', 'powershell', 'initializecommand', 'program', 'runtimeexecutable', 'runtimeargs']);
const MAX_DEPTH = 20;
const MAX_VALUES = 10_000;

/**
 * What a config's whole text runs: its command lines, one a line (the whole text when it is neither JSON nor XML), and
 * its other string values. Read by what the text is, whatever the file's extension (a Kiro `.kiro.hook` is JSON, a
 * JetBrains File Watcher's config XML: xmlConfigs.ts); `json`: it parsed as either.
 */
export function programConfigTexts(text: string): { commands: string; values: string[]; json: boolean; placed: PlacedCommands[] } {
  let parsed: unknown;
  // A text that starts as XML is no JSON; one that is neither is read whole.
  const xml = xmlConfig(text);
  if (xml !== undefined) {
    if (xml.tree === undefined) return { commands: xml.text, values: xml.values, json: true, placed: [] };
    parsed = xml.tree;
  } else {
    try {
      parsed = JSON.parse(withoutComments(text));
    } catch {
      return { commands: text, values: stringLiterals(text), json: false, placed: unparsedFolders(text) };
    }
  }
  const lines: string[] = [];
  const placed: PlacedCommands[] = [];
  const values: string[] = [];
  let seen = 0;
  // Past a bound the walk stops, and the text is read by its strings instead: nothing of it goes unread.
  let cut = false;
  const bounded = (depth: number) => (cut ||= ++seen > MAX_VALUES || depth > MAX_DEPTH);
  const strings = (value: unknown, depth: number): string[] => {
    if (bounded(depth)) return [];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.flatMap((item) => strings(item, depth + 1));
    if (typeof value === 'object' && value !== null) return Object.values(value).flatMap((item) => strings(item, depth + 1));
    return [];
  };
  // `inherited`: the working folders an enclosing object gives (tasks.json's top-level `options.cwd`, a task's folder
  // for the command of its `linux`/`osx`/`windows` section), used where an entry names none of its own.
  const walk = (value: unknown, depth: number, inherited: readonly (string | undefined)[]): void => {
    if (bounded(depth)) return;
    if (typeof value === 'string') values.push(value);
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1, inherited);
      return;
    }
    const object = value as Record<string, unknown>;
    const folders = workingFoldersOf(object, inherited);
    const here: string[] = [];
    // An npm task (`"type": "npm", "script": "build"`) runs package.json's script.
    if (object.type === 'npm' && typeof object.script === 'string') here.push(`npm run ${object.script};`);
    for (const [key, item] of Object.entries(object)) {
      if (COMMAND_KEYS.has(key.toLowerCase())) here.push(...strings(item, depth + 1));
      else walk(item, depth + 1, folders);
    }
    if (here.length === 0) return;
    lines.push(here.join(' '));
    // Run in its working folder: its line is read from there too (round 19a: `make lint` with `"cwd": "tools"`).
    for (const folder of folders) placed.push({ folder, commands: withoutOutputs(here.join(' ')) });
  };
  walk(parsed, 0, []);
  if (cut)
    return xml ? { commands: xml.text, values: xml.values, json: true, placed: [] } : { commands: text, values: stringLiterals(text), json: true, placed: [] };
  // What a line writes (`echo ok > note.txt`, `2>> hook.log`) is its output, not what it runs (hookContent.ts does
  // not digest a `>` target either): a hook's own ordinary output file is not held for being named.
  return { commands: [...lines, ...(xml?.commands ?? [])].map(withoutOutputs).join('\n'), values, json: true, placed };
}

/** Keys of an entry whose value is the folder its line runs in (`options.cwd` of a task is read below). */
const FOLDER_KEYS = ['cwd', 'workingDirectory', 'working_directory'];

/**
 * The working folder an entry names, workspace-relative ('.': the top); undefined when it names one the review cannot
 * know (another variable than `${workspaceFolder}`, one outside the workspace); null when it names none.
 */
function workingFolderOf(entry: Record<string, unknown>): string | undefined | null {
  const options = entry.options;
  const taskFolder = typeof options === 'object' && options !== null && !Array.isArray(options) ? (options as Record<string, unknown>).cwd : undefined;
  const raw = [...FOLDER_KEYS.map((key) => entry[key]), taskFolder, entry.type === 'npm' ? entry.path : undefined].find((value) => typeof value === 'string');
  if (typeof raw !== 'string') return null;
  const expanded = raw.replace(/\$\{(?:workspaceFolder|workspaceRoot)\}/g, '.');
  return /[$~]/.test(expanded) ? undefined : relativeFolder(expanded);
}

/**
 * A config that is neither JSON nor XML (Codex's TOML `[mcp_servers.x]` with `cwd = "tools"`, a YAML one): each
 * `cwd`/`working_directory`/`workingDirectory`/`root` value, anywhere, is a folder its whole text is read from too
 * (round 20a; a wrong guess holds more, never less).
 */
function unparsedFolders(text: string): PlacedCommands[] {
  const folders = new Set<string | undefined>();
  for (const match of text.matchAll(
    /\b(?:cwd|working_directory|workingDirectory|working-directory|root)["']?[ \t]*[:=][ \t]*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s,#}\]]+))/g,
  )) {
    let raw = match[2] ?? match[3] ?? match[1];
    if (match[1] !== undefined) {
      try {
        raw = JSON.parse(`"${match[1]}"`) as string;
      } catch {
        raw = match[1];
      }
    }
    const folder = workingFolderOf({ cwd: raw });
    if (folder !== null) folders.add(folder);
    if (folders.size > 24) return [{ folder: undefined, commands: text }];
  }
  // Its sections' strings joined, one line a section: TOML's `command = "npx"` and `args = ["docs-mcp"]` are one line run.
  const commands = [text, ...text.split(/^[ \t]*\[/m).map((section) => stringLiterals(section).join(' '))].join('\n');
  return [...folders].map((folder) => ({ folder, commands }));
}

/** A task's sections VS Code merges into it on that system: all read (a wrong guess holds more, never less). */
const OS_SECTIONS = ['linux', 'osx', 'windows'];

/**
 * The working folders an entry runs in, as VS Code resolves a task: its own (`cwd`, `options.cwd`…), else the one
 * enclosing it gives (tasks.json's top-level `options`, the default of every task); and each OS section's
 * `options.cwd`, whichever system this is. Empty when none is named.
 */
function workingFoldersOf(entry: Record<string, unknown>, inherited: readonly (string | undefined)[]): (string | undefined)[] {
  const own = workingFolderOf(entry);
  const folders = own === null ? [...inherited] : [own];
  for (const key of OS_SECTIONS) {
    const section = entry[key];
    if (typeof section !== 'object' || section === null || Array.isArray(section)) continue;
    const folder = workingFolderOf(section as Record<string, unknown>);
    if (folder !== null) folders.push(folder);
  }
  return [...new Set(folders)];
}

/**
 * Every double-quoted string of a JSON text, decoded as JSON decodes it (one that does not decode is taken as it is):
 * what a tolerant parser may use of a text JSON.parse refuses. One pass, at most one value a string of the text.
 */
export function stringLiterals(text: string): string[] {
  const values: string[] = [];
  for (const match of text.matchAll(/"(?:[^"\\\n]|\\.)*"/g)) {
    try {
      values.push(JSON.parse(match[0]) as string);
    } catch {
      values.push(match[0].slice(1, -1));
    }
  }
  return values;
}

/** JSON with comments (`//`, `/* *\/`) and trailing commas as plain JSON; strings kept as they are. */
export function withoutComments(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end < 0 ? text.length : end + 2;
    } else if (char === ',' && closesNext(text, index + 1)) {
      // A trailing comma (one before a comment and the bracket is left: the text is then read whole).
      index++;
    } else {
      out += char;
      index++;
    }
  }
  return out;
}

/** Whether the next character after blanks (at most 256 looked at) closes an object or array. */
function closesNext(text: string, from: number): boolean {
  for (let index = from; index < text.length && index < from + 256; index++) {
    const char = text[index];
    if (char === '}' || char === ']') return true;
    if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return false;
  }
  return false;
}
