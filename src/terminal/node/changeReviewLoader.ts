/** Loads the change review's parts (changeReviewParts.ts) at their first use: in the production build, the file beside the bundle. */
import type * as ChangeReviewParts from './changeReviewParts';

export function changeReviewParts(): typeof ChangeReviewParts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('./changeReviewParts') as typeof ChangeReviewParts;
}
