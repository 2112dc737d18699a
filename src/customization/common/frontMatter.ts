/**
 * A small reader for the YAML front matter of the workspace's agent files
 * (SKILL.md, *.prompt.md, *.agent.md): top-level scalars (plain or quoted, on
 * one line or folded over indented lines, or a `>` / `|` block) and, for the
 * keys asked as lists, a flow list (`[a, 'b']`), a block list (`- a` lines) or
 * a comma-separated text (Claude Code's `tools: Read, Grep`). The files are
 * workspace content, so anything else is a problem reported in words, never an
 * exception: a YAML library would accept far more (anchors, tags, nested maps)
 * than these few fields need.
 */

export type FrontMatterValue = string | string[];

export type FrontMatter = { ok: true; fields: Map<string, FrontMatterValue>; body: string; hasFrontMatter: boolean } | { ok: false; problem: string };

/** Which keys are read, and how: the rest are skipped whatever they hold. */
export interface FrontMatterKeys {
  scalars: readonly string[];
  lists?: readonly string[];
  /** Whether a file without front matter is its body alone (prompt files) rather than a problem (skills, agents). */
  optional?: boolean;
}

/** Front matter longer than this is no file's metadata; it is not looked through. */
const MAX_FRONT_MATTER_LINES = 200;
/**
 * Items of one list (a tool list): more is no agent's configuration, and a problem rather than a list cut short (a real
 * agent of microsoft/hve-core lists 160 tools, its MCP server's one by one).
 */
const MAX_LIST_ITEMS = 1024;

export function readFrontMatter(text: string, keys: FrontMatterKeys): FrontMatter {
  if (text.includes('\u0000')) return { ok: false, problem: 'it is not text (it has NUL bytes)' };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    if (keys.optional === true) return { ok: true, fields: new Map(), body: lines.join('\n').trim(), hasFrontMatter: false };
    return { ok: false, problem: 'it does not start with front matter (a `---` line)' };
  }
  const end = lines.findIndex((line, index) => index > 0 && index <= MAX_FRONT_MATTER_LINES && line.trimEnd() === '---');
  if (end < 0) return { ok: false, problem: `its front matter has no closing \`---\` line within ${MAX_FRONT_MATTER_LINES} lines` };
  const fields = readFields(lines.slice(1, end), keys);
  if (typeof fields === 'string') return { ok: false, problem: fields };
  return {
    ok: true,
    fields,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    hasFrontMatter: true,
  };
}

/** The top-level `key: value` pairs asked for, or a problem. */
function readFields(lines: readonly string[], keys: FrontMatterKeys): Map<string, FrontMatterValue> | string {
  const fields = new Map<string, FrontMatterValue>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^\s/.test(line) || /^-(\s|$)/.test(line)) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line.trimEnd());
    if (!match) return `its front matter line ${index + 2} is not \`key: value\``;
    const key = match[1];
    const continuation = indentedAfter(lines, index);
    if (keys.lists?.includes(key)) {
      const value = list(match[2] ?? '', continuation);
      if (value === undefined) return `its \`${key}\` is not a list of names`;
      if (value.length > MAX_LIST_ITEMS) return `its \`${key}\` has more than ${MAX_LIST_ITEMS} items`;
      fields.set(key, value);
    } else if (keys.scalars.includes(key)) {
      const value = scalar(match[2] ?? '', continuation);
      if (value === undefined) return `its \`${key}\` is not a plain or quoted text`;
      fields.set(key, value);
    }
  }
  return fields;
}

/** The indented, blank or `- item` lines that follow line `index`: the rest of its value. */
function indentedAfter(lines: readonly string[], index: number): string[] {
  const rest: string[] = [];
  for (let next = index + 1; next < lines.length && (lines[next].trim() === '' || /^\s/.test(lines[next]) || /^-(\s|$)/.test(lines[next])); next++) {
    rest.push(lines[next]);
  }
  return rest;
}

/** One scalar's text, whitespace runs made single spaces; undefined for what this reader does not take. */
function scalar(first: string, continuation: readonly string[]): string | undefined {
  const head = first.trim();
  const more = continuation.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  let value: string | undefined;
  if (/^[>|][-+]?$/.test(head)) value = more.join(' ');
  else if (head.startsWith('"') || head.startsWith("'")) value = quoted([head, ...more].join(' '));
  else if (/^[[{&*!%@`]/.test(head)) value = undefined;
  else value = [head.replace(/\s+#.*$/, ''), ...more].join(' ');
  return value?.replace(/\s+/g, ' ').trim();
}

function quoted(text: string): string | undefined {
  const quote = text[0];
  if (text.length < 2 || !text.endsWith(quote)) return undefined;
  const body = text.slice(1, -1);
  if (quote === "'") return body.replace(/''/g, '').includes("'") ? undefined : body.replace(/''/g, "'");
  if (body.replace(/\\./g, '').includes('"')) return undefined;
  return body.replace(/\\(["\\nt])/g, (_, escaped: string) => (escaped === 'n' || escaped === 't' ? ' ' : escaped));
}

/** A list of names: `[a, "b"]`, `- a` lines, or `a, b`; undefined for nested or unterminated lists. */
function list(first: string, continuation: readonly string[]): string[] | undefined {
  const head = first.replace(/\s+#.*$/, '').trim();
  let items: (string | undefined)[];
  if (head.startsWith('[')) {
    const flow = [head, ...continuation.map((line) => line.trim())].join(' ').trim();
    if (!flow.endsWith(']') || flow.slice(1, -1).includes('[')) return undefined;
    items = flow.slice(1, -1).split(',').map(item);
  } else if (head === '' && continuation.some((line) => line.trim().startsWith('['))) {
    // A flow list that starts on the line after its key (`tools:` then `  ['read', 'edit']`), as YAML allows.
    return list(continuation.map((line) => line.trim()).join(' '), []);
  } else if (head === '') {
    const entries = continuation.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
    if (entries.some((entry) => !/^-(\s|$)/.test(entry))) return undefined;
    items = entries.map((entry) => item(entry.slice(1)));
  } else {
    items = scalar(first, continuation)?.split(',').map(item) ?? [undefined];
  }
  if (items.some((entry) => entry === undefined)) return undefined;
  return (items as string[]).filter((entry) => entry !== '');
}

/** One list item: plain or quoted text without structure. */
function item(raw: string): string | undefined {
  const text = raw.replace(/\s+#.*$/, '').trim();
  if (text.startsWith('"') || text.startsWith("'")) return quoted(text);
  return /^[[{&*!%@`]/.test(text) ? undefined : text;
}
