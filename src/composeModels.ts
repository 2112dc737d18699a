/**
 * Composition of which model answers (part of the composition root, see extension.ts): the catalog
 * of the key's models, the configured choice, VS Code's model picker, and the status bar that shows them.
 */
import * as vscode from 'vscode';
import { ModelWindows } from './models/common';
import { ModelEndpoints } from './models/common';
import { LM_VENDOR } from './chat/vscode';
import { GatewayLanguageModelProvider, ModelCatalog, ModelPicker, ModelSelection, learnedWindows } from './models/vscode';
import { settingOrUndefined } from './settings/common';
import { GatewayStatusBar } from './status/vscode';
import type { Gateway } from './composeGateway';

/** How long a move of the Chat view's picker (onto or off the placeholder) waits for VS Code to list the model. */
const PICKER_MOVE_TIMEOUT_MS = 30_000;

/** Which model answers: the catalog of the key's models, the configured choice, VS Code's model picker. */
export interface Models {
  endpoints: ModelEndpoints;
  catalog: ModelCatalog;
  selection: ModelSelection;
  languageModels: GatewayLanguageModelProvider;
  /** Each model's context window: gateway.models, learned from the gateway's errors, or the default. */
  windows: ModelWindows;
}

export function createModels(context: vscode.ExtensionContext, gateway: Gateway): Models {
  const { client, keys, logger, settings } = gateway;
  const endpoints = new ModelEndpoints(client);
  const catalog = new ModelCatalog(client, context.globalState, () => settings.requireBaseUrl());
  const selection = new ModelSelection(catalog, settings, LM_VENDOR);
  const baseUrlOrEmpty = () => settingOrUndefined(() => settings.requireBaseUrl()) ?? '';
  const windows = new ModelWindows(() => settings.current().models, baseUrlOrEmpty, learnedWindows(context.globalState));
  // The configured chat model (or its default) is listed first, so VS Code's picker selects the model @gateway uses.
  const languageModels = new GatewayLanguageModelProvider({
    catalog,
    keys,
    endpoints,
    logger,
    preferredModel: () => selection.resolveFromLastList('chat'),
    windows,
    settings,
    state: context.globalState,
  });
  context.subscriptions.push(
    catalog,
    selection,
    languageModels,
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, languageModels),
    // The placeholder gone (key set, a list received), or back (key cleared): the Chat view's picker follows.
    languageModels.onDidSwitchOffer((model) => void movePicker(model)),
  );
  return { endpoints, catalog, selection, languageModels, windows };

  async function movePicker(model: string): Promise<void> {
    const moved = await selection.moveChatView(model, AbortSignal.timeout(PICKER_MOVE_TIMEOUT_MS));
    // Logged: a question asked before the move meets VS Code's "Language model unavailable" (its picker on a vanished model).
    if (moved) logger.info(`the Chat view's model picker moved to ${moved}`);
    else
      logger.info(
        `the Chat view's model picker left as it is (another vendor's model, or VS Code did not list ${model} within ${PICKER_MOVE_TIMEOUT_MS / 1000} s)`,
      );
  }
}

export function createStatusBar(context: vscode.ExtensionContext, gateway: Gateway, models: Models, today: () => string | undefined): GatewayStatusBar {
  const { keys, limits } = gateway;
  const statusBar = new GatewayStatusBar({
    limits,
    model: () => models.selection.shownChatModel(() => keys.hasKey()),
    hasKey: () => keys.hasKey(),
    siteUrl: () => settingOrUndefined(gateway.siteUrl),
    lastRequest: () => {
      const last = gateway.client.lastRequest;
      return last && { inputTokens: last.inputTokens, contextWindow: last.model ? models.windows.limitsOf(last.model).contextWindow : undefined };
    },
    today,
  });
  models.catalog.onDidChange(() => void statusBar.refresh());
  models.selection.onDidUseModel(() => void statusBar.refresh());
  context.subscriptions.push(statusBar);
  return statusBar;
}

export function registerModelAndSiteCommands(context: vscode.ExtensionContext, gateway: Gateway, models: Models): void {
  const picker = new ModelPicker(models.catalog, models.selection, gateway.errors);
  const openSitePage = async (page: string) => {
    try {
      await vscode.env.openExternal(vscode.Uri.parse(`${gateway.siteUrl()}/cabinet/${page}`));
    } catch (error) {
      // No base URL yet: the message says which setting to fill in, rather than opening a made-up address.
      await gateway.errors.show(error);
    }
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('gateway.selectModel', () => picker.pick('chat')),
    vscode.commands.registerCommand('gateway.selectAgentModel', () => picker.pick('agent')),
    vscode.commands.registerCommand('gateway.openBilling', () => openSitePage('billing')),
    vscode.commands.registerCommand('gateway.openLimits', () => openSitePage('limits')),
    vscode.commands.registerCommand('gateway.showLog', () => gateway.channel.show()),
  );
}
