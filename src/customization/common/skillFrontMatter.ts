/**
 * The front matter of a SKILL.md: only its `name` and `description` scalars,
 * read by the shared bounded reader (frontMatter.ts).
 */
import { readFrontMatter } from './frontMatter';

export type SkillFrontMatter = { ok: true; name: string; description: string } | { ok: false; problem: string };

/** The open format's limits: a name a user can type, a description the listing can afford. */
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;

export function parseSkillFrontMatter(text: string): SkillFrontMatter {
  const read = readFrontMatter(text, { scalars: ['name', 'description'] });
  if (!read.ok) return read;
  const name = read.fields.get('name');
  const description = read.fields.get('description');
  return checkFields(typeof name === 'string' ? name : undefined, typeof description === 'string' ? description : undefined);
}

function checkFields(name: string | undefined, description: string | undefined): SkillFrontMatter {
  if (!name) return { ok: false, problem: 'its front matter has no `name`' };
  if (!description) return { ok: false, problem: 'its front matter has no `description`' };
  if (name.length > MAX_SKILL_NAME_CHARS) return { ok: false, problem: `its name is longer than ${MAX_SKILL_NAME_CHARS} characters` };
  if (/[^\p{L}\p{N}_.:-]/u.test(name)) return { ok: false, problem: 'its name has characters other than letters, digits, `-`, `_`, `.` and `:`' };
  // Longer descriptions are cut, not refused: the skill still works, the listing stays bounded.
  return { ok: true, name, description: description.slice(0, MAX_SKILL_DESCRIPTION_CHARS) };
}
