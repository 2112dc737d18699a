/** The agent's tools, and their definitions as the API wants them. */
import type { ToolDefinition } from '../../gateway/common';
import type { AgentTool } from './tool';
import { readFileTool } from './readFile';
import { listFilesTool } from './listFiles';
import { searchTextTool } from './searchText';
import { editFileTool } from './editFile';
import { writeFileTool } from './writeFile';
import { runCommandTool } from './runCommand';
import { commandOutputTool } from './commandOutput';
import { updatePlanTool } from './updatePlan';
import { getProblemsTool } from './getProblems';
import { codeNavigationTool } from './codeNavigationTool';
import { runSubagentTool } from './runSubagent';

/** Every tool, for a trusted workspace. */
export const allTools: readonly AgentTool[] = [
  readFileTool,
  listFilesTool,
  searchTextTool,
  editFileTool,
  writeFileTool,
  runCommandTool,
  commandOutputTool,
  updatePlanTool,
  // Through the editor's language services (ToolContext.languages): they read, like read_file.
  getProblemsTool,
  codeNavigationTool,
];

/** The tools that change nothing: all an untrusted workspace (Workspace Trust) is offered. */
export const readOnlyTools: readonly AgentTool[] = allTools.filter((tool) => tool.kind === 'read');

/**
 * A subagent's tools: the read-only ones without update_plan (its plan would show nowhere) and
 * without run_subagent, which is in no list (depth 1): only an engine with subagents adds it.
 */
export const subagentTools: readonly AgentTool[] = readOnlyTools.filter((tool) => tool.name !== 'update_plan');

/** run_subagent, offered only when `gateway.agent.subagents` is on: its definition is paid for on every request. */
export { runSubagentTool };

/** The tools for a workspace, by its trust. */
export function toolsFor(trusted: boolean): readonly AgentTool[] {
  return trusted ? allTools : readOnlyTools;
}

/** The tool the model called, among those offered; undefined for a name it made up. */
export function findTool(tools: readonly AgentTool[], name: string): AgentTool | undefined {
  return tools.find((tool) => tool.name === name);
}

/** The `tools` of a request. */
export function toolDefinitions(tools: readonly AgentTool[]): ToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

/** What the model reads when it calls a tool that is not offered (made up, or a write in an untrusted workspace). */
export function unknownToolOutput(tools: readonly AgentTool[], name: string): string {
  return `There is no tool named "${name}" in this session. The tools are: ${tools.map((tool) => tool.name).join(', ')}.`;
}
