/**
 * The Edit Selection controller, loaded at the first use of its commands: most windows never edit a
 * selection, so neither its code nor its listeners and code-lens providers are set up at activation.
 * In the production build this require is rewritten to `./inline-edit.js`, the file esbuild.mjs
 * builds beside the bundle; in the tests it is the module itself. What crosses (the endpoints, the
 * proposals, the error presenter, the settings) is the bundle's own objects, used through their
 * methods only (nothing there is an instanceof check of a bundle class).
 */
import type * as Controller from './inlineEditController';

export type InlineEditControllerClass = typeof Controller.InlineEditController;

let loaded: InlineEditControllerClass | undefined;

export function inlineEditController(): InlineEditControllerClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  loaded ??= (require('./inlineEditController') as typeof Controller).InlineEditController;
  return loaded;
}
