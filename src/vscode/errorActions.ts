/**
 * What the user can do about each failure: the same actions as notification
 * buttons and as chat buttons.
 */
import type * as vscode from 'vscode';
import {
  AbortError,
  AuthError,
  BalanceError,
  ConnectionError,
  EndpointError,
  MissingApiKeyError,
  ModelNotFoundError,
  RateLimitError,
} from '../core/api';
import { SettingError } from './settings';

export function actionsFor(error: unknown): vscode.Command[] {
  if (error instanceof MissingApiKeyError || error instanceof AuthError) {
    return [{ title: 'Set API Key', command: 'gateway.setApiKey' }];
  }
  if (error instanceof BalanceError) return [{ title: 'Top up', command: 'gateway.openBilling' }];
  if (error instanceof RateLimitError) return [{ title: 'View Limits', command: 'gateway.openLimits' }];
  if (error instanceof ModelNotFoundError) return [{ title: 'Select Model', command: 'gateway.selectModel' }];
  if (error instanceof SettingError) return [openSetting(error.setting)];
  if (error instanceof ConnectionError || error instanceof EndpointError) return [openSetting('baseUrl')];
  return [];
}

export function messageOf(error: unknown): string {
  if (error instanceof AbortError) return 'Cancelled.';
  if (error instanceof Error) return error.message;
  return String(error);
}

function openSetting(setting: string): vscode.Command {
  return { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: [`gateway.${setting}`] };
}
