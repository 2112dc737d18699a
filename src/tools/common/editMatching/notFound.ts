/** Why an edit's old text was not found, with the closest lines of the file when they are easy to find. */
import { clipLine, plural } from '../../../base/common';
import { pieceLines } from './textLines';

/** Beyond this size, looking for the nearest lines costs more than it helps. */
const similarSearchLimit = 2 * 1024 * 1024;

export interface MissedEdit {
  text: string;
  oldText: string;
  path: string;
  /** Where the lines match once trimmed, though not as one block (the matcher found it already). */
  sameExceptWhitespace: number | undefined;
}

/** Why old_text was not found, with the closest lines of the file when they are easy to find. */
export function notFoundMessage(missed: MissedEdit): string {
  const { text, oldText, path, sameExceptWhitespace } = missed;
  const base = `old_text was not found in "${path}".`;
  const advice = 'Read the file again (read_file) and copy the text exactly, including indentation.';
  if (text.length > similarSearchLimit) return `${base} ${advice}`;
  const wantedLines = pieceLines(oldText).lines;
  if (sameExceptWhitespace !== undefined) {
    return `${base} It matches lines ${sameExceptWhitespace}–${sameExceptWhitespace + wantedLines.length - 1} except for whitespace or indentation. ${advice}`;
  }
  const fileLines = text.split(/\r?\n/);
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
