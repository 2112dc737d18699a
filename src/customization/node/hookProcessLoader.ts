/**
 * The hooks' runner, loaded at the first run that looks for hooks: in the production build this require is
 * rewritten to `./hook-process.js`, the file esbuild.mjs builds beside the bundle (Node caches it).
 */
import type * as HookProcess from './hookProcess';

export function hookProcess(): typeof HookProcess {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('./hookProcess') as typeof HookProcess;
}
