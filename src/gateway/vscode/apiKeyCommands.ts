/**
 * "Gateway: Set API Key" and "Gateway: Clear API Key". A key is checked with
 * GET /v1/models before it is stored; a rejected key is never stored.
 */
import * as vscode from 'vscode';
import { apiKeyProblem, checkAndStoreKey, type KeyCheckOutcome } from '../common/apiKey';
import { type GatewayClient } from '../common/client';
import { type LimitTracker } from '../../rateLimits/common';
import { type ModelInfo } from '../common/types';
import type { ApiKeyStore } from './apiKeyStore';
import { toAbortSignal } from '../../base/vscode';
import type { ErrorPresenter } from './errorPresenter';
import { SettingError, type SettingsService } from '../../settings/common';

export interface ApiKeyCommandDeps {
  store: ApiKeyStore;
  /** A client that uses the given key instead of the stored one, with limits of its own. */
  clientWithKey: (key: string) => GatewayClient;
  /** The current key's limit and balance state: reset once another key is stored. */
  limits: LimitTracker;
  errors: ErrorPresenter;
  /** The base URL the key is checked against. */
  settings: SettingsService;
  /** `models`: the new key's model list, when its check listed them (so nobody lists them again). */
  onKeyChanged: (models?: ModelInfo[]) => void;
}

/** Set API Key. `keyArgument` lets automation pass the key without the input box. */
export async function setApiKey(deps: ApiKeyCommandDeps, keyArgument?: unknown): Promise<boolean> {
  // The key is checked against the Gateway before it is stored, so without a usable base URL
  // it could only be thrown away: say so before the user pastes it, not after.
  const settingProblem = baseUrlProblem(deps.settings);
  if (settingProblem) {
    void deps.errors.show(new SettingError(settingProblem.setting, `${settingProblem.message} Then set the API key.`));
    return false;
  }
  const key = typeof keyArgument === 'string' ? keyArgument.trim() : await askForKey();
  if (!key) return false;
  const problem = apiKeyProblem(key);
  if (problem) {
    void vscode.window.showErrorMessage(`Gateway: this API key was not stored. ${problem}`);
    return false;
  }
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Gateway: checking the API key…', cancellable: true },
    (_progress, token) =>
      checkAndStoreKey(key, { client: deps.clientWithKey(key), limits: deps.limits, store: (k, origin) => deps.store.store(k, origin) }, toAbortSignal(token)),
  );
  const stored = outcome.kind === 'accepted' || outcome.kind === 'empty_balance' || outcome.kind === 'unchecked';
  if (stored) deps.onKeyChanged(outcome.kind === 'accepted' ? outcome.models : undefined);
  report(outcome, deps);
  return stored;
}

function report(outcome: KeyCheckOutcome, deps: ApiKeyCommandDeps): void {
  switch (outcome.kind) {
    case 'accepted': {
      const { models } = outcome;
      void vscode.window.showInformationMessage(
        `Gateway: API key saved. ${models.length} model${models.length === 1 ? '' : 's'} available: ${models.map((m) => m.id).join(', ')}.`,
      );
      return;
    }
    case 'unchecked':
      void vscode.window.showInformationMessage(
        "Gateway: API key saved; it is checked on first use (a request of yours is waiting for the key's rate limit, so the check did not take its turn).",
      );
      return;
    case 'empty_balance':
      // The key is genuine (it authenticated); only the account is empty. It is kept; say what to do.
      void vscode.window.showWarningMessage(`Gateway: API key saved, but the balance is empty. Top up at ${outcome.billingUrl}.`, 'Top up').then((choice) => {
        if (choice) void vscode.commands.executeCommand('gateway.openBilling');
      });
      return;
    case 'rejected':
      void vscode.window
        .showErrorMessage('The Gateway rejected this API key (401), so it was not stored. Check the key and try again.', 'Set API Key')
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('gateway.setApiKey');
        });
      return;
    case 'failed':
      void deps.errors.show(outcome.error);
  }
}

export async function clearApiKey(deps: ApiKeyCommandDeps): Promise<void> {
  await deps.store.clear();
  deps.limits.reset();
  deps.onKeyChanged();
  void vscode.window.showInformationMessage('Gateway: API key removed from this machine.');
}

/** Why no key can be checked yet (gateway.baseUrl unset or invalid), or undefined when one can. */
function baseUrlProblem(settings: SettingsService): SettingError | undefined {
  try {
    settings.requireBaseUrl();
    return undefined;
  } catch (error) {
    if (error instanceof SettingError) return error;
    throw error;
  }
}

function askForKey(): Thenable<string | undefined> {
  return vscode.window
    .showInputBox({
      title: 'Gateway: Set API Key',
      prompt: "Paste the API key from the Gateway account area. It is kept in VS Code's secret storage.",
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'API key',
      // Says what is wrong without echoing the key (the box is a password field).
      validateInput: (value) => apiKeyProblem(value.trim()),
    })
    .then((value) => value?.trim());
}
