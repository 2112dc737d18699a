/**
 * Text that reached the tool in a form the model copied rather than meant:
 * line numbers from an excerpt (read_file's `12: `, `12\t`, `  12 | `, `12→`) and
 * newlines sent as the two characters `\n` (JSON escaped twice).
 */

/** A line number and its separator at the start of a line; bounded quantifiers, anchored, so it cannot backtrack far. */
const numberPrefix = /^ {0,12}(\d{1,9})(?:: ?|\t| ?\| ?|→)/;

/**
 * The text without its line-number prefixes when every line has one and the
 * numbers count up by one (an excerpt, not code that starts lines with digits);
 * undefined otherwise.
 */
export function withoutLineNumbers(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === '';
  const numbered = endsWithNewline ? lines.slice(0, -1) : lines;
  const stripped: string[] = [];
  let expected: number | undefined;
  for (const line of numbered) {
    const prefix = numberPrefix.exec(line);
    if (!prefix) return undefined;
    const number = Number(prefix[1]);
    if (expected !== undefined && number !== expected) return undefined;
    expected = number + 1;
    stripped.push(line.slice(prefix[0].length));
  }
  return stripped.join('\n') + (endsWithNewline ? '\n' : '');
}

/**
 * The text with JSON's escapes undone once (`\n`, `\t`, `\r`, `\"`, `\\`), when it
 * has no real newline but has an escaped one; undefined otherwise. Undoing `\\`
 * too keeps an escape that belongs to the code (`"a\\n"` becomes `"a\n"`).
 */
export function withEscapedNewlines(text: string): string | undefined {
  if (text.includes('\n') || !text.includes('\\n')) return undefined;
  return unescapeJson(text);
}

/** JSON's string escapes undone once; a backslash before anything else is kept. */
export function unescapeJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char !== '\\' || i + 1 === text.length) {
      out += char;
      continue;
    }
    const next = text[i + 1];
    const decoded = next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next === '"' || next === '\\' ? next : undefined;
    if (decoded === undefined) {
      out += char;
      continue;
    }
    out += decoded;
    i++;
  }
  return out;
}
