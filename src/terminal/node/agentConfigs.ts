/**
 * Agents' configs by what they are, not by their name (round 17). Each new agent reads its own project folder
 * (`.factory`, `.augment`, `.qoder`…) and runs the hooks and the MCP or language servers named there, unasked, the
 * next time the user works in the project: no list of names keeps up. So a JSON, JSONC, YAML or TOML file of the
 * change set, in a folder (or under a name) that starts with a dot or at the workspace's top, is read, and held when
 * its top level has what those configs share:
 * - a `hooks`, `mcpServers`, `mcp_servers`, `mcp`, `lspServers`, `lsp` or `context_servers` key, or a dotted key
 *   ending in one (Claude Code's, Droid's, Auggie's, Qoder's, Cursor's and Copilot's `hooks`; most agents'
 *   `mcpServers`; Codex's TOML `[mcp_servers.x]`; OpenCode's `mcp` and `lsp`; Copilot CLI's `lspServers`; Zed's
 *   `context_servers`; Amp's `amp.mcpServers`);
 * - VS Code's `servers` whose entries have a `command`, or Droid's hooks.json shape (events whose lists hold
 *   `{"hooks": […]}` groups or `{"type": "command"}` entries).
 * Ordinary project files have none of these at their top: package.json (husky 4's `hooks` is under `husky`, which
 * packageHooks.ts judges), tsconfig.json, .eslintrc.json (`react-hooks` is a plugin's name), docker-compose.yml,
 * .gitlab-ci.yml (a job's `hooks` is nested). A `.release-it.json` with top-level `hooks` is held: release-it runs
 * them.
 * Only the change set is read, so this costs one read per changed config file; bounded: 1 MB a file (a larger one
 * named with a dot, or in a dot-folder, is held unread: a cache that large is rare), one parse, the top level
 * walked only, 10,000 key lines of YAML or TOML (past it, held), 256 characters of a line looked at for its key.
 * There is no YAML or TOML parser in the product, so those are read by their lines, erring towards holding (a TOML
 * key line is taken as the top level's wherever it is; an escape-spelled key is read decoded too).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { withEscapesDecoded } from './formatEscapes';
import { withoutComments } from './programConfigs';

/** The largest config read; past it, one in a dot-place is held unread. */
export const AGENT_CONFIG_BYTES = 1024 * 1024;
const CONFIG_EXTENSION = /\.(?:jsonc?|json5|ya?ml|toml)$/i;
/** The keys (lower-case) an agent's config names its hooks and servers by. */
const PROGRAM_KEYS = new Set(['hooks', 'mcp', 'mcpservers', 'mcp_servers', 'mcp-servers', 'lsp', 'lspservers', 'lsp_servers', 'context_servers']);
/** Any text that may spell one of the keys: without one (or an escape, which may spell it), a file is not parsed. */
const MAY_NAME = /hooks|mcp|lsp|servers|\\/i;
/** A key anywhere in a text no reader here parses (JSON5, a flow-style YAML document): read loosely, towards holding. */
const LOOSE_KEY = /(?:^|[^\w$-])["']?(?:hooks|mcp|lsp|(?:mcp|lsp|context)[_-]?servers)["']?\s*:/im;
/** The same for YAML, whose complex key (`? hooks`) has its colon on the next line: the word alone. */
const LOOSE_YAML_KEY = /(?:^|[^\w$-])["']?(?:hooks|mcp|lsp|(?:mcp|lsp|context)[_-]?servers)["']?(?:[\s:]|$)/im;
/** Only the start of a line is looked at for its key: keys held here are short, and a regular expression stays linear. */
const KEY_CHARS = 256;
/**
 * Key lines read in one file (TOML's, YAML's at its top indentation): past it the file is held as too large to
 * read. A real config has a few hundred; pnpm-lock.yaml's thousands of entries are indented below its few top keys.
 */
const KEY_LINES = 10_000;

/**
 * Whether `path` (workspace-relative) is read for its shape: a JSON, YAML or TOML file at the workspace's top, or
 * named with a dot, or in a folder named with one. Not below `node_modules`: no agent reads its project config from
 * there, and a package manager writes thousands of such files (pnpm's `node_modules/.pnpm`).
 */
export function isAgentConfigCandidate(path: string): boolean {
  if (!CONFIG_EXTENSION.test(path)) return false;
  if (!path.includes('/')) return true;
  const segments = path.split('/');
  return !segments.includes('node_modules') && segments.some((segment) => segment.startsWith('.'));
}

/** Whether a file of `path` past the size bound is held unread: one in a dot-place (a lock file at the top lands). */
function heldUnread(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}

/**
 * Whether the file at `file` (the command's layer, opened without following a link or waiting on a pipe), which is
 * the workspace's `path`, is an agent's config that names programs to run, or too large to read.
 */
export function namesProgramsAt(file: string, path: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    // Not readable to the host: what it is cannot be told, so it waits.
    return true;
  }
  try {
    const info = fstatSync(descriptor);
    if (!info.isFile()) return false;
    if (info.size > AGENT_CONFIG_BYTES) return heldUnread(path);
    const buffer = Buffer.alloc(info.size);
    const bytesRead = readSync(descriptor, buffer, 0, info.size, 0);
    return namesProgramsIn(buffer.subarray(0, bytesRead), info.size, path);
  } catch {
    return true;
  } finally {
    closeSync(descriptor);
  }
}

/** The same judgement on bytes already read (the interim copy's, judged on what it copies); `size`: the file's whole size. */
export function namesProgramsIn(bytes: Buffer, size: number, path: string): boolean {
  if (size > AGENT_CONFIG_BYTES) return heldUnread(path);
  return namesPrograms(bytes.toString('utf8'), path);
}

/** Whether the text of a JSON, YAML or TOML file `path` has an agent's hooks or servers at its top. */
export function namesPrograms(text: string, path: string): boolean {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!MAY_NAME.test(body)) return false;
  if (/\.toml$/i.test(path)) return tomlNames(body);
  if (/\.ya?ml$/i.test(path)) return yamlNames(body);
  return jsonNames(body);
}

/** Whether a key (any case, or a dotted key's last part) names hooks or servers. */
function isProgramKey(key: string): boolean {
  const lower = key.trim().toLowerCase();
  return PROGRAM_KEYS.has(lower.slice(lower.lastIndexOf('.') + 1));
}

/**
 * Whether the key a line's start spells (matched by `pattern`: its quoted or bare key in groups 1 to 3) names hooks
 * or servers, as written or with its escapes decoded (`"\x68ooks"` is `hooks` to the program's parser). A key is on one
 * line in both formats, so the line's start is all that is decoded: the whole text never is.
 */
function lineKeyNames(head: string, pattern: RegExp): boolean {
  if (!MAY_NAME.test(head)) return false;
  for (const spelling of head.includes('\\') ? [head, withEscapesDecoded(head)] : [head]) {
    const key = pattern.exec(spelling);
    if (key && isProgramKey(key[1] ?? key[2] ?? key[3])) return true;
  }
  return false;
}

function jsonNames(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    try {
      parsed = JSON.parse(withoutComments(text));
    } catch {
      // What a tolerant parser (JSON5, jsonc-parser) may still read: the keys anywhere; an escape may spell one.
      return LOOSE_KEY.test(text) || /\\[uUx]/.test(text);
    }
  }
  if (!isRecord(parsed)) return false;
  for (const [key, value] of Object.entries(parsed)) {
    if (isProgramKey(key) || (key.toLowerCase() === 'servers' && hasCommandEntry(value)) || isHookGroups(value)) return true;
  }
  return false;
}

/** VS Code's `servers`: entries that name a command. */
function hasCommandEntry(value: unknown): boolean {
  return isRecord(value) && Object.values(value).some((entry) => isRecord(entry) && 'command' in entry);
}

/** Droid's hooks.json: an event's list of `{"hooks": […]}` groups, or of `{"type": "command", "command": …}` entries. */
function isHookGroups(value: unknown): boolean {
  return Array.isArray(value) && value.some((item) => isRecord(item) && (Array.isArray(item.hooks) || (item.type === 'command' && 'command' in item)));
}

/** A TOML key line's or table header's first key: `hooks = …`, `"mcp_servers".x = …`, `[mcp_servers.x]`, `[[hooks.x]]`. */
const TOML_KEY = /^(?:\[\[?[ \t]*)?(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*[.=\]]/;

/**
 * TOML by its lines, wherever the line is (a multi-line string is not tracked, so a key inside a table counts as
 * the top level's: towards holding).
 */
function tomlNames(text: string): boolean {
  let read = 0;
  for (const line of text.split('\n')) {
    const from = line.search(/[^ \t]/);
    if (from < 0 || line[from] === '#') continue;
    if (++read > KEY_LINES || lineKeyNames(line.slice(from, from + KEY_CHARS), TOML_KEY)) return true;
  }
  return false;
}

/** A YAML block mapping's key at a line's start (after its tag or anchor), quoted or plain. */
const YAML_KEY = /^(?:[!&]\S*[ \t]+)*(?:"([^"]*)"|'([^']*)'|([^\s:#'"][^:#]*?))[ \t]*:(?:[ \t]|\r?$)/;
/** A tag or anchor alone on its line (`!!map`, `&base`): it belongs to the mapping on the lines after it, however indented. */
const PROPERTIES_ONLY = /^(?:[!&]\S*[ \t]*)+\r?$/;
/** A top-level entry read loosely: a flow collection, an alias as a key, a complex key, a merge key. */
const LOOSE_START = /^(?:[!&]\S*[ \t]+)*(?:[{[*?]|<<)/;

/**
 * YAML by its lines: a key at the document's top indentation or less (`hooks:`, `"mcpServers":`, with a tag or
 * anchor before it). A document whose top is in flow style (`{hooks: …}`) or has a merge key (`<<: *a`), an alias
 * as a key or a complex key (`? lsp`) is read loosely: the keys anywhere. A more indented line costs its indent's
 * scan only.
 */
function yamlNames(text: string): boolean {
  let topIndent: number | undefined;
  let loose = false;
  let read = 0;
  for (const line of text.split('\n')) {
    const first = line.charCodeAt(0);
    if ((first === 45 || first === 46) && /^(?:---|\.\.\.)(?:[ \t]|\r?$)/.test(line)) {
      topIndent = undefined;
      loose ||= LOOSE_START.test(line.slice(3, 3 + KEY_CHARS).trimStart());
      continue;
    }
    const indent = line.search(/[^ \t]/);
    if (indent < 0 || (topIndent !== undefined && indent > topIndent)) continue;
    const head = line.slice(indent, indent + KEY_CHARS);
    if (head[0] === '#' || head === '\r' || (topIndent === undefined && (head[0] === '%' || PROPERTIES_ONLY.test(head)))) continue;
    topIndent ??= indent;
    loose ||= LOOSE_START.test(head);
    if (++read > KEY_LINES || lineKeyNames(head, YAML_KEY)) return true;
  }
  return loose && LOOSE_YAML_KEY.test(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
