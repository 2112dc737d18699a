/** read_file: a file's text, a page at a time so a large file cannot flood the context. */
import * as z from 'zod/mini';
import { type AgentTool, type ToolContext, ToolFailure, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { hardLinkRefusal, resolveWorkspacePath } from './pathPolicy';
import { headBytes, looksBinary, utf8Length } from '../../base/common';
import { missingFileMessage } from './missingPath';

/** At most this many lines and bytes per call; the note says how to get the next page. */
export const readPageLines = 400;
export const readPageBytes = 32 * 1024;
/** Beyond this, reading the file whole to show one page costs too much. */
const largestReadableBytes = 20 * 1024 * 1024;

const lineNumber = z.number().check(z.int(), z.minimum(1));

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.read_file (a unit test keeps the two equal). */
export const readFileArguments = z.object({
  path: z.string().check(z.describe('File path, e.g. "src/index.ts".')),
  startLine: z.optional(lineNumber.check(z.describe('First line, 1-based (default 1).'))),
  endLine: z.optional(lineNumber.check(z.describe('Last line, inclusive (default: end).'))),
});

export const readFileTool: AgentTool = {
  name: 'read_file',
  description: `Read a text file, up to ${readPageLines} lines or ${readPageBytes / 1024} KB a call; ` + 'a note at the end gives the startLine to go on with.',
  kind: 'read',
  parameters: TOOL_PARAMETERS.read_file,
  prepare: guardedPrepare(
    'read_file',
    readFileArguments,
    (args) => `Read ${displayPath(args.path)}`,
    async (args, ctx, signal) => {
      const checked = await resolveWorkspacePath(args.path, ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      return { execute: async (execSignal) => ({ ok: true, output: await readPage(checked.path, args.startLine, args.endLine, ctx, execSignal) }) };
    },
  ),
  // Its output's lines are the file's from startLine on, so the rest starts that many lines later.
  continuation(rawArgs, linesShown) {
    const args = parsedArgs(rawArgs);
    if (!args) return undefined;
    const end = args.endLine === undefined ? '' : `, endLine=${args.endLine}`;
    return `call read_file again with startLine=${(args.startLine ?? 1) + linesShown}${end}`;
  },
};

function parsedArgs(rawArgs: unknown): z.infer<typeof readFileArguments> | undefined {
  try {
    const parsed = readFileArguments.safeParse(typeof rawArgs === 'string' ? JSON.parse(rawArgs) : rawArgs);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function readPage(path: string, startLine: number | undefined, endLine: number | undefined, ctx: ToolContext, signal: AbortSignal): Promise<string> {
  const stat = await ctx.files.stat(path, signal);
  if (!stat) throw new ToolFailure(await missingFileMessage(path, ctx.files, ctx.protectedFiles, signal));
  if (stat.type === 'directory') throw new ToolFailure(`"${path}" is a folder, not a file. Use list_files to see its contents.`);
  if ((stat.links ?? 1) > 1) throw new ToolFailure(hardLinkRefusal(path, stat.links ?? 1));
  if (stat.size > largestReadableBytes)
    throw new ToolFailure(`"${path}" is too large to read (${stat.size} bytes). Use search_text to find the part you need.`);
  const text = await ctx.files.readText(path, signal);
  if (looksBinary(text)) throw new ToolFailure(`"${path}" is a binary file (${stat.size} bytes); it cannot be shown as text.`);
  const lines = splitLines(text);
  if (lines.length === 0) return `("${path}" is empty)`;
  const first = startLine ?? 1;
  const last = Math.min(endLine ?? lines.length, lines.length);
  if (first > lines.length) throw new ToolFailure(`startLine ${first} is past the end: "${path}" has ${lines.length} lines.`);
  if (last < first) throw new ToolFailure(`endLine ${endLine} is before startLine ${first}.`);
  return page(lines, first, last);
}

/** Lines without their terminators; a final newline does not make an extra empty line. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function page(lines: string[], first: number, last: number): string {
  const shown: string[] = [];
  let bytes = 0;
  let cutLine: number | undefined;
  for (let n = first; n <= last && shown.length < readPageLines; n++) {
    const line = lines[n - 1];
    const size = utf8Length(line) + 1;
    if (bytes + size > readPageBytes) {
      // One enormous line (minified code) still shows its beginning rather than nothing.
      if (shown.length === 0) {
        shown.push(headBytes(line, readPageBytes));
        cutLine = n;
      }
      break;
    }
    shown.push(line);
    bytes += size;
  }
  const shownLast = first + shown.length - 1;
  const notes: string[] = [];
  if (cutLine !== undefined) notes.push(`line ${cutLine} is cut: it is longer than ${readPageBytes / 1024} KB`);
  if (first > 1 || shownLast < lines.length) {
    const more = shownLast < lines.length ? `; call again with startLine=${shownLast + 1} for more` : '';
    notes.push(`lines ${first}–${shownLast} of ${lines.length}${more}`);
  }
  return notes.length > 0 ? `${shown.join('\n')}\n\n(${notes.join('; ')})` : shown.join('\n');
}
