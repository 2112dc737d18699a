/** The settings feature's vscode layer as other features see it: import from here, not from its files. */
export { createSettingsService, SECTION } from './settings';
export { SettingError, settingOrUndefined } from '../common/gatewaySettings';
export { SettingsService } from '../common/settingsService';
