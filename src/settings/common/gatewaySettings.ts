/**
 * The `gateway.*` settings as their readers see them (one object, built from
 * each setting's checked value), and the rule of which level of a setting counts.
 */
import type { ConfiguredLimits } from './valueSets';
import type { ConfiguredModel } from './valueSets';
import type { ReasoningEffort, ServiceTier } from './valueSets';
import { type ApprovalMode, DEFAULT_BUDGETS, type AgentBudgets } from './valueSets';
import { SETTING_NAMES, SETTING_SCHEMAS, type ProjectFileKind, type SettingValues } from './settingSchemas';
import type { DailyBudget, ModelPrice, SessionPlaceSetting, TelemetrySettings } from './valueSets';

export { DEFAULT_DENIED_COMMANDS } from './settingSchemas';

export interface AgentSettings {
  approval: ApprovalMode;
  deniedCommands: readonly string[];
  protectedFiles: readonly string[];
  /** Whether commands in the `auto` mode's sandbox may use the network. */
  sandboxNetwork: boolean;
  budgets: AgentBudgets;
  /** Seconds of the key's tokens-per-minute one request may need before the session compacts. */
  maxRequestTpmSeconds: number;
  /** Send the workspace's AGENTS.md files and list its skills to the agent (`gateway.agent.projectInstructions`). */
  projectInstructions: boolean;
  /** Per kind of workspace file, whether it is read (`gateway.agent.projectInstructionKinds`); under the master switch above. */
  projectKinds: Readonly<Record<ProjectFileKind, boolean>>;
  /** VS Code tools that run without asking under `auto` (`gateway.agent.allowedTools`). */
  allowedTools: readonly string[];
  /** Offer run_subagent, read-only sub-sessions (`gateway.agent.subagents`). */
  subagents: boolean;
  /** Where a new session works (`gateway.agent.sessionPlace`, issue 40). */
  sessionPlace: SessionPlaceSetting;
  /** The repository's folders linked into a session's worktree (`gateway.agent.worktreeLinkedFolders`). */
  worktreeLinkedFolders: readonly string[];
}

export interface GatewaySettings {
  baseUrl: string;
  siteUrl: string | undefined;
  chatModel: string;
  agentModel: string;
  temperature: number | undefined;
  topP: number | undefined;
  maxTokens: number | undefined;
  reasoningEffort: ReasoningEffort | undefined;
  serviceTier: ServiceTier | undefined;
  limits: ConfiguredLimits;
  /** `gateway.models`: context window and output limit per model id. */
  models: Readonly<Record<string, ConfiguredModel>>;
  /** `gateway.budget.*`: the daily budget, off when neither is set. */
  budget: DailyBudget;
  agent: AgentSettings;
  telemetry: TelemetrySettings;
}

/** A setting whose value cannot be used; the message names it. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

/**
 * Settings that decide where the API key goes, what runs without asking and
 * what is spent: only the user decides them. A workspace (a cloned repository's
 * `.vscode/settings.json`, or a file the agent wrote) may not, so its values are
 * ignored even where VS Code would merge them. Only `temperature`, `topP`,
 * `agent.maxRequestTpmSeconds` (capped at 60) and `agent.projectInstructions`
 * stay open to a workspace: they change answers, not cost or safety.
 */
export const USER_ONLY_SETTINGS: readonly string[] = SETTING_NAMES.filter((name) => SETTING_SCHEMAS[name].userOnly);

/** One setting's value at each level, as VS Code's `WorkspaceConfiguration.inspect` reports it. */
export interface SettingLevels {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The value that applies: the user's (or the default) for a user-only setting, the most specific level otherwise. */
export function effectiveValue(name: string, levels: SettingLevels | undefined): unknown {
  if (!levels) return undefined;
  if (USER_ONLY_SETTINGS.includes(name)) return levels.globalValue ?? levels.defaultValue;
  return levels.workspaceFolderValue ?? levels.workspaceValue ?? levels.globalValue ?? levels.defaultValue;
}

/** The settings as the readers see them, from each setting's checked value. */
export function settingsFrom(values: SettingValues): GatewaySettings {
  return {
    baseUrl: values.baseUrl,
    siteUrl: values.siteUrl,
    chatModel: values.chatModel,
    agentModel: values.agentModel,
    temperature: values.temperature,
    topP: values.topP,
    maxTokens: values.maxTokens,
    reasoningEffort: values.reasoningEffort,
    serviceTier: values.serviceTier,
    limits: { requestsPerMinute: values['limits.requestsPerMinute'], tokensPerMinute: values['limits.tokensPerMinute'] },
    models: values.models,
    budget: { tokens: values['budget.dailyTokens'], cost: values['budget.dailyCost'] },
    agent: {
      approval: values['agent.approval'],
      deniedCommands: values['agent.deniedCommands'],
      protectedFiles: values['agent.protectedFiles'],
      sandboxNetwork: values['agent.sandboxNetwork'],
      budgets: {
        maxTurns: values['agent.maxTurns'],
        maxTokens: values['agent.maxTokens'],
        maxWallTimeMs: values['agent.maxMinutes'] * 60_000,
        maxRepeatedCalls: DEFAULT_BUDGETS.maxRepeatedCalls,
      },
      maxRequestTpmSeconds: values['agent.maxRequestTpmSeconds'],
      projectInstructions: values['agent.projectInstructions'],
      projectKinds: values['agent.projectInstructionKinds'],
      allowedTools: values['agent.allowedTools'],
      subagents: values['agent.subagents'],
      sessionPlace: values['agent.sessionPlace'],
      worktreeLinkedFolders: values['agent.worktreeLinkedFolders'],
    },
    telemetry: {
      enabled: values['telemetry.enabled'],
      endpoint: values['telemetry.endpoint'],
      protocol: values['telemetry.protocol'],
      identity: values['telemetry.identity'],
      currency: values['telemetry.currency'],
    },
  };
}

/**
 * Whether the agent reads the workspace's files of `kind` (AGENTS.md, skills, prompt files, custom agents, hooks):
 * `gateway.agent.projectInstructions` is the master switch, `gateway.agent.projectInstructionKinds` turns one kind off.
 */
export function projectKindEnabled(agent: Pick<AgentSettings, 'projectInstructions' | 'projectKinds'>, kind: ProjectFileKind): boolean {
  return agent.projectInstructions && agent.projectKinds[kind];
}

/** The model's price from `gateway.models`, when both halves are set. */
export function priceOf(models: Readonly<Record<string, ConfiguredModel>>, model: string): ModelPrice | undefined {
  const entry = Object.prototype.hasOwnProperty.call(models, model) ? models[model] : undefined;
  if (entry?.inputPrice === undefined || entry.outputPrice === undefined) return undefined;
  return { inputPerMillion: entry.inputPrice, outputPerMillion: entry.outputPrice };
}

/** What `read` gives, or undefined while the setting it needs is missing or invalid (its SettingError). */
export function settingOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof SettingError) return undefined;
    throw error;
  }
}
