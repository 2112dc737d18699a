// Bundles the extension into one CommonJS file; 'vscode' is provided by the host.
// re2js (about 150 KB minified, the largest dependency) goes into a second file beside it,
// dist/re2js.js, which src/tools/common/re2.ts requires at the first pattern that needs it:
// the extension host then neither reads nor compiles it while the extension activates.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const metafile = process.argv.includes('--metafile');

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

/** `require('re2js')` in the bundle becomes `require('./re2js.js')`, the file built below. */
const re2jsBeside = {
  name: 're2js-beside',
  setup(build) {
    build.onResolve({ filter: /^re2js$/ }, () => ({ path: './re2js.js', external: true }));
  },
};

const [extension] = await Promise.all([
  esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [re2jsBeside], metafile }),
  esbuild.build({ ...common, entryPoints: ['re2js'], outfile: 'dist/re2js.js' }),
]);
// `node esbuild.mjs --production --metafile`: what the bundle is made of, largest first.
if (metafile) console.log(await esbuild.analyzeMetafile(extension.metafile, { verbose: false }));
