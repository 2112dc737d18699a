/**
 * Loads the project-file readers (projectFileReaders.ts) at their first use. In the production build
 * this require is rewritten to `./project-files.js`, the file esbuild.mjs builds beside the bundle (as
 * re2js is); in the tests and the bench it is the module itself. The modules there share no class or
 * state with the bundle that one side checks of the other (no instanceof across): plain data and
 * functions cross, so their own copies of the helpers they use are harmless.
 */
import type * as Readers from './projectFileReaders';

export type ProjectFileReaders = typeof Readers;

let loaded: ProjectFileReaders | undefined;

export function projectFileReaders(): ProjectFileReaders {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load them with the extension
  loaded ??= require('./projectFileReaders') as ProjectFileReaders;
  return loaded;
}
