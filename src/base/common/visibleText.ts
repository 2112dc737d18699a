/** Text shown to the user as it is: characters that display as nothing or reorder a line spelled out. */
/** Control and format characters (bidi controls, zero-width spaces, soft hyphens…) hide or reorder text when displayed; newline and tab are shown as they are. */
const INVISIBLE = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;

/** `text` with every invisible or reordering character written as ⟨U+XXXX⟩. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (char) => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
