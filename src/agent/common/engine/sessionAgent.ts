/**
 * What a session started as a custom agent or an agent-mode prompt file keeps
 * of it: its name and file, its instructions, the tools it may use, and the
 * model it asked for. Saved with the session and read only from there, so
 * compaction, Continue and a checkpoint's restore keep the same restriction.
 */

import type { SessionAgent } from '../../../sessionModel/common';

import { mapToolNames, type ToolCatalog } from './agentTools';
import { agentNamed, type CustomAgent } from '../../../customization/common';
import type { PromptFile } from '../../../customization/common';

/** The session's record of a custom agent, its tool names mapped to the catalog's tools (every built-in, VS Code's). */
export function sessionAgentOf(agent: CustomAgent, catalog: ToolCatalog): SessionAgent {
  return withTools(
    {
      kind: 'agent',
      name: agent.name,
      path: agent.path,
      instructions: agent.instructions,
      model: agent.model,
      ...(agent.ownMcpServers ? { ownMcpServers: true as const } : {}),
    },
    agent.tools,
    catalog,
  );
}

export function withTools(agent: SessionAgent, names: readonly string[] | undefined, catalog: ToolCatalog): SessionAgent {
  if (names === undefined) return agent;
  const { tools, unknown, notEnabled } = mapToolNames(names, catalog);
  const { unknownTools: _unknown, notEnabledTools: _notEnabled, ...rest } = agent;
  return { ...rest, tools, ...(unknown.length > 0 ? { unknownTools: unknown } : {}), ...(notEnabled.length > 0 ? { notEnabledTools: notEnabled } : {}) };
}

/** Whether a saved session is a planning session (plan first, planMode.ts). */
export function isPlanningSession(state: { agent?: SessionAgent }): boolean {
  return state.agent?.kind === 'plan';
}

/** The instructions of every request: the standing ones, then the agent's. */
export function instructionsWith(base: string, agent: SessionAgent | undefined): string {
  if (agent?.instructions === undefined) return base;
  if (agent.kind === 'plan') return `${base}\n\n${agent.instructions}`;
  return `${base}\n\nYou are the custom agent "${agent.name}" of this workspace (${agent.path}). Its instructions:\n\n${agent.instructions}`;
}

/**
 * The model the key may use that the file's name means: its id, or (Copilot's
 * files name models by their display names, Claude Code's by a family) an id
 * that ends with it once both are lower-cased with spaces as dashes, or an id
 * of the family (`sonnet`). Undefined when none matches.
 */
export function modelNamed(wanted: string, available: readonly string[]): string | undefined {
  // A list of choices (a custom agent's `model: [A, B]`, kept as `A, B`): the first one available.
  const choices = wanted.split(/\s*,\s*/).filter((choice) => choice !== '');
  if (choices.length > 1) return choices.map((choice) => modelNamed(choice, available)).find((id) => id !== undefined);
  const norm = (text: string) =>
    text
      .toLowerCase()
      .replace(/\s*\([^)]*\)\s*$/, '')
      .trim()
      .replace(/[\s_]+/g, '-');
  const target = norm(wanted);
  if (target === '') return undefined;
  const exact = available.find((id) => id === wanted) ?? available.find((id) => norm(id) === target);
  if (exact) return exact;
  const tail = available.find((id) => norm(id.slice(id.lastIndexOf('/') + 1)) === target);
  if (tail) return tail;
  return /^[a-z]+$/.test(target) ? available.find((id) => norm(id).split(/[-/.]/).includes(target)) : undefined;
}

/** The lines a session as an agent starts with: the tools it has, the names it gave that are not ours, the model's substitute. */
export function agentStartNotes(agent: SessionAgent, model: { used: string; found: boolean }): string[] {
  if (agent.kind === 'plan') return [`Planning (read-only): tools ${listed(agent.tools ?? [])}; no writes, no commands.`];
  const what = agent.kind === 'agent' ? `Agent "${agent.name}"` : `Prompt file "${agent.name}"`;
  const notes = [`${what} (${agent.path}): tools ${agent.tools === undefined ? 'all' : listed(agent.tools) || 'none'}.`];
  if (agent.unknownTools?.length) notes.push(`${what} names tools neither this extension nor VS Code has, left out: ${listed(agent.unknownTools)}.`);
  if (agent.notEnabledTools?.length)
    notes.push(`${what} names VS Code tools you have not enabled, left out until you do ("Gateway: Choose Agent Tools…"): ${listed(agent.notEnabledTools)}.`);
  if (agent.ownMcpServers)
    notes.push(
      `${what} declares MCP servers of its own (\`mcp-servers\`), which this extension does not start: add them to .vscode/mcp.json to use their tools (granted as \`<server>/*\`).`,
    );
  if (agent.model !== undefined && !model.found)
    notes.push(`${what} asks for the model "${agent.model}", which this key may not use; this session uses ${model.used}.`);
  return notes;
}

/** Names as a note lists them: a file's names are the file's, so each is cut and the list bounded. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 30).map((name) => name.slice(0, 80));
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
}

/**
 * The session's record for an agent-mode prompt file: as the custom agent it
 * names (`agent: reviewer`), its own `tools` and `model` taking precedence;
 * a problem in words when the agent it names is not there.
 */
export function promptSessionAgent(prompt: PromptFile, agents: readonly CustomAgent[], catalog: ToolCatalog): SessionAgent | string {
  const named = prompt.agent !== undefined ? agentNamed(agents, prompt.agent) : undefined;
  if (prompt.agent !== undefined && named === undefined)
    return `The prompt file ${prompt.path} runs as the agent "${prompt.agent}", which this workspace does not have.`;
  const base: SessionAgent = named
    ? sessionAgentOf(named, catalog)
    : { kind: 'prompt', name: prompt.name, path: prompt.path, ...(prompt.model !== undefined ? { model: prompt.model } : {}) };
  const withModel = prompt.model !== undefined ? { ...base, model: prompt.model } : base;
  return prompt.tools !== undefined ? withTools(withModel, prompt.tools, catalog) : withModel;
}
