/** The settings feature's common layer as other features see it: import from here, not from its files. */
export { type AgentSettings, priceOf } from './gatewaySettings';
export { requestParameters } from './requestParameters';
export { type SettingsService } from './settingsService';
