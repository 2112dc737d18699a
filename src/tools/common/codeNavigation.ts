/**
 * What the navigation tools share: a position given as the model sees a file
 * (a 1-based line and the symbol's name on it: the model sees no columns, and
 * counts them badly), and places written back as `path:line:column: the
 * line's text`, bounded.
 */
import { type ToolContext, ToolFailure } from './tool';
import { protectingPattern } from '../../base/common';
import { resolveWorkspacePath } from './pathPolicy';
import { currentText } from './fileWrites';
import { boundedLines, noLanguageServices, type CodeLocation, type CodePosition, type LanguageServices } from './languageServices';
import { clipLine, looksBinary } from '../../base/common';

/** Places listed per call, and the characters of the list. */
export const LOCATION_LIMIT = 50;
export const LOCATION_CHARS = 8_000;
const LINE_TEXT_CHARS = 200;

/** A place as code_navigation's definition and references take it: the model sees lines, not columns. */
export interface PositionArgs {
  path: string;
  line: number;
  symbol: string;
}

/** The position the arguments name in the file's text, or a ToolFailure saying what is wrong with them. */
export function positionIn(text: string, args: PositionArgs): CodePosition {
  const lines = text.split(/\r?\n/);
  // A final newline does not make an extra line, as in read_file.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (args.line > lines.length) throw new ToolFailure(`line ${args.line} is past the end: "${args.path}" has ${lines.length} lines.`);
  const lineText = lines[args.line - 1];
  const symbol = args.symbol.trim();
  if (symbol === '') throw new ToolFailure('symbol is empty: give the name to look up, as it appears on that line.');
  const at = wordIndex(lineText, symbol);
  if (at < 0) throw new ToolFailure(`"${symbol}" is not on line ${args.line} of "${args.path}": ${clipLine(lineText.trim(), LINE_TEXT_CHARS)}`);
  return { line: args.line, column: at + 1 };
}

/** Where `word` first occurs as a whole identifier in `line`, else where it first occurs at all, else -1. */
function wordIndex(line: string, word: string): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const whole = new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).exec(line);
  return whole ? whole.index : line.indexOf(word);
}

/** Each place as `path:line:column: text of the line`, at most LOCATION_LIMIT of them; files read once each. */
export async function describeLocations(locations: readonly CodeLocation[], ctx: ToolContext, signal: AbortSignal): Promise<string> {
  const texts = new Map<string, Promise<string[] | undefined>>();
  const lines: string[] = [];
  for (const location of locations.slice(0, LOCATION_LIMIT)) {
    if (!texts.has(location.path)) texts.set(location.path, linesOf(location, ctx, signal));
    const fileLines = await texts.get(location.path)!;
    const text = fileLines?.[location.line - 1];
    lines.push(`${placeOf(location)}${text === undefined ? '' : `: ${clipLine(text.trim(), LINE_TEXT_CHARS)}`}`);
  }
  const listed = boundedLines(lines, LOCATION_LIMIT, LOCATION_CHARS, 'places');
  const unlisted = locations.length - Math.min(locations.length, LOCATION_LIMIT);
  return unlisted > 0 ? `${listed}\n(${unlisted} more places not shown)` : listed;
}

export function placeOf(location: CodeLocation): string {
  const where = location.inWorkspace ? location.path : `(outside the workspace) ${location.path}`;
  return `${where}:${location.line}:${location.column}`;
}

/** The file's lines when the agent may read it: in the workspace, not protected, text. */
async function linesOf(location: CodeLocation, ctx: ToolContext, signal: AbortSignal): Promise<string[] | undefined> {
  if (!location.inWorkspace || protectingPattern(location.path, ctx.protectedFiles) !== undefined) return undefined;
  try {
    const real = await ctx.files.realPathInside(location.path, signal);
    if (real === undefined || protectingPattern(real, ctx.protectedFiles) !== undefined) return undefined;
    const text = await ctx.files.readText(location.path, signal);
    return looksBinary(text) ? undefined : text.split(/\r?\n/);
  } catch {
    // The place is still worth naming without its text.
    return undefined;
  }
}

/** A navigation call's prepare: the language services there, the path allowed, the file read and the position found in it. */
export async function preparePosition(
  args: PositionArgs,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<{ ok: true; languages: LanguageServices; path: string; position: CodePosition } | { ok: false; reason: string }> {
  if (!ctx.languages) return { ok: false, reason: noLanguageServices };
  const checked = await resolveWorkspacePath(args.path, ctx, signal);
  if (!checked.ok) return checked;
  const text = await currentText(checked.path, ctx, signal);
  if (text === undefined) return { ok: false, reason: `No file at "${checked.path}". Use list_files to see what is there.` };
  return { ok: true, languages: ctx.languages, path: checked.path, position: positionIn(text, { ...args, path: checked.path }) };
}
