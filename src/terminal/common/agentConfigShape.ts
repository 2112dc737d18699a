/**
 * Agents' configs by what they are, not by their name (round 17). Each new agent reads its own project folder
 * (`.factory`, `.augment`, `.qoder`…) and runs the hooks and the MCP or language servers named there, unasked, the
 * next time the user works in the project: no list of names keeps up. So a config file of the change set (JSON,
 * JSONC, JSON5, YAML, TOML, or an extension-less `…rc`), in a folder (or under a name) that starts with a dot or at
 * the workspace's top, or an agent's manifest by its name anywhere (`gemini-extension.json`: MANIFEST), is held when it names what those configs share, as a whole word anywhere in its text:
 * - `hooks`, `mcpServers`, `mcp_servers`, `mcp`, `lspServers`, `lsp` or `context_servers` (Claude Code's, Droid's,
 *   Auggie's, Qoder's, Cursor's and Copilot's `hooks`; most agents' `mcpServers`; Codex's TOML `[mcp_servers.x]`;
 *   OpenCode's `mcp` and `lsp`; Copilot CLI's `lspServers`; Zed's `context_servers`; Amp's `amp.mcpServers`);
 * - `command` beside `servers` (VS Code's mcp.json) or beside `type` (Droid's hooks.json events of
 *   `{"type": "command"}` entries).
 * Round 18: reading the top level by hand-written YAML and TOML line readers and a comment stripper lost to each
 * spelling the agents' real parsers read (escapes, lone CR or U+2028 line breaks, a key on the `---` line, blanks
 * past a bound, UTF-16). A word rule has no top level to be out-parsed on: the word is looked for in the text as it
 * is and with its escapes read every way a parser reads them, so a nested key or a string value with the word is
 * held too (fail closed). A word inside another (`react-hooks`, `rules-of-hooks`, `git-hooks-path`) is not one.
 * Bounded by the caller (node/agentConfigs.ts reads 64 MB a file, past it held unread); one linear scan per reading.
 * Pure: the sandbox's review (node/agentConfigs.ts, on the command's bytes) and the file tools' approval
 * (agent/common/approvals/approvalPolicy.ts, on the text a write would leave) judge by the same rule.
 */
const CONFIG_EXTENSION = /\.(?:jsonc?|json5|ya?ml|toml)$/i;
/** cosmiconfig's, lilconfig's and rc's extension-less `.<name>rc` (and `.config/<name>rc`): JSON or YAML by content. */
const RC_NAME = /(?:^|\/)\.?[^/.]+rc$/i;

/** What may come before a word for it to be a key (`.` for a dotted key, `*\/` after a comment), and after it (a comment too). */
const BEFORE = String.raw`(?:^|[\s\u0085{,"'[.]|\*/)`;
const AFTER = String.raw`(?=$|[\s\u0085"':=.\]},]|/[*/])`;
const word = (names: string): RegExp => new RegExp(`${BEFORE}(?:${names})${AFTER}`, 'i');
/** The keys an agent's config names its hooks and servers by. */
const PROGRAM_KEY = word('hooks|mcp|mcp[_-]?servers|lsp|lsp[_-]?servers|context[_-]?servers');
const COMMAND = word('command');
const COMMAND_BESIDE = word('servers|type');

/**
 * One escape of a JSON, JSON5, YAML or TOML string: `\u{…}`, `\uXXXX`, `\UXXXXXXXX`, `\xXX`, octal, a backslash before
 * a line break (and the blanks after it: YAML's and TOML's line join, JSON5's continuation), or any one character.
 */
const ESCAPE =
  /\\(?:u\{([0-9A-Fa-f]{1,8})\}|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})|([0-7]{1,3})|[ \t]*(?:\r\n|[\r\n\u0085\u2028\u2029])\s*|([^]))/g;
/** The one-character escapes that stand for another character (YAML's `\N`, `\_`, `\L`, `\P` among them). */
const NAMED: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
  a: '\x07',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/**
 * `text` with its escapes decoded; a backslash before a character that is no escape either dropped alone (JSON5's and
 * YAML's identity escapes, `\S` is `S`) or dropped with that character (`keep: false`, jsonc-parser's reading of a bad
 * escape: `hoo\oks` is `hooks`).
 */
function decoded(text: string, keep: boolean): string {
  return text.replace(ESCAPE, (whole, braced?: string, u4?: string, u8?: string, x2?: string, octal?: string, other?: string) => {
    if (other !== undefined) return NAMED[other] ?? (keep ? other : '');
    const hex = braced ?? u4 ?? u8 ?? x2;
    if (hex === undefined && octal === undefined) return '';
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(octal ?? '', 8);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The manifests an agent reads wherever they sit, by their file name: a Gemini CLI extension's (Qwen Code's too) and
 * a Claude Code or Gemini CLI plugin's `hooks/hooks.json`, in the folder a developer links or adds as a local
 * marketplace (`gemini extensions link agents/extensions/x`: read at every start, its `mcpServers` started), and an
 * MCP config (`mcp.json`, `.mcp.json`). The word rule is not applied to every folder's configs: it would read each
 * changed JSON, YAML and TOML file (builds' and tests' outputs, sub-packages' lock files, a few MB each) after every
 * command, and hold the test fixtures and data files that say `hooks` or `command`; outside a dot folder an agent
 * finds its config by one of these names. (A manifest that names its hooks or servers in a file of another name is
 * held itself, not followed: the documented limit of the shape rule.)
 */
const MANIFEST = /(?:^|\/)(?:(?:gemini|qwen)-extension\.json|\.?mcp\.json|hooks\/hooks\.json)$/i;

/**
 * Whether `path` (workspace-relative) is read for what it names: a config at the workspace's top, or named with a dot,
 * or in a folder named with one, or an agent's manifest by its name anywhere (MANIFEST). Not below `node_modules`: no
 * agent reads its project config from there, and a package manager writes thousands of such files (pnpm's
 * `node_modules/.pnpm`). A script (`.<name>rc.js`) is code, judged by the rules for code.
 */
export function isAgentConfigCandidate(path: string): boolean {
  if (!CONFIG_EXTENSION.test(path) && !RC_NAME.test(path)) return false;
  if (!path.includes('/')) return true;
  const segments = path.split('/');
  return !segments.includes('node_modules') && (MANIFEST.test(path) || segments.some((segment) => segment.startsWith('.')));
}

/** Whether a config's text (`path`: workspace-relative) names programs to run: package.json by its top keys, the rest by the word rule. */
export function configNamesPrograms(text: string, path: string): boolean {
  return path === 'package.json' || path.endsWith('/package.json') ? packageNamesPrograms(text) : namesPrograms(text);
}

/**
 * A package.json is strict JSON to every program that reads it (npm's and Node's JSON.parse), so its top level is
 * what JSON.parse reads: there is no other parser to disagree with. Its descriptions and nested settings (husky 4's
 * `husky.hooks`, judged by packageHooks.ts) name hooks and MCP servers in prose too often for the word rule. One that
 * JSON.parse refuses is read by the word rule.
 */
function packageNamesPrograms(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return namesPrograms(text);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return Object.keys(parsed).some((key) => PROGRAM_KEY.test(key));
}

/** Whether a config's text names an agent's hooks or servers: as written, or with its escapes read any parser's way. */
function namesPrograms(text: string): boolean {
  const readings = text.includes('\\') ? [text, decoded(text, true), decoded(text, false)] : [text];
  return readings.some((reading) => PROGRAM_KEY.test(reading) || (COMMAND.test(reading) && COMMAND_BESIDE.test(reading)));
}
