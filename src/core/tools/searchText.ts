/** search_text: lines of workspace files that match a text or a regular expression, as `path:line: text`. */
import * as z from 'zod/mini';
import { RE2JS } from 're2js';
import type { AgentTool, ToolContext } from './tool';
import { ToolFailure, guardedPrepare, parametersOf, refused } from './tool';
import { resolveWorkspacePath } from './pathPolicy';
import { compileGlob } from './glob';
import { walkWorkspace } from './walk';
import { clipLine, looksBinary, plural } from './textLimits';

export const searchMatchLimit = 100;
export const searchLineChars = 200;
/** Larger files are skipped (and counted): they are rarely source and slow to scan. */
export const searchFileBytes = 1024 * 1024;

const schema = z.object({
  pattern: z.string().check(z.minLength(1), z.describe('Exact, case-sensitive text, or /regex/ or /regex/i.')),
  glob: z.optional(z.string().check(z.describe('Only files matching this glob, e.g. "**/*.ts".'))),
  folder: z.optional(z.string().check(z.describe('Folder to search (default: all).'))),
});

export const searchTextTool: AgentTool = {
  name: 'search_text',
  description:
    `Search text files line by line; up to ${searchMatchLimit} matches as "path:line: text". ` + 'Ignored, protected, binary and huge files are skipped.',
  kind: 'read',
  parameters: parametersOf(schema),
  prepare: guardedPrepare(
    'search_text',
    schema,
    (args) => `Search for ${args.pattern}${args.glob ? ` in ${args.glob}` : ''}`,
    async (args, ctx, signal) => {
      const matcher = lineMatcher(args.pattern);
      if (typeof matcher === 'string') return refused(matcher);
      const glob = args.glob === undefined ? undefined : compileGlob(args.glob);
      if (glob?.ok === false) return refused(`Unsupported glob "${args.glob}": ${glob.reason}.`);
      const checked = await resolveWorkspacePath(args.folder ?? '.', ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      return { execute: async (execSignal) => ({ ok: true, output: await search(checked.path, matcher, args, glob?.matches, ctx, execSignal) }) };
    },
  ),
};

/** Where a line matches (the index of the match), or -1. */
type LineMatcher = (line: string) => number;

/**
 * The matcher for `/regex/flags` or plain text, or why the regex cannot run.
 * The pattern comes from the model, so it runs on re2js, whose time is linear
 * in the line: `^(a+)+$` takes JavaScript's engine seconds on a 28-character
 * line, and the search would hold the extension host (and Stop) meanwhile.
 * re2 has no backreferences or lookarounds; its own message says which part failed.
 */
function lineMatcher(pattern: string): LineMatcher | string {
  const regex = /^\/(.+)\/([gimsuy]*)$/s.exec(pattern);
  if (!regex) return (line) => line.indexOf(pattern);
  // g and y would make matching stateful across lines; they mean nothing per line anyway.
  const flags = regex[2];
  const re2Flags = (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0);
  try {
    const compiled = RE2JS.compile(regex[1], re2Flags);
    return (line) => {
      const found = compiled.matcher(line);
      return found.find() ? found.start() : -1;
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return (
      `Unsupported regular expression ${pattern}: ${reason}. The search runs on a linear-time engine (RE2 syntax): ` +
      'no backreferences (\\1) and no lookarounds ((?=, (?!, (?<=, (?<!). Rewrite it without them, or search for plain text without the slashes.'
    );
  }
}

async function search(
  folder: string,
  matches: LineMatcher,
  args: { pattern: string; glob?: string },
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<string> {
  const stat = await ctx.files.stat(folder, signal);
  if (!stat || stat.type !== 'directory') throw new ToolFailure(`No folder at "${folder}".`);
  const results: string[] = [];
  let filesSearched = 0;
  let tooLarge = 0;
  let hardLinked = 0;
  let limitReached = false;
  const walk = walkWorkspace(folder, ctx, signal, { respectIgnore: true, onLimit: () => (limitReached = true) });
  for await (const entry of walk) {
    if (entry.type !== 'file') continue;
    const relative = folder === '.' ? entry.path : entry.path.slice(folder.length + 1);
    if (inGlob !== undefined && !inGlob(relative)) continue;
    const stat = await ctx.files.stat(entry.path, signal);
    // A hard link may be a protected file under another name (see hardLinkRefusal).
    if ((stat?.links ?? 1) > 1) {
      hardLinked++;
      continue;
    }
    const size = stat?.size ?? 0;
    if (size > searchFileBytes) {
      tooLarge++;
      continue;
    }
    const text = await ctx.files.readText(entry.path, signal);
    if (looksBinary(text)) continue;
    filesSearched++;
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      // A 1 MB file of short lines is many matches to try: Stop must still get through.
      if (i % 1000 === 999) signal.throwIfAborted();
      const at = matches(lines[i]);
      if (at < 0) continue;
      if (results.length === searchMatchLimit) {
        return [...results, `(stopped at ${searchMatchLimit} matches; use a more specific pattern, a glob or a folder to narrow it down)`].join('\n');
      }
      const indent = lines[i].length - lines[i].trimStart().length;
      results.push(`${entry.path}:${i + 1}: ${clipLine(lines[i].trimStart(), searchLineChars, at - indent)}`);
    }
  }
  const notes: string[] = [];
  if (tooLarge > 0) notes.push(`(${plural(tooLarge, 'file')} larger than ${searchFileBytes / 1024} KB skipped)`);
  if (hardLinked > 0) notes.push(`(${plural(hardLinked, 'hard-linked file')} skipped: one may be a protected file under another name)`);
  if (limitReached) notes.push('(the workspace is too large to search whole; use a folder or a glob)');
  if (results.length === 0) {
    return [`No matches for ${args.pattern} in ${plural(filesSearched, 'file')}${args.glob ? ` matching "${args.glob}"` : ''}.`, ...notes].join('\n');
  }
  return [...results, ...notes].join('\n');
}
