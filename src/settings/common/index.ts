/** The settings feature's common layer as other features see it: import from here, not from its files. */
export { type AgentSettings, priceOf, projectKindEnabled } from './gatewaySettings';
export { PROJECT_FILE_KINDS, type ProjectFileKind } from './settingSchemas';
export { requestParameters } from './requestParameters';
export { type SettingsService } from './settingsService';
