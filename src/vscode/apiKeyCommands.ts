/**
 * "Gateway: Set API Key" and "Gateway: Clear API Key". A key is checked with
 * GET /v1/models before it is stored; a rejected key is never stored.
 */
import * as vscode from 'vscode';
import { AuthError, BalanceError, GatewayClient, type ModelInfo } from '../core/api';
import type { ApiKeyStore } from './apiKeyStore';
import type { ErrorPresenter } from './errorPresenter';

export interface ApiKeyCommandDeps {
  store: ApiKeyStore;
  /** A client that uses the given key instead of the stored one. */
  clientWithKey: (key: string) => GatewayClient;
  errors: ErrorPresenter;
  /** Runs before a new key is checked. */
  beforeKeyCheck: () => void;
  onKeyChanged: () => void;
}

/** Set API Key. `keyArgument` lets automation pass the key without the input box. */
export async function setApiKey(deps: ApiKeyCommandDeps, keyArgument?: unknown): Promise<boolean> {
  const key = typeof keyArgument === 'string' ? keyArgument.trim() : await askForKey();
  if (!key) return false;
  deps.beforeKeyCheck();
  let models: ModelInfo[];
  try {
    models = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Gateway: checking the API key…', cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return deps.clientWithKey(key).listModels({ signal: controller.signal });
      },
    );
  } catch (error) {
    if (error instanceof BalanceError) {
      // The key is genuine (it authenticated); only the account is empty. Keep it and say what to do.
      await deps.store.store(key);
      deps.onKeyChanged();
      void vscode.window.showWarningMessage(`Gateway: API key saved, but the balance is empty. Top up at ${error.billingUrl}.`, 'Top up').then((choice) => {
        if (choice) void vscode.commands.executeCommand('gateway.openBilling');
      });
      return true;
    }
    if (error instanceof AuthError) {
      void vscode.window.showErrorMessage('The Gateway rejected this API key (401), so it was not stored. Check the key and try again.', 'Set API Key').then((choice) => {
        if (choice) void vscode.commands.executeCommand('gateway.setApiKey');
      });
    } else {
      void deps.errors.show(error);
    }
    return false;
  }
  await deps.store.store(key);
  deps.onKeyChanged();
  void vscode.window.showInformationMessage(`Gateway: API key saved. ${models.length} model${models.length === 1 ? '' : 's'} available: ${models.map((m) => m.id).join(', ')}.`);
  return true;
}

export async function clearApiKey(deps: ApiKeyCommandDeps): Promise<void> {
  await deps.store.clear();
  deps.onKeyChanged();
  void vscode.window.showInformationMessage('Gateway: API key removed from this machine.');
}

function askForKey(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Gateway: Set API Key',
    prompt: 'Paste the API key from the Gateway account area. It is kept in VS Code\'s secret storage.',
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'API key',
    validateInput: (value) => (value.trim() === '' ? 'Enter a key' : /\s/.test(value.trim()) ? 'A key has no spaces' : undefined),
  }).then((value) => value?.trim());
}
