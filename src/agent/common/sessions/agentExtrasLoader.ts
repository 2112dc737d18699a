/**
 * Loads agentExtras.ts at its first use. In the production build this require is rewritten to
 * `./agent-extras.js`, the file esbuild.mjs builds beside the bundle (as re2js is); in the tests and the
 * bench it is the module itself. The modules there share no class or state with the bundle that one side
 * checks of the other (no instanceof across): plain data, functions and objects used through their
 * methods cross, so their own copies of the helpers they use are harmless.
 */
import type * as Extras from './agentExtras';

export type AgentExtras = typeof Extras;

let loaded: AgentExtras | undefined;

export function agentExtras(): AgentExtras {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load them with the extension
  loaded ??= require('./agentExtras') as AgentExtras;
  return loaded;
}
