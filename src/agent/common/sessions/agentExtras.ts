/**
 * What the agent needs only when a transcript is shown: its markdown. The entry of dist/agent-extras.js, a
 * second file beside the bundle (esbuild.mjs) that `agentExtras()` loads at the first transcript: the extension
 * host neither reads nor compiles it while the extension activates. (The customisation files' readers and the
 * hooks' runner are the customization feature's own lazy part.)
 */
export { renderTranscript } from './transcriptMarkdown';
// Plan first: the planning agent, the plan's parser and texts (used once a plan is made).
export { parsePlanText, planAnswerOf, planDocument, planningAgent, planTaskOf, seededPlan, taskWithPlan } from '../engine/planMode';
