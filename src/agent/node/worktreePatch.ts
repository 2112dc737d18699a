/** The patch Apply to Workspace carries a worktree's changes in, and the check that it writes what was judged (round 20b). */

/**
 * `git diff` of the worktree as a patch whatever the user's or the repository's diff settings say: `a/` and `b/`
 * prefixes (`diff.noprefix` would make `git apply` strip a real folder and write the file elsewhere than the review
 * judged), no external diff or text conversion, no colour, paths from the top.
 */
export const PLAIN_PATCH = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  'diff',
  '--cached',
  '--binary',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

export const PATCH_MISMATCH =
  "The session's changes were not applied: the patch Git made of them would write other paths than the ones checked. Nothing was written; the worktree keeps its changes.";

/** The paths a patch writes, from `git apply --numstat -z` (NUL-separated: no quoting). */
export function numstatPaths(listing: string): string[] {
  // Each record: added TAB deleted TAB path NUL (no renames: `--no-renames` made the patch).
  return listing
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => record.split('\t').slice(2).join('\t'));
}

/** Whether the patch writes exactly the judged paths. */
export function samePaths(written: readonly string[], judged: readonly string[]): boolean {
  const expected = new Set(judged);
  return written.length === expected.size && written.every((path) => expected.has(path));
}
