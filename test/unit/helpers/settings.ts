// Settings for the tests: a SettingsService over plain values, as if the user had set them.
import type { SettingLevels } from '../../../src/settings/common/gatewaySettings';
import { SettingsService, type SettingsSource } from '../../../src/settings/common/settingsService';

/** A source whose levels are `levels[name]`; the test may change them and call reload(). */
export function sourceOf(levels: Record<string, SettingLevels>): SettingsSource & { reads: number } {
  const source = {
    reads: 0,
    inspect: (name: string) => {
      source.reads++;
      return levels[name];
    },
  };
  return source;
}

/** The service over these values in the user's settings. */
export function userSettings(values: Record<string, unknown>): SettingsService {
  return new SettingsService({ inspect: (name) => ({ globalValue: values[name] }) });
}
