/**
 * The spellings a build tool finds its file by when it ignores case: just reads `justfile` in any capitalisation
 * (`Justfile`, `JUSTFILE`), so a listed few would miss the one there (round 14). They are looked up as bare words
 * (namedFiles.ts resolvePending: one map look-up each against the folder's listing, no file opened for a name not there).
 */

/** Every capitalisation of `name`'s letters (2 to the number of letters: callers pass short names, `justfile` is 256). */
export function anyCase(name: string): string[] {
  let spellings = [''];
  for (const char of name) {
    const upper = char.toUpperCase();
    const lower = char.toLowerCase();
    spellings = upper === lower ? spellings.map((start) => start + char) : spellings.flatMap((start) => [start + lower, start + upper]);
  }
  return spellings;
}

/** The files a tool finds in any capitalisation, by the word that runs it. */
export const CASELESS_TOOL_FILES: Readonly<Record<string, readonly string[]>> = {
  just: [...anyCase('justfile'), ...anyCase('.justfile')],
};
