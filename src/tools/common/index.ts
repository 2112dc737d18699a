/** The tools feature's common layer as other features see it: import from here, not from its files. */
export { BackgroundCommands, type BackgroundReport } from './backgroundCommands';
export { reportingNewProblems } from './newProblems';
export { normalizeWorkspacePath, resolveWorkspacePath } from './pathPolicy';
export { findTool, subagentTools, toolDefinitions, toolsFor, unknownToolOutput } from './registry';
export { runSubagentTool } from './runSubagent';
export { type SubagentAnswer, type SubagentRun, type Subagents } from './runSubagent';
export {
  type FileMatchCount,
  type FileMatches,
  type FileQuery,
  type SearchBatch,
  SearchPatternError,
  type TextMatch,
  type TextQuery,
  type WorkspaceSearch,
} from './searchPorts';
export { mcpToolParts, mcpToolServers, mcpToolsOfServer, modelToolName } from './mcpNames';
export { type AgentTool, type PreparedCall, type ToolContext, type ToolKind, type ToolOutcome } from './tool';
export { MAX_PLAN_STEPS, MAX_STEP_CHARS, parsePlan, planChecklist, type PlanStep } from './updatePlan';
