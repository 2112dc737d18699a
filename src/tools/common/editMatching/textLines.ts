/** A file's text as lines, with where each starts and ends, so a match of whole lines maps back to characters. */

export interface TextLines {
  /** Each line without its line end (neither \n nor \r\n). */
  lines: string[];
  /** Offset of each line's first character. */
  starts: number[];
  /** Offset just past each line's line end (the text's length for a last line without one). */
  nextStarts: number[];
  /** The line end new lines get: the file's first one, \n for a file of one line. */
  eol: '\n' | '\r\n';
}

export function splitLines(text: string): TextLines {
  const lines: string[] = [];
  const starts: number[] = [];
  const nextStarts: number[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    lines.push(text.slice(start, contentEnd));
    starts.push(start);
    nextStarts.push(newline < 0 ? text.length : newline + 1);
    if (newline < 0) break;
    start = newline + 1;
  }
  const firstNewline = text.indexOf('\n');
  const eol = firstNewline > 0 && text.charCodeAt(firstNewline - 1) === 13 ? '\r\n' : '\n';
  return { lines, starts, nextStarts, eol };
}

/** A piece of text the model sent, as lines; a final line end means the piece covers whole lines up to and including it. */
export interface PieceLines {
  lines: string[];
  endsWithNewline: boolean;
}

export function pieceLines(text: string): PieceLines {
  const normalized = text.replace(/\r\n?/g, '\n');
  const endsWithNewline = normalized.endsWith('\n');
  const lines = (endsWithNewline ? normalized.slice(0, -1) : normalized).split('\n');
  return { lines, endsWithNewline };
}

/**
 * Where `wanted` occurs as consecutive items of `items`: the start index of each
 * occurrence, at most `limit` of them. Knuth-Morris-Pratt, so the work is linear in
 * both lengths whatever they hold (a naive scan of 4,000 wanted lines against a
 * 400,000-line file of near-repeats takes seconds).
 */
export function findSequence(items: readonly string[], wanted: readonly string[], limit: number): number[] {
  const found: number[] = [];
  if (wanted.length === 0 || wanted.length > items.length) return found;
  const fallback = failureTable(wanted);
  let matched = 0;
  for (let i = 0; i < items.length && found.length < limit; i++) {
    while (matched > 0 && wanted[matched] !== items[i]) matched = fallback[matched - 1];
    if (wanted[matched] === items[i]) matched++;
    if (matched === wanted.length) {
      found.push(i - wanted.length + 1);
      matched = fallback[matched - 1];
    }
  }
  return found;
}

/** For each prefix of `items`, the length of its longest proper prefix that is also its suffix. */
function failureTable(items: readonly string[]): number[] {
  const table = new Array<number>(items.length).fill(0);
  let length = 0;
  for (let i = 1; i < items.length; i++) {
    while (length > 0 && items[i] !== items[length]) length = table[length - 1];
    if (items[i] === items[length]) length++;
    table[i] = length;
  }
  return table;
}

/** The leading spaces and tabs of a line. A loop, not a regex, so a line of a million spaces costs one pass. */
export function leadingWhitespace(line: string): string {
  let end = 0;
  while (end < line.length && (line.charCodeAt(end) === 32 || line.charCodeAt(end) === 9)) end++;
  return line.slice(0, end);
}
