/** The agent's tools: what the session engine uses. */
export type { AgentTool, FilePreview, PreparedCall, ToolContext, ToolKind, ToolOutcome } from './tool';
export { defaultProtectedFiles } from './tool';
export { allTools, findTool, readOnlyTools, toolDefinitions, toolsFor, unknownToolOutput } from './registry';
export { findDeniedCommand } from './commandPolicy';
export { normalizeWorkspacePath, protectingPattern, resolveWorkspacePath } from './pathPolicy';
export { compileGlob, matchesGlob } from './glob';
export { omittedNote } from './textLimits';
export { planChecklist, type PlanStep } from './updatePlan';
