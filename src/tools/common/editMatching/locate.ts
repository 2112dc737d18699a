/**
 * Finds where an edit's old text is in a file: exactly first, then, in order and
 * only while the match is unique, with one tolerance more at each step for the
 * ways models miscopy text. More than one candidate at a step is never guessed
 * between: the edit is refused with their lines.
 */
import { findSequence, leadingWhitespace, pieceLines, splitLines, type PieceLines, type TextLines } from './textLines';
import { indentStyle, learnReindent, reindentLines, type Reindent } from './indentation';
import { hasTypographic, keepFilePunctuation, plainPunctuation } from './punctuation';
import { unescapeJson, withEscapedNewlines, withoutLineNumbers } from './copiedForms';

/** What the model is told about each tolerance an edit needed. */
export const toleranceNotes = {
  lineEndings: 'line endings adapted',
  trailingWhitespace: 'trailing whitespace ignored',
  indentation: 'indentation ignored',
  punctuation: 'typographic punctuation read as plain ASCII',
  lineNumbers: 'line-number prefixes removed',
  escapedNewlines: 'the two characters \\n read as newlines',
} as const;

export type EditMatch =
  | { kind: 'found'; text: string; tolerances: string[] }
  /** `lines` are 1-based, the first ten; `more` when counting stopped at the bound. */
  | { kind: 'ambiguous'; count: number; more: boolean; lines: number[]; tolerances: string[] }
  /** `sameExceptWhitespace`: the 1-based first line where the lines match once trimmed, though not as one block. */
  | { kind: 'notFound'; sameExceptWhitespace?: number };

/** Counting stops here: "more than 100 times" says enough, and `a` in a 2 MB file would be millions. */
export const occurrenceLimit = 101;
/** Windows whose indentation is checked at most: a bound on windows × lines of work for hostile input. */
const checkedLineBudget = 300_000;

/** The file's text with the edit applied at the one place it matches, or why there is no such place. */
export function matchEdit(text: string, oldText: string, newText: string): EditMatch {
  const direct = matchAsSent(text, oldText, newText);
  if (direct.kind !== 'notFound') return direct;
  const copied: [string, string | undefined, () => string][] = [
    [toleranceNotes.lineNumbers, withoutLineNumbers(oldText), () => withoutLineNumbers(newText) ?? newText],
    [toleranceNotes.escapedNewlines, withEscapedNewlines(oldText), () => (newText.includes('\n') ? newText : unescapeJson(newText))],
  ];
  for (const [note, oldForm, newForm] of copied) {
    if (oldForm === undefined || oldForm.trim() === '') continue;
    const again = matchAsSent(text, oldForm, newForm());
    if (again.kind !== 'notFound') return { ...again, tolerances: [note, ...again.tolerances] };
  }
  return direct;
}

function matchAsSent(text: string, oldText: string, newText: string): EditMatch {
  const exact = matchExact(text, oldText, newText, []);
  if (exact.kind !== 'notFound') return exact;
  const crlf = text.includes('\r\n');
  const adapted = crlf ? toCrlf(oldText) : oldText.replace(/\r\n/g, '\n');
  if (adapted !== oldText) {
    const ends = matchExact(text, adapted, crlf ? toCrlf(newText) : newText.replace(/\r\n/g, '\n'), [toleranceNotes.lineEndings]);
    if (ends.kind !== 'notFound') return ends;
  }
  return matchLines(text, oldText, newText);
}

function matchExact(text: string, find: string, replacement: string, tolerances: string[]): EditMatch {
  const at = occurrences(text, find);
  if (at.length === 0) return { kind: 'notFound' };
  if (at.length > 1)
    return ambiguous(
      at.length,
      at.slice(0, 10).map((index) => lineOf(text, index)),
      tolerances,
    );
  // Slicing, not String.replace: a replacement string would give `$&` and `$1` special meanings.
  return { kind: 'found', text: text.slice(0, at[0]) + replacement + text.slice(at[0] + find.length), tolerances };
}

function ambiguous(count: number, lines: number[], tolerances: string[]): EditMatch {
  return { kind: 'ambiguous', count: Math.min(count, occurrenceLimit - 1), more: count >= occurrenceLimit, lines: lines.slice(0, 10), tolerances };
}

interface LineStage {
  note: string;
  key: (line: string) => string;
  /** Whether the lines' indentation may differ (then it is learnt and new_text re-indented). */
  reindents: boolean;
}

const trimmed = (line: string) => line.trim();
const stages: LineStage[] = [
  { note: toleranceNotes.trailingWhitespace, key: (line) => line.trimEnd(), reindents: false },
  { note: toleranceNotes.indentation, key: trimmed, reindents: true },
  { note: toleranceNotes.punctuation, key: (line) => plainPunctuation(line).trim(), reindents: true },
];

/** The whole-line stages, each tried only when the one before found nothing. */
function matchLines(text: string, oldText: string, newText: string): EditMatch {
  const sent = pieceLines(oldText);
  const replacement = pieceLines(newText);
  if (sent.lines.every((line) => line.trim() === '')) return { kind: 'notFound' };
  const file = splitLines(text);
  if (sent.lines.length > file.lines.length) return { kind: 'notFound' };
  const reindentLimit = Math.max(occurrenceLimit, Math.floor(checkedLineBudget / sent.lines.length));
  // Lines equal without trailing whitespace are equal trimmed: no trimmed match, nothing for the first two stages.
  const trimmedWindows = findSequence(file.lines.map(trimmed), sent.lines.map(trimmed), reindentLimit);
  const typographic = hasTypographic(oldText) || hasTypographic(text);
  if (trimmedWindows.length === 0 && !typographic) return { kind: 'notFound' };
  const style = indentStyle(file.lines, [...sent.lines, ...replacement.lines]);
  for (const stage of stages) {
    if (stage.note === toleranceNotes.punctuation ? !typographic : trimmedWindows.length === 0) continue;
    const limit = stage.reindents ? reindentLimit : occurrenceLimit;
    const windows = stage.key === trimmed ? trimmedWindows : findSequence(file.lines.map(stage.key), sent.lines.map(stage.key), limit);
    const candidates: { at: number; reindent: Reindent | undefined }[] = [];
    for (const at of windows) {
      if (candidates.length === occurrenceLimit) break;
      const reindent = stage.reindents ? learnReindent(sent.lines, file.lines.slice(at, at + sent.lines.length), style) : undefined;
      if (!stage.reindents || reindent) candidates.push({ at, reindent });
    }
    const notes = [stage.note];
    if (stage.note === toleranceNotes.punctuation && candidates.some((c) => indentationDiffers(sent.lines, file.lines, c.at)))
      notes.push(toleranceNotes.indentation);
    // A bound reached means more windows may exist unseen: one candidate among them is not known to be the only one.
    if (candidates.length > 1 || (candidates.length === 1 && windows.length === limit)) {
      const count = windows.length === limit || candidates.length === occurrenceLimit ? occurrenceLimit : candidates.length;
      return ambiguous(
        count,
        candidates.map((c) => c.at + 1),
        notes,
      );
    }
    if (candidates.length === 1) {
      const { at, reindent } = candidates[0];
      return {
        kind: 'found',
        text: replaceWindow({ text, file, at, sent, replacement, reindent, keepsPunctuation: stage.note === toleranceNotes.punctuation }),
        tolerances: notes,
      };
    }
  }
  return { kind: 'notFound', sameExceptWhitespace: trimmedWindows.length > 0 ? trimmedWindows[0] + 1 : undefined };
}

/** Whether a sent line's indentation differs from the file line it matched (then the model is told it was adapted too). */
function indentationDiffers(sentLines: readonly string[], fileLines: readonly string[], at: number): boolean {
  return sentLines.some((line, i) => line.trim() !== '' && leadingWhitespace(line) !== leadingWhitespace(fileLines[at + i]));
}

interface WindowEdit {
  text: string;
  file: TextLines;
  /** The 0-based first line of the match. */
  at: number;
  sent: PieceLines;
  replacement: PieceLines;
  reindent: Reindent | undefined;
  /** The match needed the punctuation tolerance: changed lines keep the file's punctuation where they repeat the old ones. */
  keepsPunctuation: boolean;
}

/**
 * The text with the matched lines replaced. Lines new_text leaves as old_text had
 * them, at its start and end, are kept as the file has them (its own
 * whitespace, quotes and dashes); the lines between are re-indented.
 */
function replaceWindow(edit: WindowEdit): string {
  const { text, file, at, sent, replacement, reindent } = edit;
  const count = sent.lines.length;
  const wanted = replacement.lines;
  let kept = 0;
  while (kept < count && kept < wanted.length && wanted[kept] === sent.lines[kept]) kept++;
  let keptAtEnd = 0;
  while (keptAtEnd < count - kept && keptAtEnd < wanted.length - kept && wanted[wanted.length - 1 - keptAtEnd] === sent.lines[count - 1 - keptAtEnd])
    keptAtEnd++;
  const middle = wanted.slice(kept, wanted.length - keptAtEnd);
  const fileWindow = file.lines.slice(at, at + count);
  const punctuated = edit.keepsPunctuation ? middle.map((line, k) => withFilePunctuation(line, sent.lines[kept + k], fileWindow[kept + k])) : middle;
  const lines = [
    ...fileWindow.slice(0, kept),
    ...(reindent ? reindentLines(punctuated, reindent, kept === 0) : punctuated),
    ...fileWindow.slice(count - keptAtEnd),
  ];
  const last = at + count - 1;
  const start = file.starts[at];
  const end = sent.endsWithNewline ? file.nextStarts[last] : file.starts[last] + file.lines[last].length;
  const body = lines.join(file.eol) + (replacement.endsWithNewline ? file.eol : '');
  return text.slice(0, start) + body + text.slice(end);
}

/** A changed line with the file's quotes and dashes where it repeats the old line; indentation aside. */
function withFilePunctuation(line: string, sentLine: string | undefined, fileLine: string | undefined): string {
  if (sentLine === undefined || fileLine === undefined) return line;
  const indent = leadingWhitespace(line);
  const content = keepFilePunctuation(
    line.slice(indent.length),
    sentLine.slice(leadingWhitespace(sentLine).length),
    fileLine.slice(leadingWhitespace(fileLine).length),
  );
  return indent + content;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

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
