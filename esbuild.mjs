// Bundles the extension into one CommonJS file; 'vscode' is provided by the host.
// What activation and most sessions never need goes into files of its own beside it (lazyParts below),
// each required at its first use by a small typed loader, so the extension host neither reads nor
// compiles them while the extension activates: re2js (about 150 KB, src/base/common/re2.ts), picomatch (src/base/common/glob.ts), `ignore`, the agent's
// transcripts (src/agent/common/sessions/agentExtras.ts), the customisation files' readers and hooks (src/customization/common/customizationParts.ts), the
// hooks' runner, Edit Selection's controller, the Show Usage page and the review of a sandboxed command's changes. Each loader's require() of the
// module becomes a require of the file beside the bundle; in the tests it is the module itself.
// `node esbuild.mjs --production --size` checks the main bundle against its ceiling and prints the others;
// `--metafile` lists what the main bundle is made of.
import * as esbuild from 'esbuild';
import { readFileSync, statSync } from 'node:fs';

const production = process.argv.includes('--production');
const metafile = process.argv.includes('--metafile');
/** `--outdir <folder>`: elsewhere than dist/ (the bundle test builds into a temporary folder). */
const outdir = process.argv.includes('--outdir') ? process.argv[process.argv.indexOf('--outdir') + 1] : 'dist';

/** The main bundle's ceiling (README): the lazy files are not read at activation, so they do not count. */
const MAIN_BUNDLE_MAX_BYTES = 500 * 1024;

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

/** A lazy part: the specifier its loader requires, the entry and the file it is built to. */
const lazyParts = [
  { specifier: 're2js', entry: 're2js', file: 're2js.js' },
  { specifier: 'ignore', entry: 'ignore', file: 'ignore.js' },
  { specifier: 'picomatch', entry: 'picomatch', file: 'picomatch.js' },
  { specifier: './agentExtras', entry: 'src/agent/common/sessions/agentExtras.ts', file: 'agent-extras.js' },
  { specifier: './customizationParts', entry: 'src/customization/common/customizationParts.ts', file: 'customization.js' },
  { specifier: './hookProcess', entry: 'src/customization/node/hookProcess.ts', file: 'hook-process.js' },
  { specifier: './inlineEditController', entry: 'src/inlineEdit/vscode/inlineEditController.ts', file: 'inline-edit.js' },
  { specifier: '../common/usageHtml', entry: 'src/usage/common/usageHtml.ts', file: 'usage-page.js' },
  { specifier: './changeReviewParts', entry: 'src/terminal/node/changeReviewParts.ts', file: 'change-review.js' },
  { specifier: './otlpMetrics', entry: 'src/telemetry/node/otlpMetrics.ts', file: 'telemetry.js' },
  { specifier: './gitWorktrees', entry: 'src/agent/node/gitWorktrees.ts', file: 'git-worktrees.js' },
  { specifier: './worktreeCommands', entry: 'src/agent/vscode/worktreeCommands.ts', file: 'worktree-commands.js' },
  { specifier: './checkpointCommands', entry: 'src/agent/vscode/checkpointCommands.ts', file: 'checkpoint-commands.js' },
];

/** The loader's `require(specifier)` in the bundle becomes `require('./<file>')`: the file built beside it. */
const lazyBeside = {
  name: 'lazy-beside',
  setup(build) {
    for (const part of lazyParts) {
      const filter = new RegExp(`^${part.specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      // A require() only (the loaders'): a static import of the module keeps it in the bundle, as it should.
      build.onResolve({ filter }, (args) => (args.kind === 'require-call' ? { path: `./${part.file}`, external: true } : undefined));
    }
  },
};

/**
 * In a lazy part, a module of ours none of whose exports it uses is left out whole: the features'
 * index files re-export modules that compute things at load (the tools' JSON schemas), which esbuild
 * would otherwise keep for their possible side effects. (Ours have none a lazy part relies on.)
 */
const unusedLeftOut = {
  name: 'unused-left-out',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const { path, errors, external } = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      return errors.length > 0 || external ? undefined : { path, sideEffects: false };
    });
  },
};

const [extension] = await Promise.all([
  esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: `${outdir}/extension.js`, external: ['vscode'], plugins: [lazyBeside], metafile }),
  ...lazyParts.map((part) =>
    esbuild.build({ ...common, entryPoints: [part.entry], outfile: `${outdir}/${part.file}`, external: ['vscode'], plugins: [lazyBeside, unusedLeftOut] }),
  ),
]);
// `node esbuild.mjs --production --metafile`: what the bundle is made of, largest first.
if (metafile) console.log(await esbuild.analyzeMetafile(extension.metafile, { verbose: false }));
if (process.argv.includes('--size')) checkSize();

/** The main bundle against its ceiling, the lazy parts' sizes, and each part shipped (.vscodeignore lets it into the .vsix). */
function checkSize() {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const main = statSync(`${outdir}/extension.js`).size;
  console.log(`dist/extension.js ${kb(main)} (ceiling ${kb(MAIN_BUNDLE_MAX_BYTES)})`);
  for (const part of lazyParts) console.log(`dist/${part.file} ${kb(statSync(`${outdir}/${part.file}`).size)} (loaded at first use)`);
  if (main > MAIN_BUNDLE_MAX_BYTES) {
    console.error('dist/extension.js is over its ceiling: load what activation does not need lazily (see the top of esbuild.mjs).');
    process.exitCode = 1;
  }
  const shipped = readFileSync('.vscodeignore', 'utf8').split('\n');
  for (const part of lazyParts.filter((p) => !shipped.includes(`!dist/${p.file}`))) {
    console.error(`dist/${part.file} is not in the .vsix: add "!dist/${part.file}" to .vscodeignore.`);
    process.exitCode = 1;
  }
}
