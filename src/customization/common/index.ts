/** The customization feature's common layer as other features see it: import from here, not from its files. */
export { type HookFiles } from './hookContent';
export { type SessionHooks, type HookHost, type RunHooks } from './hooks';
export { countHookDecisions, forgetHookDecisions, HOOKS_APPROVAL_TOOL } from './hookDecisions';
export { InstructionTracker, instructionsForChat } from './projectInstructions';
export { type HomeSkills } from './homeSkills';
export { agentMention, agentNamed, mentionOf, type CustomAgent } from './customAgents';
export { expandPrompt, parsePromptCall, profileFolderOf, promptInputs, promptKind, type PromptFile } from './promptFiles';
export { customizationParts } from './customizationPartsLoader';
export { AGENT_INSTRUCTIONS } from './instructions';
export { type WorkspaceAgentFiles } from './workspaceAgentFiles';
