/** The settings feature's common layer as other features see it: import from here, not from its files. */
export { type AgentSettings, type GatewaySettings, priceOf, projectKindEnabled } from './gatewaySettings';
export { type ProjectFileKind } from './settingSchemas';
export { requestParameters } from './requestParameters';
export { SettingsService } from './settingsService';
export { SettingError, settingOrUndefined } from './gatewaySettings';
export {
  APPROVAL_MODES,
  SESSION_PLACES,
  DEFAULT_WORKTREE_LINKED_FOLDERS,
  type SessionPlaceSetting,
  DEFAULT_BUDGETS,
  DEFAULT_CHECKPOINT_STORAGE_MB,
  DEFAULT_LIMITS,
  REASONING_EFFORTS,
  SERVICE_TIERS,
  checkpointStorageBytes,
  defaultProtectedFiles,
  type AgentBudgets,
  type ApprovalMode,
  type ConfiguredLimits,
  type ConfiguredModel,
  type DailyBudget,
  type ModelPrice,
  type ReasoningEffort,
  type ServiceTier,
  TELEMETRY_PROTOCOLS,
  type TelemetryProtocol,
  type TelemetrySettings,
} from './valueSets';
