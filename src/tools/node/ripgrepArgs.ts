/**
 * The arguments of a ripgrep run, as an array (never a shell string): how the
 * pattern is matched, and the flags that give ripgrep the walk's rules (the
 * workspace's ignore files at every depth and none above it, hidden files,
 * `node_modules` and `.git` left out, protected and excluded globs, the size
 * limit), with an ignore file of our own to search one folder under its
 * parents' ignore rules.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileQuery, TextQuery } from '../common/searchPorts';
import { alwaysIgnored } from './nodeWorkspaceFiles';

/** Each matching line as `./path\0LINE:COLUMN:TEXT` (see ripgrepLines.ts), the name also when one file is searched. */
export const lineOutputArgs = ['--with-filename', '--null', '--line-number', '--column'];

/**
 * Names with a line break left out of searches: in the line output only a NUL
 * ends a name, and such a name could pose as ripgrep's binary warning.
 */
export const noLineBreakNames = '--glob=!*\n*';

/** A line never holds a line break: text with one cannot match (and ripgrep would read it as two patterns). */
export function cannotMatch(query: TextQuery): boolean {
  return !query.regex && query.pattern.includes('\n');
}

/** How the pattern is matched: as the walk does, line by line, CRLF lines included, bytes as they are (no transcoding). */
export function patternArgs(query: TextQuery): string[] {
  return [
    // `$` before a CRLF line end, as in the walk's lines; only a regex can hold one, and crlf mode costs a little.
    ...(query.regex && query.pattern.includes('$') ? ['--crlf'] : []),
    '--encoding=none',
    `--max-count=${query.maxMatchesPerFile}`,
    query.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(query.regex ? [] : ['--fixed-strings']),
    '--regexp',
    query.pattern,
  ];
}

/** Paths split so that no command line gets long (Windows allows 32,767 characters). */
export function argumentGroups(paths: readonly string[]): string[][] {
  const groups: string[][] = [];
  let length = 0;
  for (const path of paths) {
    if (groups.length === 0 || length + path.length > 16_000) {
      groups.push([]);
      length = 0;
    }
    groups[groups.length - 1].push(path);
    length += path.length + 3;
  }
  return groups;
}

/** The flags every run shares: the walk's ignore rules, and what may be left out early. */
export function commonArgs(query: FileQuery, restriction: string | undefined, options: { protectedIgnoringCase?: boolean } = {}): string[] {
  const args = ['--no-config', '--hidden', '--no-messages'];
  if (query.respectIgnore) {
    // The walk's rules (gitignore.ts): .gitignore files also outside a repository, none above the root, not the user's global one,
    // not .ignore/.rgignore (ripgrep 13, Debian's, still reads .rgignore; VS Code's 15 does not); the `ignore` package
    // matches case-insensitively.
    args.push('--no-require-git', '--no-ignore-parent', '--no-ignore-global', '--no-ignore-dot', '--ignore-file-case-insensitive');
    for (const name of alwaysIgnored) args.push(`--glob=!${name}`);
    for (const glob of query.excludedGlobs) if (plainGlob(glob)) args.push(`--glob=!${glob}`);
    if (restriction !== undefined) args.push(`--ignore-file=${restriction}`);
  } else {
    args.push('--no-ignore');
  }
  // In a listing case-sensitive (`--glob`, not `--iglob`): ripgrep matches most such globs by hash then, not by regex, 15 % less
  // CPU; `.ENV` gets through there and the tools' own check, which ignores case, leaves it out. A search ignores case, as
  // the tools do, so that the count of files it searched is theirs.
  const protectedFlag = options.protectedIgnoringCase ? '--iglob' : '--glob';
  for (const glob of query.protectedGlobs) if (plainGlob(glob)) args.push(`${protectedFlag}=!${glob}`);
  if (query.nameGlob !== undefined && plainGlob(query.nameGlob) && !query.nameGlob.includes(':')) {
    args.push(`--type-add=wanted:${query.nameGlob}`, '--type=wanted');
  }
  if (query.maxFileBytes !== undefined) args.push(`--max-filesize=${query.maxFileBytes}`);
  return args;
}

/** Whether commonArgs passes every glob of the query on to ripgrep (all of them plain). */
export function appliesEveryGlob(query: FileQuery): boolean {
  const excludedApplied = query.excludedGlobs.length === 0 || (query.respectIgnore && query.excludedGlobs.every(plainGlob));
  const nameApplied = query.nameGlob === undefined || (plainGlob(query.nameGlob) && !query.nameGlob.includes(':'));
  return excludedApplied && nameApplied && query.protectedGlobs.every(plainGlob);
}

/**
 * A glob ripgrep reads as this project does (gitignore style: no `/` matches a
 * name at any depth, `*` stays within a segment and matches a leading dot).
 * Others are not passed: the tools' own check still applies them.
 */
function plainGlob(glob: string): boolean {
  return /^[\w.*?{},/@+ -]+$/.test(glob) && !glob.startsWith('/') && !glob.startsWith('./') && !glob.endsWith('/');
}

/**
 * The folder searched is given as a path only when no ignore file applies (an
 * ignored folder asked for by name). Otherwise ripgrep starts at the root and an
 * ignore file of our own leaves out everything beside the folder, so that the
 * ignore files of its parent folders in the workspace apply (ripgrep reads a
 * parent folder's rules only up to its own starting point, and anchored ones
 * not at all).
 */
export function pathArgument(query: FileQuery): string {
  return query.respectIgnore || query.folder === '.' ? '.' : `./${query.folder}`;
}

export async function restrictionFile(query: FileQuery): Promise<{ path: string; remove: () => Promise<void> } | undefined> {
  if (!query.respectIgnore || query.folder === '.') return undefined;
  // An ignore file cannot name a folder with a line break; the tools walk that one instead.
  if (/[\r\n]/.test(query.folder)) throw new Error('a folder name with a line break cannot be searched by ripgrep');
  const segments = query.folder.split('/');
  const lines: string[] = [];
  for (let depth = 0; depth < segments.length; depth++) {
    const parent = segments.slice(0, depth).map(escapeIgnoreSegment).join('/');
    const inside = segments
      .slice(0, depth + 1)
      .map(escapeIgnoreSegment)
      .join('/');
    lines.push(depth === 0 ? '/*' : `/${parent}/*`, `!/${inside}/`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'gateway-rg-'));
  const path = join(folder, 'restrict');
  await writeFile(path, `${lines.join('\n')}\n`);
  return { path, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A folder name as a literal in an ignore file. */
function escapeIgnoreSegment(name: string): string {
  return name.replace(/[\\*?[\]!#\s]/g, (c) => `\\${c}`);
}
