/**
 * re2js, loaded at the first pattern that needs it rather than with the extension: it is the
 * largest dependency (about 150 KB minified, its Unicode tables), and many sessions never run a
 * regular expression or a many-star glob. The production build keeps it in a second file beside
 * the bundle (dist/re2js.js, see esbuild.mjs), which this require reads on first use.
 */
import type { RE2JS } from 're2js';

let engine: typeof RE2JS | undefined;

export function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  engine ??= (require('re2js') as typeof import('re2js')).RE2JS;
  return engine;
}
