/**
 * The readers of a project's agent files (hooks, skills, custom agents, prompt files) and the hooks'
 * runner: the entry of dist/project-files.js, a second file beside the bundle (esbuild.mjs) that
 * `projectFileReaders()` loads at the first agent run or `/` command that needs one. The extension
 * host then neither reads nor compiles them while the extension activates, and a window that never
 * runs the agent never does. Only what the loader hands out is exported here; the rest of the bundle
 * imports these modules' types alone (a value import would put them back in the bundle).
 */
export { hookApprovalsThrough, SessionHooks } from './hooks';
export { HomeSkills } from './homeSkills';
export { newSkillListing } from './skills';
export { findWorkspaceAgentFiles } from './workspaceAgentFiles';
