/**
 * What the agent needs only in some runs: the readers of a project's customisation files (hooks, skills,
 * custom agents, prompt files) and the hooks' runner. The entry of dist/customization.js, a second file beside
 * the bundle (esbuild.mjs) that `customizationParts()` loads at the first run or `/` command that needs one: the
 * extension host neither reads nor compiles them while the extension activates. Only what the loader hands out
 * is exported here; the rest of the bundle imports these modules' types alone (a value import would put them
 * back in the bundle).
 */
export { hookApprovalsThrough } from './hookApprovals';
export { SessionHooks } from './hooks';
export { HomeSkills } from './homeSkills';
export { newSkillListing } from './skills';
export { findInstructionFiles } from './instructionFiles';
export { logOnce } from './logOnce';
export { findWorkspaceAgentFiles } from './workspaceAgentFiles';
