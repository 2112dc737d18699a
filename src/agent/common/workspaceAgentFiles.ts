/**
 * The custom agents and prompt files of the folder a new session works in,
 * each kind only when enabled (workspaceKinds.ts), each file left out noted
 * once in the log. Looked up when the user asks (a `/agent @name`, a pick),
 * never on activation: the folders are read only when they are used.
 */
import type { Logger, WorkspaceFiles } from '../../base/common';
import { findCustomAgents, type CustomAgent } from './customAgents';
import { findPromptFiles, type PromptFile } from './promptFiles';
import { enabledKinds } from './workspaceKinds';

export interface WorkspaceAgentFiles {
  agents: CustomAgent[];
  prompts: PromptFile[];
}

export async function findWorkspaceAgentFiles(
  input: { files: WorkspaceFiles; protectedFiles: readonly string[]; settings: { projectInstructions: boolean }; logger: Logger },
  signal: AbortSignal,
): Promise<WorkspaceAgentFiles> {
  const kinds = enabledKinds(input.settings);
  const agents = kinds.customAgents ? await findCustomAgents(input, signal) : { items: [], notes: [] };
  const prompts = kinds.promptFiles ? await findPromptFiles(input, signal) : { items: [], notes: [] };
  for (const note of agents.notes) input.logger.warn(`Custom agent ${note}.`);
  for (const note of prompts.notes) input.logger.warn(`Prompt file ${note}.`);
  return { agents: agents.items, prompts: prompts.items };
}
