/**
 * A hook's text as the shell reads its paths: a backslash removed (`scripts/che\ck.sh` is scripts/check.sh, a line continued) and bash's
 * `$'…'` decoded (`$'tools\x2flint.sh'` is tools/lint.sh). The review takes paths from the raw text, so a path spelled
 * with an escape named nothing to it (round 14); mentionedBy reads this spelling beside the raw one. One pass each.
 */
import { withEscapesDecoded } from './formatEscapes';

/** `text` with its ANSI-C strings decoded and its backslashes removed; `text` itself when it has no backslash. */
export function shellUnescaped(text: string): string {
  if (!text.includes('\\')) return text;
  const decoded = text.replace(/\$'((?:[^'\\]|\\.)*)'/g, (_whole, inner: string) =>
    withEscapesDecoded(inner).replace(/\\([0-7]{1,3})/g, (_octal, digits: string) => String.fromCharCode(Number.parseInt(digits, 8) & 0xff)),
  );
  // `\⏎` continues the line (`sh tools/li\⏎nt` is `sh tools/lint`); before any other character a backslash is dropped.
  return decoded.replace(/\\\n/g, '').replace(/\\(.)/g, '$1');
}
