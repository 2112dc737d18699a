/** search_text: lines of workspace files that match a text or a regular expression, as `path:line: text`. */
import * as z from 'zod/mini';
import { re2 } from '../../base/common';
import { systemClock } from '../../base/common';
import { type TextMatch, type TextQuery, SearchPatternError } from './searchPorts';
import { type AgentTool, type ToolContext, ToolFailure, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { resolveWorkspacePath } from './pathPolicy';
import { compileGlob } from '../../base/common';
import { walkWorkspace, walkTimeLimitMs } from './walk';
import { clipLine, looksBinary, plural } from '../../base/common';
import { engineSearch } from './engineSearch';
import { PathVerdicts, nameGlobOf } from './searchPathChecks';

export const searchMatchLimit = 100;
export const searchLineChars = 200;
/** Larger files are skipped (and counted): they are rarely source and slow to scan. */
export const searchFileBytes = 1024 * 1024;

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.search_text (a unit test keeps the two equal). */
export const searchTextArguments = z.object({
  pattern: z.string().check(z.minLength(1), z.describe('Exact, case-sensitive text, or /regex/ or /regex/i.')),
  glob: z.optional(z.string().check(z.describe('Only files matching this glob, e.g. "**/*.ts".'))),
  folder: z.optional(z.string().check(z.describe('Folder to search (default: all).'))),
});

type SearchArgs = z.infer<typeof searchTextArguments>;

export const searchTextTool: AgentTool = {
  name: 'search_text',
  description: `Search text files by line; up to ${searchMatchLimit} matches as "path:line: text". ` + 'Skips ignored, protected, binary and huge files.',
  kind: 'read',
  parameters: TOOL_PARAMETERS.search_text,
  prepare: guardedPrepare(
    'search_text',
    searchTextArguments,
    (args) => `Search for ${args.pattern}${args.glob ? ` in ${args.glob}` : ''}`,
    async (args, ctx, signal) => {
      // With an engine (ripgrep) the regex is its to check, and its reason goes back to the model when it refuses one.
      const matcher = ctx.search ? undefined : lineMatcher(args.pattern);
      if (typeof matcher === 'string') return refused(matcher);
      const glob = args.glob === undefined ? undefined : compileGlob(args.glob);
      if (glob?.ok === false) return refused(`Unsupported glob "${args.glob}": ${glob.reason}.`);
      const checked = await resolveWorkspacePath(args.folder ?? '.', ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      return { execute: async (execSignal) => ({ ok: true, output: await search(checked.path, args, glob?.matches, ctx, execSignal) }) };
    },
  ),
};

/** Where a line matches (the index of the match), or -1. */
type LineMatcher = (line: string) => number;

/** `/regex/flags` split up, or undefined for plain text. */
function regexOf(pattern: string): { source: string; flags: string } | undefined {
  const regex = /^\/(.+)\/([gimsuy]*)$/s.exec(pattern);
  return regex ? { source: regex[1], flags: regex[2] } : undefined;
}

/**
 * The matcher for `/regex/flags` or plain text, or why the regex cannot run.
 * The pattern comes from the model, so it runs on re2js, whose time is linear
 * in the line: `^(a+)+$` takes JavaScript's engine seconds on a 28-character
 * line, and the search would hold the extension host (and Stop) meanwhile.
 * re2 has no backreferences or lookarounds; its own message says which part failed.
 */
function lineMatcher(pattern: string): LineMatcher | string {
  const regex = regexOf(pattern);
  if (!regex) return (line) => line.indexOf(pattern);
  // g and y would make matching stateful across lines; they mean nothing per line anyway.
  const flags = regex.flags;
  const RE2JS = re2();
  const re2Flags = (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0);
  try {
    const compiled = RE2JS.compile(regex.source, re2Flags);
    return (line) => {
      const found = compiled.matcher(line);
      return found.find() ? found.start() : -1;
    };
  } catch (error) {
    return unsupportedRegex(pattern, error instanceof Error ? error.message : String(error));
  }
}

function unsupportedRegex(pattern: string, reason: string): string {
  return (
    `Unsupported regular expression ${pattern}: ${reason}. The search runs on a linear-time engine (RE2 syntax): ` +
    'no backreferences (\\1) and no lookarounds ((?=, (?!, (?<=, (?<!). Rewrite it without them, or search for plain text without the slashes.'
  );
}

/** What a search found, whichever engine ran it. */
interface Findings {
  /** In tree order; one more than the limit says there were more. */
  matches: TextMatch[];
  filesSearched: number;
  tooLarge: number;
  hardLinked: number;
  /** Why the search stopped before the end (the walk's entry or time limit, the engine's output limits). */
  stopped?: string;
}

async function search(
  folder: string,
  args: SearchArgs,
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<string> {
  const stat = await ctx.files.stat(folder, signal);
  if (!stat || stat.type !== 'directory') throw new ToolFailure(`No folder at "${folder}".`);
  const clock = ctx.clock ?? systemClock;
  const started = clock.now();
  const engine = ctx.search;
  // A folder reached through a symlink is walked: the engine does not follow links.
  if (engine && (await ctx.files.realPathInside(folder, signal)) === folder) {
    try {
      const found = await searchWithEngine(folder, args, inGlob, ctx, signal);
      ctx.logger.info(`search_text served by ${engine.name} in ${Math.round(clock.now() - started)} ms`);
      return formatFindings(found, args);
    } catch (error) {
      if (error instanceof SearchPatternError) {
        ctx.logger.info(`search_text served by ${engine.name} in ${Math.round(clock.now() - started)} ms: it refused the pattern`);
        throw new ToolFailure(unsupportedRegex(args.pattern, error.message));
      }
      if (signal.aborted) throw error;
      ctx.logger.warn(`search_text: ${engine.name} failed, searching with the JavaScript walker instead: ${String(error)}`);
    }
  }
  const matcher = lineMatcher(args.pattern);
  if (typeof matcher === 'string') throw new ToolFailure(matcher);
  const found = await walkSearch(folder, matcher, inGlob, ctx, signal);
  ctx.logger.info(`search_text served by the JavaScript walker in ${Math.round(clock.now() - started)} ms`);
  return formatFindings(found, args);
}

function searchWithEngine(folder: string, args: SearchArgs, inGlob: ((path: string) => boolean) | undefined, ctx: ToolContext, signal: AbortSignal) {
  const regex = regexOf(args.pattern);
  const excludedGlobs = ctx.files.excludedGlobs?.() ?? [];
  const query: TextQuery = {
    folder,
    respectIgnore: true,
    protectedGlobs: ctx.protectedFiles,
    excludedGlobs,
    nameGlob: nameGlobOf(args.glob),
    maxFileBytes: searchFileBytes,
    pattern: regex ? regex.source : args.pattern,
    regex: regex !== undefined,
    ignoreCase: regex?.flags.includes('i') ?? false,
    maxMatchesPerFile: searchMatchLimit + 1,
  };
  const verdicts = new PathVerdicts(folder, ctx.protectedFiles, excludedGlobs, inGlob);
  const unsavedMatcher = () => {
    const matcher = lineMatcher(args.pattern);
    return typeof matcher === 'string' ? undefined : matcher;
  };
  // A glob without `/` (or with `**/` before the name alone) says only which names: the engine applies all of it.
  const onlyNames = args.glob === undefined || (query.nameGlob !== undefined && (args.glob === query.nameGlob || args.glob === `**/${query.nameGlob}`));
  const glob = { key: args.glob ?? '', onlyNames };
  return engineSearch(
    { search: ctx.search!, query, verdicts, files: ctx.files, matchLine: unsavedMatcher, limit: searchMatchLimit, glob, clock: ctx.clock ?? systemClock },
    signal,
  );
}

/** Files read ahead of the one being matched: their reads overlap, and the matching stays in tree order. */
const readAhead = 16;

type FileRead = { kind: 'hardLinked' } | { kind: 'tooLarge' } | { kind: 'text'; text: string };
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function walkSearch(
  folder: string,
  matches: LineMatcher,
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  outer: AbortSignal,
): Promise<Findings> {
  const found: Findings = { matches: [], filesSearched: 0, tooLarge: 0, hardLinked: 0 };
  // The reads still under way when the search has enough are stopped with it.
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  outer.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  const queue: { path: string; read: Promise<Settled<FileRead>> }[] = [];
  /** Matches the oldest file read; true once there are more matches than shown. */
  const matchNext = async () => {
    const next = queue.shift()!;
    const read = await next.read;
    if (!read.ok) throw read.error;
    return matchFile(next.path, read.value, matches, found, signal);
  };
  try {
    const timeLimit = { clock: ctx.clock ?? systemClock, ms: walkTimeLimitMs };
    const walk = walkWorkspace(folder, ctx, signal, { respectIgnore: true, timeLimit, onLimit: (why) => (found.stopped = why) });
    for await (const entry of walk) {
      if (entry.type !== 'file') continue;
      const relative = folder === '.' ? entry.path : entry.path.slice(folder.length + 1);
      if (inGlob !== undefined && !inGlob(relative)) continue;
      const read = readForSearch(entry.path, ctx, signal).then(
        (value): Settled<FileRead> => ({ ok: true, value }),
        (error: unknown): Settled<FileRead> => ({ ok: false, error }),
      );
      queue.push({ path: entry.path, read });
      if (queue.length >= readAhead && (await matchNext())) return found;
    }
    while (queue.length > 0) if (await matchNext()) return found;
    return found;
  } finally {
    outer.removeEventListener('abort', stop);
    controller.abort();
  }
}

async function readForSearch(path: string, ctx: ToolContext, signal: AbortSignal): Promise<FileRead> {
  const stat = await ctx.files.stat(path, signal);
  // A hard link may be a protected file under another name (see hardLinkRefusal).
  if ((stat?.links ?? 1) > 1) return { kind: 'hardLinked' };
  if ((stat?.size ?? 0) > searchFileBytes) return { kind: 'tooLarge' };
  return { kind: 'text', text: await ctx.files.readText(path, signal) };
}

/** The file's matches added to `found`; true once there are more than the limit. */
function matchFile(path: string, read: FileRead, matches: LineMatcher, found: Findings, signal: AbortSignal): boolean {
  if (read.kind === 'hardLinked') found.hardLinked++;
  if (read.kind === 'tooLarge') found.tooLarge++;
  if (read.kind !== 'text') return false;
  // Counted as searched, binary or not, as ripgrep counts it (it reads a file until it finds it binary).
  found.filesSearched++;
  if (looksBinary(read.text)) return false;
  const lines = read.text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    // A 1 MB file of short lines is many matches to try: Stop must still get through.
    if (i % 1000 === 999) signal.throwIfAborted();
    const at = matches(lines[i]);
    if (at < 0) continue;
    found.matches.push({ path, line: i + 1, text: lines[i], column: at });
    if (found.matches.length > searchMatchLimit) return true;
  }
  return false;
}

function formatFindings(found: Findings, args: SearchArgs): string {
  const results = found.matches.slice(0, searchMatchLimit).map((match) => {
    const indent = match.text.length - match.text.trimStart().length;
    return `${match.path}:${match.line}: ${clipLine(match.text.trimStart(), searchLineChars, match.column - indent)}`;
  });
  if (found.matches.length > searchMatchLimit) {
    return [...results, `(stopped at ${searchMatchLimit} matches; use a more specific pattern, a glob or a folder to narrow it down)`].join('\n');
  }
  const notes: string[] = [];
  if (found.tooLarge > 0) notes.push(`(${plural(found.tooLarge, 'file')} larger than ${searchFileBytes / 1024} KB skipped)`);
  if (found.hardLinked > 0) notes.push(`(${plural(found.hardLinked, 'hard-linked file')} skipped: one may be a protected file under another name)`);
  if (found.stopped !== undefined) notes.push(`(the workspace is too large to search whole (${found.stopped}); use a folder or a glob)`);
  if (results.length === 0) {
    return [`No matches for ${args.pattern} in ${plural(found.filesSearched, 'file')}${args.glob ? ` matching "${args.glob}"` : ''}.`, ...notes].join('\n');
  }
  return [...results, ...notes].join('\n');
}
