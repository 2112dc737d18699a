/**
 * The value sets and defaults of the settings, and the shapes of the structured ones: the settings' own,
 * imported by the features they configure (settings imports no feature).
 */

/** `gateway.agent.approvalMode`: what asks before it runs (agent/common/approvals/approvalPolicy.ts). */
export const APPROVAL_MODES = ['ask', 'auto-edit', 'auto'] as const;

export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** `gateway.agent.sessionPlace` (issue 40): where a new session works: asked, the workspace folder, or a worktree of its own. */
export const SESSION_PLACES = ['ask', 'folder', 'worktree'] as const;

export type SessionPlaceSetting = (typeof SESSION_PLACES)[number];

/** `gateway.agent.worktreeLinkedFolders`'s default: the ignored folders a build needs, linked into a session's worktree. */
export const DEFAULT_WORKTREE_LINKED_FOLDERS: readonly string[] = ['node_modules'];

/** `gateway.agent.budgets`: where a run stops. */
export interface AgentBudgets {
  maxTurns: number;
  maxTokens: number;
  maxWallTimeMs: number;
  /** The same call with the same arguments this many times in a row stops the session. */
  maxRepeatedCalls: number;
}

export const DEFAULT_BUDGETS: AgentBudgets = {
  maxTurns: 30,
  maxTokens: 1_000_000,
  maxWallTimeMs: 30 * 60_000,
  maxRepeatedCalls: 3,
};

/** `gateway.agent.checkpointStorageMB`: the checkpoint shelf's size, and its bounds. */
export const DEFAULT_CHECKPOINT_STORAGE_MB = 512;

/** One session's checkpoints may take 64 MB: a smaller total would drop the checkpoints of the session being worked on. */
export const MIN_CHECKPOINT_STORAGE_MB = 64;

export const MAX_CHECKPOINT_STORAGE_MB = 16_384;

/** The user's setting as a byte count: a number in range, anything else the default. */
export function checkpointStorageBytes(megabytes: unknown): number {
  const mb =
    typeof megabytes === 'number' && Number.isFinite(megabytes)
      ? Math.min(MAX_CHECKPOINT_STORAGE_MB, Math.max(MIN_CHECKPOINT_STORAGE_MB, Math.floor(megabytes)))
      : DEFAULT_CHECKPOINT_STORAGE_MB;
  return mb * 1024 * 1024;
}

/** The values the API takes, listed once for the types, the request checks and the settings. */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export const SERVICE_TIERS = ['default', 'priority', 'flex'] as const;

export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export type ServiceTier = (typeof SERVICE_TIERS)[number];

/** One model's entry of `gateway.models`. */
export interface ConfiguredModel {
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Price of a million input tokens, in the account's currency (the usage view's costs); none: tokens only. */
  inputPrice?: number;
  /** Price of a million output tokens (reasoning tokens are output tokens). */
  outputPrice?: number;
}

/** `gateway.rateLimits`: the account's minute window. */
export interface ConfiguredLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

export const DEFAULT_LIMITS: ConfiguredLimits = { requestsPerMinute: 60, tokensPerMinute: 200_000 };

/** `gateway.agent.protectedFiles`'s default: files the tools neither read nor write and the sandbox covers. */
export const defaultProtectedFiles: readonly string[] = [
  '.env*',
  '*.pem',
  '*.key',
  '**/.git/**',
  '**/.git',
  // Private keys and the files that hold registry, cloud and login credentials.
  // The SSH key names ssh-keygen writes (`id_*` alone would also match source files such as id_utils.py).
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '*.p12',
  '*.pfx',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
  '.aws/credentials',
  '**/.aws/credentials',
  '.ssh/**',
  '**/.ssh/**',
  '.ssh',
  '**/.ssh',
];

/** A model's price in `gateway.models`, per million tokens (in whatever currency the user's account uses). */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** `gateway.budget.*`: the daily ceiling (usage/common/dailyBudget.ts). */
export interface DailyBudget {
  /** `gateway.budget.dailyTokens`: undefined is off. */
  tokens?: number;
  /** `gateway.budget.dailyCost`, in the currency of the prices: applies when some model has a price. */
  cost?: number;
}

/** How the metrics go to the team's collector: OTLP over HTTP, protobuf (the default every collector takes) or JSON. */
export const TELEMETRY_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type TelemetryProtocol = (typeof TELEMETRY_PROTOCOLS)[number];

/** `gateway.telemetry.*`: export of usage, cost and latency to the team's OpenTelemetry collector (off by default). */
export interface TelemetrySettings {
  enabled: boolean;
  /** The collector's OTLP/HTTP address ('' when not set: nothing is exported). */
  endpoint: string;
  protocol: TelemetryProtocol;
  /** Who the metrics say they come from (`user.id`), as the user set it; '' sends none. */
  identity: string;
  /** The currency of the prices in `gateway.models` (the cost metric's unit); '' when not said. */
  currency: string;
}
