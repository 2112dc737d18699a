/**
 * The custom agents and prompt files a new session may run as (issue 38): found in the folder a new session would
 * work in and in the user's profile, and mapped to a session's record (its tools matched against the built-in
 * tools and VS Code's).
 */
import * as vscode from 'vscode';
import type { Logger } from '../../base/common';
import { customizationParts, type CustomAgent, type WorkspaceAgentFiles } from '../../customization/common';
import { rootForNewSession, type SessionAgent } from '../../sessionModel/common';
import type { AgentSettings } from '../../settings/common';
import { toolsFor } from '../../tools/common';
import { grantableHostTools, VsCodeWorkspaceFiles } from '../../tools/vscode';
import type { ToolCatalog } from '../common/engine/agentTools';
import { sessionAgentOf } from '../common/engine/sessionAgent';
import type { LocalMachine } from '../common/sessions/localMachine';
import { openFolders } from './windowFolders';

export interface CustomAgentFilesParts {
  machine: LocalMachine;
  settings: () => AgentSettings;
  logger: Logger;
  /** VS Code's profile folder on this machine (`…/User`): its `prompts` are the user's own prompt files. */
  profileFolder?: string;
  /** Where the tools the user enabled for the agent are remembered (the workspace's state). */
  workspaceState?: vscode.Memento;
}

export class CustomAgentFiles {
  constructor(private readonly parts: CustomAgentFilesParts) {}

  /** The custom agents and prompt files of the folder a new session would work in (none without a folder), then the user's prompt files. */
  find(signal: AbortSignal): Promise<WorkspaceAgentFiles> {
    const decision = rootForNewSession(openFolders());
    const { machine, settings, logger, profileFolder } = this.parts;
    const root = decision.ok ? vscode.Uri.parse(decision.uri) : undefined;
    const files = root && new VsCodeWorkspaceFiles(machine.files(root.fsPath), root);
    const userFiles = profileFolder !== undefined ? machine.files(profileFolder) : undefined;
    return customizationParts().findWorkspaceAgentFiles(
      { ...(files ? { files } : {}), ...(userFiles ? { userFiles } : {}), protectedFiles: settings().protectedFiles, settings: settings(), logger },
      signal,
    );
  }

  /** The session's record of a custom agent: its tool names mapped to the built-in tools and VS Code's. */
  asSession(agent: CustomAgent): SessionAgent {
    return sessionAgentOf(agent, this.toolCatalog());
  }

  /** What a custom agent's or prompt file's tool names are matched against: the built-in tools and VS Code's (enabled or not). */
  toolCatalog(): ToolCatalog {
    return { builtIns: toolsFor(true).map((tool) => tool.name), host: grantableHostTools(this.parts.workspaceState) };
  }
}
