/**
 * A small reading of .gitignore: blank lines and `#` comments, `!` negation,
 * a trailing `/` for folders only, a leading or inner `/` anchoring to the
 * root, and globs (`*`, `**`, `?`, classes). A path is ignored when one of its
 * folders is (git never looks inside an ignored folder, so `!` cannot bring
 * back a file under one), or when the last rule matching it ignores it.
 */
import { globToRegExp } from '../core/tools/glob';

export interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
  /** Matched against the whole path; otherwise against the last segment. */
  anchored: boolean;
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    if (line === '') continue;
    rules.push({ regex: globToRegExp(line), negated, directoryOnly, anchored });
  }
  return rules;
}

/** Whether `path` (workspace-relative, `/`-separated) is ignored; `isDirectory` is about the path itself. */
export function isIgnoredBy(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
  const segments = path.split('/');
  for (let length = 1; length <= segments.length; length++) {
    const prefix = segments.slice(0, length).join('/');
    const last = length === segments.length;
    if (lastMatchIgnores(rules, prefix, last ? isDirectory : true)) return true;
  }
  return false;
}

function lastMatchIgnores(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  let ignored = false;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(rule.anchored ? path : name)) ignored = !rule.negated;
  }
  return ignored;
}
