/**
 * The custom agents and prompt files of the folder a new session works in,
 * each kind only when enabled (workspaceKinds.ts), each file left out noted
 * once in the log. Looked up when the user asks (a `/agent @name`, a pick),
 * never on activation: the folders are read only when they are used.
 */
import type { Logger, WorkspaceFiles } from '../../base/common';
import { findCustomAgents, type CustomAgent } from './customAgents';
import { findPromptFiles, findUserPromptFiles, type PromptFile } from './promptFiles';
import { enabledKinds } from './workspaceKinds';
import { groupedNotes, logOnce } from './logOnce';

export interface WorkspaceAgentFiles {
  agents: CustomAgent[];
  prompts: PromptFile[];
}

/**
 * `files`: the workspace folder's (none without a folder); `userFiles`: VS Code's profile folder, whose
 * `prompts` are listed after the workspace's, a name the workspace has left out with a note.
 */
export async function findWorkspaceAgentFiles(
  input: {
    files?: WorkspaceFiles;
    userFiles?: WorkspaceFiles;
    protectedFiles: readonly string[];
    settings: { projectInstructions: boolean };
    logger: Logger;
  },
  signal: AbortSignal,
): Promise<WorkspaceAgentFiles> {
  const { files, userFiles, protectedFiles, logger } = input;
  const none = { items: [], notes: [] };
  const kinds = enabledKinds(input.settings);
  const agents = kinds.customAgents && files ? await findCustomAgents({ files, protectedFiles }, signal) : none;
  const prompts = kinds.promptFiles && files ? await findPromptFiles({ files, protectedFiles }, signal) : none;
  const user = kinds.promptFiles && userFiles ? await findUserPromptFiles({ files: userFiles, protectedFiles }, signal) : none;
  const userPrompts = user.items.filter((prompt) => {
    const taken = prompts.items.some((other) => other.name === prompt.name);
    if (taken) user.notes.push(`${prompt.path}: skipped, the workspace has a prompt file named "${prompt.name}"`);
    return !taken;
  });
  logOnce(logger, [
    ...groupedNotes({ one: 'Custom agent', many: 'Custom agents' }, agents.notes),
    ...groupedNotes({ one: 'Prompt file', many: 'Prompt files' }, [...prompts.notes, ...user.notes]),
  ]);
  return { agents: agents.items, prompts: [...prompts.items, ...userPrompts] };
}
