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
