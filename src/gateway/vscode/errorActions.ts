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
  PacingQueueFullError,
  RateLimitError,
} from '../common/errors';
import { KeyOriginError } from '../common/keyOrigin';
import { modelPickersFor, type ModelPickerCommand } from '../common/modelErrorActions';
import { SettingError } from '../../settings/common';

/** The chat and agent models the user chose (their settings), so a missing model's error offers the picker that changes it. */
export interface ConfiguredModels {
  chatModel: string;
  agentModel: string;
}

const PICKER_TITLES: Record<ModelPickerCommand, string> = { 'gateway.selectModel': 'Select Chat Model', 'gateway.selectAgentModel': 'Select Agent Model' };

export function actionsFor(error: unknown, configured: ConfiguredModels): vscode.Command[] {
  if (error instanceof MissingApiKeyError || error instanceof AuthError) {
    return [{ title: 'Set API Key', command: 'gateway.setApiKey' }];
  }
  if (error instanceof KeyOriginError) {
    return [
      { title: 'Allow the Key There', command: 'gateway.confirmKeyOrigin' },
      { title: 'Set API Key', command: 'gateway.setApiKey' },
    ];
  }
  if (error instanceof BalanceError) return [{ title: 'Top up', command: 'gateway.openBilling' }];
  if (error instanceof RateLimitError) return [{ title: 'View Limits', command: 'gateway.openLimits' }];
  // Too many requests wait already: sessions running at once are the usual cause, and the Sessions view stops one.
  if (error instanceof PacingQueueFullError)
    return [
      { title: 'Show Agent Sessions', command: 'gateway.agent.show' },
      { title: 'View Limits', command: 'gateway.openLimits' },
    ];
  if (error instanceof ModelNotFoundError) return modelPickersFor(error.model, configured).map((command) => ({ title: PICKER_TITLES[command], command }));
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
