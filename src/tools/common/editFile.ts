/** edit_file: replaces one exact, unique piece of a file's text. */
import * as z from 'zod/mini';
import type { AgentTool } from './tool';
import { displayPath, guardedPrepare, parametersOf, refused } from './tool';
import { resolveWorkspacePath } from './pathPolicy';
import { applyChange, currentText } from './fileWrites';
import { clipLine, plural } from './textLimits';

const schema = z.object({
  path: z.string().check(z.describe('The file to change.')),
  old_text: z.string().check(z.describe('Exact text to replace, whitespace included.')),
  new_text: z.string().check(z.describe('The replacement text.')),
});

export const editFileTool: AgentTool = {
  name: 'edit_file',
  description:
    'Replace text in an existing file. old_text must match exactly and occur once: add surrounding lines to make it unique. ' +
    'For a new file or a full rewrite use write_file.',
  kind: 'write',
  parameters: parametersOf(schema),
  prepare: guardedPrepare(
    'edit_file',
    schema,
    (args) => `Edit ${displayPath(args.path)}`,
    async (args, ctx, signal) => {
      const checked = await resolveWorkspacePath(args.path, ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      if (args.old_text === '') return refused('old_text is empty. To create a file or replace its whole content, use write_file.');
      if (args.old_text === args.new_text) return refused('old_text and new_text are the same: there is nothing to change.');
      const before = await currentText(checked.path, ctx, signal);
      if (before === undefined) return refused(`No file at "${checked.path}". To create it, use write_file.`);
      const replaced = replaceOnce(before, args.old_text, args.new_text, checked.path);
      if (!replaced.ok) return refused(replaced.problem);
      const preview = { path: checked.path, before, after: replaced.text };
      return { preview, execute: (execSignal) => applyChange(preview, ctx, execSignal) };
    },
  ),
};

export type Replacement = { ok: true; text: string } | { ok: false; problem: string };

/** The text with the one occurrence of `oldText` replaced, or why there is not exactly one. */
export function replaceOnce(text: string, oldText: string, newText: string, path: string): Replacement {
  let [find, replacement] = [oldText, newText];
  // Models write \n; a file with \r\n line ends should still match, and keep its line ends.
  if (!text.includes(find) && text.includes('\r\n')) [find, replacement] = [toCrlf(oldText), toCrlf(newText)];
  const at = occurrences(text, find);
  if (at.length === 0) return { ok: false, problem: notFoundMessage(text, oldText, path) };
  if (at.length > 1) {
    const lines = at.slice(0, 10).map((index) => lineOf(text, index));
    return {
      ok: false,
      problem:
        `old_text occurs ${at.length === occurrenceLimit ? `more than ${occurrenceLimit - 1}` : at.length} times in "${path}" (at lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}). ` +
        'Include more of the surrounding lines in old_text so that it matches exactly one place.',
    };
  }
  // Slicing, not String.replace: a replacement string would give `$&` and `$1` special meanings.
  return { ok: true, text: text.slice(0, at[0]) + replacement + text.slice(at[0] + find.length) };
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Counting stops here: "occurs more than 100 times" says enough, and `a` in a 2 MB file would be millions. */
const occurrenceLimit = 101;

function occurrences(text: string, find: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(find); at >= 0 && found.length < occurrenceLimit; at = text.indexOf(find, at + 1)) found.push(at);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Beyond this size, looking for the nearest lines costs more than it helps. */
const similarSearchLimit = 2 * 1024 * 1024;

/** Why old_text was not found, with the closest lines of the file when they are easy to find. */
function notFoundMessage(text: string, oldText: string, path: string): string {
  const base = `old_text was not found in "${path}".`;
  const advice = 'Read the file again (read_file) and copy the text exactly, including indentation.';
  if (text.length > similarSearchLimit) return `${base} ${advice}`;
  const fileLines = text.split(/\r?\n/);
  const wantedLines = oldText.split(/\r?\n/);
  const whitespaceMatch = matchIgnoringIndentation(fileLines, wantedLines);
  if (whitespaceMatch !== undefined) {
    return `${base} It matches lines ${whitespaceMatch}–${whitespaceMatch + wantedLines.length - 1} except for whitespace or indentation. ${advice}`;
  }
  const nearest = mostSimilarLine(fileLines, wantedLines.find((line) => line.trim() !== '') ?? '');
  if (nearest === undefined) return `${base} ${advice}`;
  const from = Math.max(0, nearest - 1);
  const to = Math.min(fileLines.length, nearest + Math.min(wantedLines.length, 8) + 1);
  return `${base} The most similar lines in the file are:\n${excerpt(fileLines, from, to)}\n${advice}`;
}

/** Each quoted line is cut to this many characters: a minified line would otherwise send megabytes to the model. */
export const excerptLineChars = 200;
/** And the whole excerpt to this many. */
export const excerptChars = 2000;

/** Lines `from`..`to` (0-based, end excluded), numbered, each clipped, the whole bounded. */
function excerpt(fileLines: string[], from: number, to: number): string {
  const shown: string[] = [];
  let length = 0;
  for (let n = from; n < to; n++) {
    const line = `${n + 1}: ${clipLine(fileLines[n], excerptLineChars)}`;
    if (length + line.length > excerptChars) {
      shown.push(`(${plural(to - n, 'more line')} not shown)`);
      break;
    }
    shown.push(line);
    length += line.length + 1;
  }
  return shown.join('\n');
}

/**
 * The 1-based first line where the wanted lines match after trimming each line.
 * Knuth-Morris-Pratt over lines, so the work is linear in both: a naive scan of
 * 4,000 wanted lines against a 400,000-line file of near-repeats took seconds.
 */
function matchIgnoringIndentation(fileLines: string[], wantedLines: string[]): number | undefined {
  const wanted = wantedLines.map((line) => line.trim());
  const fallback = failureTable(wanted);
  let matched = 0;
  for (let i = 0; i < fileLines.length; i++) {
    const line = fileLines[i].trim();
    while (matched > 0 && wanted[matched] !== line) matched = fallback[matched - 1];
    if (wanted[matched] === line) matched++;
    if (matched === wanted.length) return i - wanted.length + 2;
  }
  return undefined;
}

/** For each prefix of `items`, the length of its longest proper prefix that is also its suffix. */
function failureTable(items: string[]): number[] {
  const table = new Array<number>(items.length).fill(0);
  let length = 0;
  for (let i = 1; i < items.length; i++) {
    while (length > 0 && items[i] !== items[length]) length = table[length - 1];
    if (items[i] === items[length]) length++;
    table[i] = length;
  }
  return table;
}

/** The 0-based index of the file line most like `wanted` (bigram similarity), if any is reasonably close. */
function mostSimilarLine(fileLines: string[], wanted: string): number | undefined {
  const target = bigrams(wanted.trim());
  if (target.size === 0) return undefined;
  const targetCount = wanted.trim().length - 1;
  const targetTotal = [...target.values()].reduce((sum, count) => sum + count, 0);
  let best: { index: number; score: number } | undefined;
  fileLines.forEach((line, index) => {
    // Dice's coefficient is at most 2a/(a+b): a line with 3 times the bigrams cannot pass 0.5, so huge lines are skipped unread.
    if (line.trim().length - 1 >= 3 * targetCount) return;
    const score = similarity(target, targetTotal, bigrams(line.trim()));
    if (score > (best?.score ?? 0.5)) best = { index, score };
  });
  return best?.index;
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/**
 * Dice's coefficient over bigram counts: 1 for equal texts, 0 for nothing in common.
 * The loop runs over the line's bigrams only, so comparing one long wanted line
 * with every line of a big file costs the file's length, not lines × wanted.
 */
function similarity(wanted: Map<string, number>, wantedTotal: number, line: Map<string, number>): number {
  let shared = 0;
  let total = wantedTotal;
  for (const [pair, count] of line) {
    shared += Math.min(count, wanted.get(pair) ?? 0);
    total += count;
  }
  return total === 0 ? 0 : (2 * shared) / total;
}
