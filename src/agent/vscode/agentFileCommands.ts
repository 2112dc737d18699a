/**
 * The palette's side of the workspace's agent files: "Gateway: Run Prompt
 * File…" (a pick, then the prompt runs in `@gateway` as `/prompt <name>`, where
 * its inputs are asked for and its answer or session shows), and the pick of a
 * custom agent when a session starts from the palette.
 */
import * as vscode from 'vscode';
import type { AgentSessions } from './agentSessions';
import type { SessionAgent } from '../../sessionModel/common';
import { mentionOf, promptKind } from '../../customization/common';

export const RUN_PROMPT_FILE_COMMAND = 'gateway.runPromptFile';

/** Opens the chat on `@gateway /prompt <name>` for the prompt file picked (or given by name). */
export async function runPromptFile(sessions: AgentSessions, nameArgument?: unknown): Promise<string | undefined> {
  const controller = new AbortController();
  const { prompts } = await sessions.customAgents.find(controller.signal);
  if (prompts.length === 0) {
    void vscode.window.showInformationMessage(
      'This workspace has no prompt files (.github/prompts/<name>.prompt.md), nor your profile (User/prompts), or gateway.agent.projectInstructions is off.',
    );
    return undefined;
  }
  const name =
    typeof nameArgument === 'string'
      ? nameArgument
      : (
          await vscode.window.showQuickPick(
            prompts.map((prompt) => ({ label: prompt.name, description: promptKind(prompt), detail: prompt.description })),
            { title: 'Gateway: Run Prompt File', placeHolder: 'Which prompt file?' },
          )
        )?.label;
  if (!name) return undefined;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /prompt ${name}` });
  return name;
}

/**
 * Which agent a palette session starts as: the standard one, or one of the
 * workspace's custom agents (asked only when it has some); `cancelled` when
 * the user dismissed the pick.
 */
export async function pickSessionAgent(sessions: AgentSessions): Promise<{ agent?: SessionAgent } | 'cancelled'> {
  const { agents } = await sessions.customAgents.find(new AbortController().signal);
  if (agents.length === 0) return {};
  const standard = { label: 'Gateway Agent', description: 'all tools', detail: 'The standard agent', agentName: undefined as string | undefined };
  const items = [
    standard,
    ...agents.map((agent) => ({ label: mentionOf(agent.name), description: agent.path, detail: agent.description, agentName: agent.name })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Gateway: Start Agent Session', placeHolder: 'Start as which agent?' });
  if (!picked) return 'cancelled';
  const agent = agents.find((candidate) => candidate.name === picked.agentName);
  return agent ? { agent: sessions.customAgents.asSession(agent) } : {};
}
