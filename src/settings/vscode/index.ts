/** The settings feature's vscode layer as other features see it: import from here, not from its files. */
export { createSettingsService, SECTION, SettingError, settingOrUndefined, type SettingsService } from './settings';
