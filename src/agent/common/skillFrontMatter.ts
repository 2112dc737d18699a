/**
 * A small reader for the YAML front matter of a SKILL.md: only the `name` and
 * `description` scalars (plain or quoted, on one line or folded over indented
 * lines, or a `>` / `|` block). The file is workspace content, so anything
 * else is a problem reported in words, never an exception: a YAML library
 * would accept far more (anchors, tags, nested maps) than a listing needs.
 */

export type SkillFrontMatter = { ok: true; name: string; description: string } | { ok: false; problem: string };

/** The open format's limits: a name a user can type, a description the listing can afford. */
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;
/** Front matter longer than this is no skill's metadata; it is not looked through. */
const MAX_FRONT_MATTER_LINES = 200;

export function parseSkillFrontMatter(text: string): SkillFrontMatter {
  if (text.includes('\u0000')) return { ok: false, problem: 'it is not text (it has NUL bytes)' };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { ok: false, problem: 'it does not start with front matter (a `---` line)' };
  const end = lines.findIndex((line, index) => index > 0 && index <= MAX_FRONT_MATTER_LINES && line.trimEnd() === '---');
  if (end < 0) return { ok: false, problem: `its front matter has no closing \`---\` line within ${MAX_FRONT_MATTER_LINES} lines` };
  const fields = readFields(lines.slice(1, end));
  if (typeof fields === 'string') return { ok: false, problem: fields };
  return checkFields(fields.get('name'), fields.get('description'));
}

function checkFields(name: string | undefined, description: string | undefined): SkillFrontMatter {
  if (!name) return { ok: false, problem: 'its front matter has no `name`' };
  if (!description) return { ok: false, problem: 'its front matter has no `description`' };
  if (name.length > MAX_SKILL_NAME_CHARS) return { ok: false, problem: `its name is longer than ${MAX_SKILL_NAME_CHARS} characters` };
  if (/[^\p{L}\p{N}_.:-]/u.test(name)) return { ok: false, problem: 'its name has characters other than letters, digits, `-`, `_`, `.` and `:`' };
  // Longer descriptions are cut, not refused: the skill still works, the listing stays bounded.
  return { ok: true, name, description: description.slice(0, MAX_SKILL_DESCRIPTION_CHARS) };
}

/** The top-level `key: value` pairs whose value is a scalar, or a problem. Keys other than name and description are skipped whatever they hold. */
function readFields(lines: readonly string[]): Map<string, string> | string {
  const fields = new Map<string, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^\s/.test(line)) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line.trimEnd());
    if (!match) return `its front matter line ${index + 2} is not \`key: value\``;
    const key = match[1];
    const continuation = indentedAfter(lines, index);
    if (key !== 'name' && key !== 'description') continue;
    const value = scalar(match[2] ?? '', continuation);
    if (value === undefined) return `its \`${key}\` is not a plain or quoted text`;
    fields.set(key, value);
  }
  return fields;
}

/** The indented (or blank) lines that follow line `index`: the rest of its value. */
function indentedAfter(lines: readonly string[], index: number): string[] {
  const rest: string[] = [];
  for (let next = index + 1; next < lines.length && (lines[next].trim() === '' || /^\s/.test(lines[next])); next++) rest.push(lines[next]);
  return rest;
}

/** One scalar's text, whitespace runs made single spaces (the listing is one line per skill); undefined for what this reader does not take. */
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
