/**
 * A YAML or TOML text as its program's parser reads its double-quoted strings: with their escapes decoded (`\u002f`,
 * `\U0000002f`, YAML's `\x2f`, `\/`, `\\`, and an escaped line break, which joins the lines with the next one's
 * leading blanks dropped: YAML's `"sh tools/li\⏎  nt"` and TOML's line-ending backslash). The review reads those formats as lines rather than parse them (no parser
 * is in the product), so a path spelled with an escape named nothing to it (round 14: lefthook's `"tools\u002fcheck.js"`
 * is tools/check.js to lefthook). Bounded by the text (one pass, one regular expression, no backtracking).
 */
// TOML trims a line-ending backslash with blanks after it too (round 16); in YAML `\ ` is an escaped space, and reading
// it as a line join only adds names (the decoded text is read beside the original), never hides one.
const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})|([/\\"])|[ \t]*\r?\n[ \t\r\n]*)/g;

/** `text` with the format's escapes decoded; the caller reads it beside the text as it is (a single-quoted `\x` stays). */
export function withEscapesDecoded(text: string): string {
  return text.replace(ESCAPE, (whole, u4?: string, u8?: string, x2?: string, plain?: string) => {
    if (plain !== undefined) return plain;
    if (u4 === undefined && u8 === undefined && x2 === undefined) return '';
    const code = Number.parseInt(u4 ?? u8 ?? x2 ?? '', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
