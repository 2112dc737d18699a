/**
 * The change review's node parts, built into a file of their own (`change-review.js`, see esbuild.mjs) and
 * loaded at the first sandboxed command: activation, and every session that never runs one under `auto`,
 * neither reads nor compiles them.
 */
export { NodeControlGuard } from './controlGuard';
export { BubblewrapSandbox } from './bubblewrap';
export { ProtectedPathCache } from './protectedPathCache';
export { followPrograms, mentionedBy, noneMentioned } from './hookPrograms';
export { heldInFolder } from './folderChangeReview';
