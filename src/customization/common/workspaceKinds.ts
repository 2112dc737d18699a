/**
 * Which kinds of the workspace's agent files are read. One function per
 * kind's check, so that a setting per kind (issue 26 allows one) changes only
 * this file: today `gateway.agent.projectInstructions` turns them all on or off.
 */
export interface AgentFileKinds {
  promptFiles: boolean;
  customAgents: boolean;
}

export function enabledKinds(settings: { projectInstructions: boolean }): AgentFileKinds {
  return { promptFiles: settings.projectInstructions, customAgents: settings.projectInstructions };
}
