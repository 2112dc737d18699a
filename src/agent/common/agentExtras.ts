/**
 * What the agent needs only in some runs: the readers of a project's agent files (hooks, skills, custom
 * agents, prompt files), the hooks' runner and the
 * transcript's markdown. The entry of dist/agent-extras.js, a second file beside the bundle (esbuild.mjs)
 * that `agentExtras()` loads at the first run, `/` command or transcript that needs one: the extension
 * host neither reads nor compiles them while the extension activates. Only what the loader hands out is
 * exported here; the rest of the bundle imports these modules' types alone (a value import would put them
 * back in the bundle).
 */
export { hookApprovalsThrough, SessionHooks } from './hooks';
export { HomeSkills } from './homeSkills';
export { newSkillListing } from './skills';
export { renderTranscript } from './transcriptMarkdown';
export { findWorkspaceAgentFiles } from './workspaceAgentFiles';
