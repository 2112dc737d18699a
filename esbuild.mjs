// Bundles the extension into one CommonJS file; 'vscode' is provided by the host.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  sourcemap: production ? false : 'linked',
  minify: production,
  metafile: false,
  logLevel: 'warning',
});
