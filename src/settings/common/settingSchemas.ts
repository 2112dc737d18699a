/**
 * One schema per `gateway.*` setting: its default (as package.json declares it),
 * whether only the user may set it, and how a value is checked. A bad value gets
 * a message that names the setting and says what it should be; it affects that
 * setting alone (see SettingsService).
 */
import * as z from 'zod/mini';
import { DEFAULT_LIMITS } from './valueSets';
import { REASONING_EFFORTS, SERVICE_TIERS } from './valueSets';
import { APPROVAL_MODES, DEFAULT_BUDGETS, DEFAULT_WORKTREE_LINKED_FOLDERS, SESSION_PLACES } from './valueSets';
import { DEFAULT_CHECKPOINT_STORAGE_MB, checkpointStorageBytes } from './valueSets';
import { defaultProtectedFiles } from './valueSets';
import { TELEMETRY_PROTOCOLS } from './valueSets';
import { checkedModels, checkedUrl } from './settingChecks';

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

export interface SettingSchema<T> {
  /** The value package.json declares; a bad value falls back to what this reads as. */
  readonly default: unknown;
  /**
   * Decides where the API key goes, what runs without asking or what is spent: only the user's
   * settings count, a workspace's value is ignored (see effectiveValue).
   */
  readonly userOnly: boolean;
  readonly schema: z.ZodMiniType<T>;
  /** The message for a value the schema refuses (checks with a message of their own keep theirs). */
  readonly invalid: (value: unknown) => string;
}

/** The kinds of files from the workspace the agent reads, each turned off on its own by `gateway.agent.projectInstructionKinds`. */
export const PROJECT_FILE_KINDS = ['agentsMd', 'skills', 'prompts', 'agents', 'hooks'] as const;
export type ProjectFileKind = (typeof PROJECT_FILE_KINDS)[number];

type Shown = (name: string) => (value: unknown) => string;
const numberFrom =
  (min: number, max: number): Shown =>
  (name) =>
  (value) =>
    `"gateway.${name}" must be a number from ${min} to ${max} (it is ${JSON.stringify(value)}).`;
const wholeNumber: Shown = (name) => (value) => `"gateway.${name}" must be a whole number of at least 1 (it is ${JSON.stringify(value)}).`;
const price: Shown = (name) => (value) => `"gateway.${name}" must be a number of at least 0 (it is ${JSON.stringify(value)}).`;
const oneOf =
  (allowed: readonly string[]): Shown =>
  (name) =>
  (value) =>
    `"gateway.${name}" must be one of ${allowed.join(', ')} (it is ${JSON.stringify(value)}).`;
const listOfStrings: Shown = (name) => () => `"gateway.${name}" must be a list of strings.`;
const trueOrFalse: Shown = (name) => (value) => `"gateway.${name}" must be true or false (it is ${JSON.stringify(value)}).`;
const aString: Shown = (name) => (value) => `"gateway.${name}" must be text (it is ${JSON.stringify(value)}).`;

/** The Settings editor stores a cleared field as '' or null: both mean "not set", as an absent value does. */
const unsetAsNull = z.transform((value: unknown) => (value === '' ? null : value));
const trimmed = z.pipe(
  z.string(),
  z.transform((value) => value.trim()),
);

/** A number, or undefined when not set. */
function optional<T>(schema: z.ZodMiniType<T>): z.ZodMiniType<T | undefined> {
  return z.pipe(
    z.pipe(unsetAsNull, z.nullish(schema)),
    z.transform((value) => value ?? undefined),
  );
}

/** A value, or `fallback` when not set. */
function withDefault<T>(schema: z.ZodMiniType<T>, fallback: T): z.ZodMiniType<T> {
  return z.pipe(
    z.pipe(unsetAsNull, z.nullish(schema)),
    z.transform((value) => value ?? fallback),
  );
}

const whole = z.number().check(z.int(), z.minimum(1));
const money = z.number().check(z.minimum(0), z.maximum(1_000_000_000));
const text = z.pipe(
  z.nullish(trimmed),
  z.transform((value) => value ?? ''),
);
/** One of `allowed`, trimmed; '' is "not set". */
const choice = <T extends string>(allowed: readonly [T, ...T[]]) =>
  z.pipe(
    z.pipe(
      z.nullish(trimmed),
      z.transform((value: string | null | undefined) => value || undefined),
    ),
    z.optional(z.enum(allowed)),
  );

function setting<T>(userOnly: boolean, defaultValue: unknown, schema: z.ZodMiniType<T>, message: (value: unknown) => string): SettingSchema<T> {
  return { default: defaultValue, userOnly, schema, invalid: message };
}

const MEGABYTE = 1024 * 1024;
const USER = true;
const WORKSPACE = false;

/** Keyed by the setting's name under `gateway.`, in package.json's order. */
export const SETTING_SCHEMAS = {
  baseUrl: setting(USER, '', z.pipe(text, checkedUrl('baseUrl', true)), aString('baseUrl')),
  siteUrl: setting(
    USER,
    '',
    z.pipe(
      z.pipe(text, checkedUrl('siteUrl', false)),
      z.transform((value) => value || undefined),
    ),
    aString('siteUrl'),
  ),
  chatModel: setting(USER, '', text, aString('chatModel')),
  agentModel: setting(USER, '', text, aString('agentModel')),
  temperature: setting(WORKSPACE, null, optional(z.number().check(z.minimum(0), z.maximum(2))), numberFrom(0, 2)('temperature')),
  topP: setting(WORKSPACE, null, optional(z.number().check(z.minimum(0), z.maximum(1))), numberFrom(0, 1)('topP')),
  maxTokens: setting(USER, null, optional(whole), wholeNumber('maxTokens')),
  reasoningEffort: setting(USER, '', choice(REASONING_EFFORTS), oneOf(REASONING_EFFORTS)('reasoningEffort')),
  serviceTier: setting(USER, '', choice(SERVICE_TIERS), oneOf(SERVICE_TIERS)('serviceTier')),
  'limits.requestsPerMinute': setting(
    USER,
    DEFAULT_LIMITS.requestsPerMinute,
    withDefault(whole, DEFAULT_LIMITS.requestsPerMinute),
    wholeNumber('limits.requestsPerMinute'),
  ),
  'limits.tokensPerMinute': setting(
    USER,
    DEFAULT_LIMITS.tokensPerMinute,
    withDefault(whole, DEFAULT_LIMITS.tokensPerMinute),
    wholeNumber('limits.tokensPerMinute'),
  ),
  models: setting(USER, {}, checkedModels(), () => '"gateway.models" must map model ids to their limits.'),
  'budget.dailyTokens': setting(USER, null, optional(whole), wholeNumber('budget.dailyTokens')),
  'budget.dailyCost': setting(USER, null, optional(money), price('budget.dailyCost')),
  'agent.approval': setting(
    USER,
    'ask',
    z.pipe(
      choice(APPROVAL_MODES),
      z.transform((mode) => mode ?? 'ask'),
    ),
    oneOf(APPROVAL_MODES)('agent.approval'),
  ),
  'agent.deniedCommands': setting(
    USER,
    DEFAULT_DENIED_COMMANDS,
    withDefault(z.array(z.string()), DEFAULT_DENIED_COMMANDS),
    listOfStrings('agent.deniedCommands'),
  ),
  // Where a new session works (issue 40); a repository's settings must not move the user's sessions.
  'agent.sessionPlace': setting(
    USER,
    'ask',
    z.pipe(
      choice(SESSION_PLACES),
      z.transform((place) => place ?? 'ask'),
    ),
    oneOf(SESSION_PLACES)('agent.sessionPlace'),
  ),
  // Folders of the repository linked into a session's worktree: the user's alone (a repository could name its own paths).
  'agent.worktreeLinkedFolders': setting(
    USER,
    DEFAULT_WORKTREE_LINKED_FOLDERS,
    withDefault(z.array(z.string()), DEFAULT_WORKTREE_LINKED_FOLDERS),
    listOfStrings('agent.worktreeLinkedFolders'),
  ),
  'agent.sandboxNetwork': setting(USER, false, withDefault(z.boolean(), false), trueOrFalse('agent.sandboxNetwork')),
  'agent.protectedFiles': setting(USER, defaultProtectedFiles, withDefault(z.array(z.string()), defaultProtectedFiles), listOfStrings('agent.protectedFiles')),
  'agent.maxTurns': setting(USER, DEFAULT_BUDGETS.maxTurns, withDefault(whole, DEFAULT_BUDGETS.maxTurns), wholeNumber('agent.maxTurns')),
  'agent.maxTokens': setting(USER, DEFAULT_BUDGETS.maxTokens, withDefault(whole, DEFAULT_BUDGETS.maxTokens), wholeNumber('agent.maxTokens')),
  'agent.maxMinutes': setting(
    USER,
    DEFAULT_BUDGETS.maxWallTimeMs / 60_000,
    withDefault(whole, DEFAULT_BUDGETS.maxWallTimeMs / 60_000),
    wholeNumber('agent.maxMinutes'),
  ),
  // Open to a workspace, but capped: a request may wait for at most a minute of the key's tokens.
  'agent.maxRequestTpmSeconds': setting(
    WORKSPACE,
    30,
    z.pipe(
      withDefault(whole, 30),
      z.transform((seconds) => Math.min(60, seconds)),
    ),
    wholeNumber('agent.maxRequestTpmSeconds'),
  ),
  'agent.projectInstructions': setting(WORKSPACE, true, withDefault(z.boolean(), true), trueOrFalse('agent.projectInstructions')),
  // The user's alone: a repository's settings must not turn its own hooks (commands) back on after the user turned them off.
  'agent.projectInstructionKinds': setting(
    USER,
    {},
    z.pipe(
      withDefault(z.object(Object.fromEntries(PROJECT_FILE_KINDS.map((kind) => [kind, z.optional(z.boolean())]))), {}),
      z.transform(
        (kinds: Partial<Record<ProjectFileKind, boolean | undefined>>) =>
          Object.fromEntries(PROJECT_FILE_KINDS.map((kind) => [kind, kinds[kind] !== false])) as Record<ProjectFileKind, boolean>,
      ),
    ),
    (value) =>
      `"gateway.agent.projectInstructionKinds" must be an object of true or false per kind (${PROJECT_FILE_KINDS.join(', ')}) (it is ${JSON.stringify(value)}).`,
  ),
  // Under `auto` these tools run unasked: a repository's settings must neither add one nor take the user's away.
  'agent.allowedTools': setting(USER, [], withDefault(z.array(z.string()), []), listOfStrings('agent.allowedTools')),
  // Sub-sessions spend requests and tokens of their own: the user's choice alone, a repository's settings change nothing.
  'agent.subagents': setting(USER, true, withDefault(z.boolean(), true), trueOrFalse('agent.subagents')),
  // Raised, it could fill the disk; lowered, it would erase the user's checkpoints of other sessions. Out of bounds: the nearest bound.
  'agent.checkpointStorageMB': setting(
    USER,
    DEFAULT_CHECKPOINT_STORAGE_MB,
    z.pipe(
      withDefault(z.number(), DEFAULT_CHECKPOINT_STORAGE_MB),
      z.transform((megabytes) => checkpointStorageBytes(megabytes) / MEGABYTE),
    ),
    (value) => `"gateway.agent.checkpointStorageMB" must be a number of megabytes (it is ${JSON.stringify(value)}).`,
  ),
  // Export to a team's collector: where usage goes and who it is said to be, so the user's (or the organisation's) alone;
  // a cloned repository must not turn it on nor point it elsewhere.
  'telemetry.enabled': setting(USER, false, withDefault(z.boolean(), false), trueOrFalse('telemetry.enabled')),
  'telemetry.endpoint': setting(USER, '', z.pipe(text, checkedUrl('telemetry.endpoint', false)), aString('telemetry.endpoint')),
  'telemetry.protocol': setting(
    USER,
    'http/protobuf',
    z.pipe(
      choice(TELEMETRY_PROTOCOLS),
      z.transform((protocol) => protocol ?? 'http/protobuf'),
    ),
    oneOf(TELEMETRY_PROTOCOLS)('telemetry.protocol'),
  ),
  'telemetry.identity': setting(USER, '', text, aString('telemetry.identity')),
  'telemetry.currency': setting(USER, '', text, aString('telemetry.currency')),
};

export type SettingName = keyof typeof SETTING_SCHEMAS;
/** What a setting reads as once checked. */
export type SettingValue<K extends SettingName> = (typeof SETTING_SCHEMAS)[K] extends SettingSchema<infer T> ? T : never;
export type SettingValues = { readonly [K in SettingName]: SettingValue<K> };

export const SETTING_NAMES = Object.keys(SETTING_SCHEMAS) as SettingName[];
