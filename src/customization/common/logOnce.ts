/** One log line per kind, once per window: the customisation readers run at every session and question, over up to hundreds of files. */
import type { Logger } from '../../base/common';

/** Lines already logged, per logger: a line is logged once in a window, not at every run or question. */
const logged = new WeakMap<Logger, Set<string>>();
const MAX_LOGGED = 256;

export function logOnce(logger: Logger | undefined, lines: readonly string[]): void {
  if (logger === undefined) return;
  let seen = logged.get(logger);
  if (seen === undefined) logged.set(logger, (seen = new Set()));
  for (const line of lines) {
    if (seen.has(line)) continue;
    if (seen.size >= MAX_LOGGED) seen.clear();
    seen.add(line);
    logger.warn(line);
  }
}

/** Names shown in a grouped line; the rest are counted. */
const GROUP_NAMES = 5;

/**
 * The notes of one kind of file (`path: reason` each) as log lines: the notes whose reasons differ only in a
 * quoted name are one line with their count and five names (`Skills: 30 skipped, a skill named "…" came first: …
 * and 25 more.`); a reason met once keeps its own line (`Skill <path>: <reason>.`). Linear in the notes.
 */
export function groupedNotes(kind: { one: string; many: string }, notes: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const note of notes) {
    const colon = note.indexOf(': ');
    const reason = (colon < 0 ? note : note.slice(colon + 2)).replace(/"[^"\n]{0,200}"/g, '"…"');
    const group = groups.get(reason) ?? [];
    group.push(note);
    groups.set(reason, group);
  }
  return [...groups].map(([reason, group]) => {
    if (group.length === 1) return `${kind.one} ${group[0]}.`;
    const names = [...new Set(group.map((note) => note.slice(0, Math.max(0, note.indexOf(': ')))))];
    const more = names.length > GROUP_NAMES ? ` and ${names.length - GROUP_NAMES} more` : '';
    return `${kind.many}: ${group.length} ${reason}: ${names.slice(0, GROUP_NAMES).join(', ')}${more}.`;
  });
}
