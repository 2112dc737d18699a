/**
 * Typographic punctuation a model writes in place of the file's plain one, or
 * the other way round: curly quotes, dashes, non-breaking and other odd spaces,
 * the ellipsis. Compared in a plain form; the file's own characters are kept
 * wherever the edit does not change a line.
 */
const plainForms = new Map<string, string>([
  ['\u2018', "'"],
  ['\u2019', "'"],
  ['\u201A', "'"],
  ['\u201B', "'"],
  ['\u2032', "'"],
  ['\u201C', '"'],
  ['\u201D', '"'],
  ['\u201E', '"'],
  ['\u201F', '"'],
  ['\u2033', '"'],
  ['\u00AB', '"'],
  ['\u00BB', '"'],
  ['\u2010', '-'],
  ['\u2011', '-'],
  ['\u2012', '-'],
  ['\u2013', '-'],
  ['\u2014', '-'],
  ['\u2015', '-'],
  ['\u2212', '-'],
  ['\u2026', '...'],
  ['\u00A0', ' '],
  ['\u2002', ' '],
  ['\u2003', ' '],
  ['\u2007', ' '],
  ['\u2009', ' '],
  ['\u200A', ' '],
  ['\u202F', ' '],
  ['\u3000', ' '],
]);

/** One pass over the characters; a class of single characters cannot backtrack. */
const typographic =
  /[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\u2010-\u2015\u2212\u2026\u00A0\u2002\u2003\u2007\u2009\u200A\u202F\u3000]/g;

/** The line with its typographic punctuation in plain ASCII form. */
export function plainPunctuation(line: string): string {
  return line.replace(typographic, (char) => plainForms.get(char) ?? char);
}

/** Whether the text has any character plainPunctuation would change. */
export function hasTypographic(text: string): boolean {
  typographic.lastIndex = 0;
  const found = typographic.test(text);
  typographic.lastIndex = 0;
  return found;
}

/**
 * A line new_text changes, with the file's own punctuation kept where the new
 * line repeats the old one (its start and its end): only what the model changed
 * is written as the model wrote it. `sent` is the old line as the model sent it,
 * `file` the line it matched; the indentation is left to the caller. Unchanged
 * when the two do not line up character for character.
 */
export function keepFilePunctuation(newLine: string, sent: string, file: string): string {
  let same = 0;
  while (same < newLine.length && same < sent.length && newLine[same] === sent[same]) same++;
  let sameAtEnd = 0;
  while (sameAtEnd < newLine.length - same && sameAtEnd < sent.length - same && newLine[newLine.length - 1 - sameAtEnd] === sent[sent.length - 1 - sameAtEnd])
    sameAtEnd++;
  const fileStart = filePosition(sent, file, same);
  const fileEnd = filePosition(sent, file, sent.length - sameAtEnd);
  if (fileStart === undefined || fileEnd === undefined || fileEnd < fileStart) return newLine;
  const kept = file.slice(0, fileStart) + newLine.slice(same, newLine.length - sameAtEnd) + file.slice(fileEnd);
  // Kept parts that end inside a quoted word (an opening quote kept, its closing one in what changed) would write
  // half of the file's quotes (`“added": true,`): a line whose quotes the kept parts would mix stays as the model wrote it.
  return mixesQuotes(kept) && !mixesQuotes(file) ? newLine : kept;
}

/** Whether a line has both the curly and the straight form of double quotes, or of single quotes (apostrophes aside). */
function mixesQuotes(line: string): boolean {
  const doubles = /[\u201C\u201D]/.test(line) && line.includes('"');
  const singles = /\u2018|\u2019(?![A-Za-z])/.test(line) && /(^|[^A-Za-z])'|'(?![A-Za-z])/.test(line);
  return doubles || singles;
}

/** The position in `file` that `position` in `sent` stands for, the two read in plain form; undefined if none does. */
function filePosition(sent: string, file: string, position: number): number | undefined {
  let plainOffset = 0;
  for (let i = 0; i < position; i++) plainOffset += plainPunctuation(sent[i]).length;
  let fileOffset = 0;
  for (let j = 0; j <= file.length; j++) {
    if (fileOffset === plainOffset) return plainPunctuation(file.slice(0, j)) === plainPunctuation(sent.slice(0, position)) ? j : undefined;
    if (fileOffset > plainOffset || j === file.length) return undefined;
    fileOffset += plainPunctuation(file[j]).length;
  }
  return undefined;
}
