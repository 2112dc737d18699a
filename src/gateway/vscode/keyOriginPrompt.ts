/**
 * When "gateway.baseUrl" moves to another origin, the stored key does not follow
 * on its own: the user confirms, in a modal that names both origins, or enters
 * a key for the new one. Until then the transport refuses to send it.
 */
import * as vscode from 'vscode';
import { keyOriginNoLongerApplies, originOf } from '../common/keyOrigin';
import type { ApiKeyStore } from './apiKeyStore';
import type { SettingsService } from '../../settings/common';

export const CONFIRM_KEY_ORIGIN_COMMAND = 'gateway.confirmKeyOrigin';

/** The origin the user's base URL points at now, or undefined when it is unset or invalid. */
export function configuredOrigin(settings: SettingsService): string | undefined {
  try {
    return originOf(settings.get('baseUrl'));
  } catch {
    return undefined;
  }
}

/** Asks whether the key may go to the base URL's new origin; true once it may. */
export async function confirmKeyOrigin(keys: ApiKeyStore, settings: SettingsService, onKeyChanged: () => void): Promise<boolean> {
  const requestOrigin = configuredOrigin(settings);
  const keyOrigin = await keys.keyOrigin();
  if (requestOrigin === undefined || !(await keys.hasKey())) return false;
  if (keyOrigin === requestOrigin) return true;
  if (keyOrigin === undefined) {
    // A key stored before the binding, while no base URL was set: it belongs with the first one the user sets.
    await keys.rebind(requestOrigin);
    return true;
  }
  const send = `Send the Key to ${requestOrigin}`;
  const enter = 'Enter Another Key';
  const choice = await vscode.window.showWarningMessage(
    `The Gateway address moved from ${keyOrigin} to ${requestOrigin}. Send your API key to ${requestOrigin}?`,
    {
      modal: true,
      detail:
        `Your API key was set for ${keyOrigin}. Until you choose, no request carries it to ${requestOrigin}. ` +
        'Only send it if you trust that server: whoever runs it can spend your balance.',
    },
    send,
    enter,
  );
  if (choice === send) {
    await keys.rebind(requestOrigin);
    onKeyChanged();
    return true;
  }
  if (choice === enter) await vscode.commands.executeCommand('gateway.setApiKey');
  return false;
}

/** "Allow the Key There" (an error notification's button, which outlives the error): says so when nothing is left to allow. */
export async function confirmKeyOriginFromButton(keys: ApiKeyStore, settings: SettingsService, onKeyChanged: () => void): Promise<boolean> {
  const stale = keyOriginNoLongerApplies({ hasKey: await keys.hasKey(), keyOrigin: await keys.keyOrigin(), requestOrigin: configuredOrigin(settings) });
  if (stale) {
    void vscode.window.showInformationMessage(stale);
    return false;
  }
  return confirmKeyOrigin(keys, settings, onKeyChanged);
}
