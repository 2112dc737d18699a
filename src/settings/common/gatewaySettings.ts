/**
 * The `gateway.*` settings, checked in one place. A bad value gets a message
 * that names the setting and says what it should be.
 */
import {
  DEFAULT_LIMITS,
  REASONING_EFFORTS,
  SERVICE_TIERS,
  type ConfiguredLimits,
  type ConfiguredModel,
  type ReasoningEffort,
  type ServiceTier,
} from '../../gateway/common';
import { APPROVAL_MODES, type ApprovalMode } from '../../agent/common/approvalPolicy';
import { DEFAULT_BUDGETS, type AgentBudgets } from '../../agent/common/budgets';
import { defaultProtectedFiles } from '../../tools/common/tool';
import type { DailyBudget } from '../../usage/common/dailyBudget';
import type { ModelPrice } from '../../usage/common/usageSummary';

/** Commands that ask even under the `auto` approval policy. */
export const DEFAULT_DENIED_COMMANDS: readonly string[] = [
  'rm -rf',
  'rm -r',
  'sudo',
  'git push',
  'git reset --hard',
  'git clean',
  'curl',
  'wget',
  'ssh',
  'scp',
  'dd',
  'mkfs',
  'shutdown',
  'reboot',
  'npm publish',
  'chmod -R',
  'chown -R',
];

export interface AgentSettings {
  approval: ApprovalMode;
  deniedCommands: readonly string[];
  protectedFiles: readonly string[];
  /** Whether commands in the `auto` mode's sandbox may use the network. */
  sandboxNetwork: boolean;
  budgets: AgentBudgets;
  /** Seconds of the key's tokens-per-minute one request may need before the session compacts. */
  maxRequestTpmSeconds: number;
  /** Send the workspace's AGENTS.md files (`gateway.agent.projectInstructions`). */
  projectInstructions: boolean;
  /** VS Code tools that run without asking under `auto` (`gateway.agent.allowedTools`). */
  allowedTools: readonly string[];
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
export const USER_ONLY_SETTINGS: readonly string[] = [
  'baseUrl',
  'siteUrl',
  'chatModel',
  'agentModel',
  'maxTokens',
  'reasoningEffort',
  'serviceTier',
  'limits.requestsPerMinute',
  'limits.tokensPerMinute',
  'models',
  'budget.dailyTokens',
  'budget.dailyCost',
  'agent.approval',
  // Under `auto` these tools run unasked: a repository's settings must neither add one nor take the user's away.
  'agent.allowedTools',
  'agent.deniedCommands',
  'agent.sandboxNetwork',
  'agent.protectedFiles',
  'agent.maxTurns',
  'agent.maxTokens',
  'agent.maxMinutes',
  // Raised, it could fill the disk; lowered, it would erase the user's checkpoints of other sessions.
  'agent.checkpointStorageMB',
];

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

/** Reads one raw setting value by its name under `gateway.` (as VS Code's configuration does). */
export type RawSettings = (name: string) => unknown;

export function parseSettings(raw: RawSettings): GatewaySettings {
  return {
    baseUrl: checkedUrl(raw('baseUrl'), 'baseUrl', true) ?? '',
    siteUrl: checkedUrl(raw('siteUrl'), 'siteUrl', false),
    chatModel: text(raw('chatModel')),
    agentModel: text(raw('agentModel')),
    temperature: checkedNumber(raw('temperature'), 'temperature', 0, 2),
    topP: checkedNumber(raw('topP'), 'topP', 0, 1),
    maxTokens: checkedInteger(raw('maxTokens'), 'maxTokens'),
    reasoningEffort: checkedEnum(raw('reasoningEffort'), 'reasoningEffort', REASONING_EFFORTS),
    serviceTier: checkedEnum(raw('serviceTier'), 'serviceTier', SERVICE_TIERS),
    limits: {
      requestsPerMinute: checkedInteger(raw('limits.requestsPerMinute'), 'limits.requestsPerMinute') ?? DEFAULT_LIMITS.requestsPerMinute,
      tokensPerMinute: checkedInteger(raw('limits.tokensPerMinute'), 'limits.tokensPerMinute') ?? DEFAULT_LIMITS.tokensPerMinute,
    },
    models: checkedModels(raw('models')),
    budget: {
      tokens: checkedInteger(raw('budget.dailyTokens'), 'budget.dailyTokens'),
      cost: checkedPrice(raw('budget.dailyCost'), 'budget.dailyCost'),
    },
    agent: {
      approval: checkedEnum(raw('agent.approval'), 'agent.approval', APPROVAL_MODES) ?? 'ask',
      deniedCommands: checkedList(raw('agent.deniedCommands'), 'agent.deniedCommands') ?? DEFAULT_DENIED_COMMANDS,
      protectedFiles: checkedList(raw('agent.protectedFiles'), 'agent.protectedFiles') ?? defaultProtectedFiles,
      sandboxNetwork: raw('agent.sandboxNetwork') === true,
      budgets: {
        maxTurns: checkedInteger(raw('agent.maxTurns'), 'agent.maxTurns') ?? DEFAULT_BUDGETS.maxTurns,
        maxTokens: checkedInteger(raw('agent.maxTokens'), 'agent.maxTokens') ?? DEFAULT_BUDGETS.maxTokens,
        maxWallTimeMs: (checkedInteger(raw('agent.maxMinutes'), 'agent.maxMinutes') ?? DEFAULT_BUDGETS.maxWallTimeMs / 60_000) * 60_000,
        maxRepeatedCalls: DEFAULT_BUDGETS.maxRepeatedCalls,
      },
      maxRequestTpmSeconds: Math.min(60, checkedInteger(raw('agent.maxRequestTpmSeconds'), 'agent.maxRequestTpmSeconds') ?? 30),
      projectInstructions: raw('agent.projectInstructions') !== false,
      allowedTools: checkedList(raw('agent.allowedTools'), 'agent.allowedTools') ?? [],
    },
  };
}

function checkedList(value: unknown, name: string): readonly string[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new SettingError(name, `"gateway.${name}" must be a list of strings.`);
  }
  return value as string[];
}

/** Bounds what a workspace's settings can make this read. */
const MAX_CONFIGURED_MODELS = 500;

function checkedModels(value: unknown): Record<string, ConfiguredModel> {
  if (value === null || value === undefined) return Object.create(null) as Record<string, ConfiguredModel>;
  const example = 'for example {"my-model": {"contextWindow": 32000, "maxOutputTokens": 4096}}';
  if (typeof value !== 'object' || Array.isArray(value)) throw new SettingError('models', `"gateway.models" must map model ids to their limits, ${example}.`);
  // No prototype: a model id such as "__proto__" from a workspace's settings is just a key.
  const models = Object.create(null) as Record<string, ConfiguredModel>;
  for (const [id, entry] of Object.entries(value as Record<string, unknown>).slice(0, MAX_CONFIGURED_MODELS)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new SettingError('models', `"gateway.models" entry "${id}" must be an object, ${example}.`);
    const limits = entry as Record<string, unknown>;
    const contextWindow = checkedInteger(limits.contextWindow, `models.${id}.contextWindow`);
    const maxOutputTokens = checkedInteger(limits.maxOutputTokens, `models.${id}.maxOutputTokens`);
    if (contextWindow !== undefined && contextWindow < 1_024) {
      throw new SettingError('models', `"gateway.models.${id}.contextWindow" must be at least 1024 tokens (it is ${contextWindow}).`);
    }
    const inputPrice = checkedPrice(limits.inputPrice, `models.${id}.inputPrice`);
    const outputPrice = checkedPrice(limits.outputPrice, `models.${id}.outputPrice`);
    if ((inputPrice === undefined) !== (outputPrice === undefined)) {
      // Half a price would show a made-up cost for the other half.
      throw new SettingError('models', `"gateway.models.${id}" needs both "inputPrice" and "outputPrice" (per million tokens), or neither.`);
    }
    models[id] = {
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(inputPrice !== undefined ? { inputPrice, outputPrice } : {}),
    };
  }
  return models;
}

/** The model's price from `gateway.models`, when both halves are set. */
export function priceOf(models: Readonly<Record<string, ConfiguredModel>>, model: string): ModelPrice | undefined {
  const entry = Object.prototype.hasOwnProperty.call(models, model) ? models[model] : undefined;
  if (entry?.inputPrice === undefined || entry.outputPrice === undefined) return undefined;
  return { inputPerMillion: entry.inputPrice, outputPerMillion: entry.outputPrice };
}

/** A price or a money budget: a number of at least 0 (0 is a free model), below a bound no real price reaches. */
function checkedPrice(value: unknown, name: string): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1_000_000_000) {
    throw new SettingError(name, `"gateway.${name}" must be a number of at least 0 (it is ${JSON.stringify(value)}).`);
  }
  return value;
}

/** The base URL, or a SettingError that says how to set it. */
export function requireBaseUrl(settings: GatewaySettings): string {
  if (!settings.baseUrl) {
    throw new SettingError('baseUrl', 'Set "gateway.baseUrl" to the Gateway\'s address (for example https://gateway.example/v1).');
  }
  return settings.baseUrl;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function checkedUrl(raw: unknown, name: string, wantsV1: boolean): string | undefined {
  const value = text(raw);
  if (value === '') return undefined;
  const example = `https://gateway.example${wantsV1 ? '/v1' : ''}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingError(name, `"gateway.${name}" is not a full address: "${value}". Start it with https://, for example ${example}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingError(name, `"gateway.${name}" must start with https:// (or http:// for a local gateway), not ${url.protocol}//. For example ${example}.`);
  }
  if (wantsV1 && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    // The API key travels with every request to the base URL: over http:// anyone on the way could read it.
    throw new SettingError(
      name,
      `"gateway.${name}" must start with https:// so the API key is sent encrypted; http:// is only for a gateway on this machine (localhost, 127.0.0.1, [::1]). For example ${example}.`,
    );
  }
  if (url.username || url.password) {
    throw new SettingError(name, `"gateway.${name}" must not contain credentials; the API key belongs in "Gateway: Set API Key".`);
  }
  return value.replace(/\/+$/, '');
}

/** Hosts whose traffic never leaves this machine (the local emulator and the tests use them). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

function checkedNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new SettingError(name, `"gateway.${name}" must be a number from ${min} to ${max} (it is ${JSON.stringify(value)}).`);
  }
  return value;
}

function checkedInteger(value: unknown, name: string): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new SettingError(name, `"gateway.${name}" must be a whole number of at least 1 (it is ${JSON.stringify(value)}).`);
  }
  return value;
}

function checkedEnum<T extends string>(raw: unknown, name: string, allowed: readonly T[]): T | undefined {
  const value = text(raw);
  if (!value) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new SettingError(name, `"gateway.${name}" must be one of ${allowed.join(', ')} (it is "${value}").`);
}
