/**
 * Which model answers: the chat model and the agent model, persisted in the
 * `gateway.chatModel` / `gateway.agentModel` settings. When a setting is empty
 * the first model the key may use is taken, so a new user gets answers at once.
 */
import * as vscode from 'vscode';
import { SECTION, type SettingsService } from '../../settings/vscode';
import type { ModelCatalog } from './modelCatalog';
import { chooseModel, defaultModel, type ModelRole } from '../common/modelChoice';

export type { ModelRole } from '../common/modelChoice';

const settingOf: Record<ModelRole, string> = { chat: 'chatModel', agent: 'agentModel' };

const LAST_PICKER_MODEL = 'gateway.lastChatViewPickerModel';
/** How long the status bar waits for the model list to name the default model. */
const STATUS_LISTING_TIMEOUT_MS = 15_000;

export class ModelSelection {
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly state: vscode.Memento,
    private readonly settings: SettingsService,
  ) {}

  /** The model for an @gateway request, following the Chat view's picker when the user switched it. */
  async forChatRequest(pickerModel: string | undefined, defaultPickerModel: string | undefined, signal: AbortSignal): Promise<string> {
    const choice = chooseModel({
      pickerModel,
      lastSeenPickerModel: this.state.get<string>(LAST_PICKER_MODEL),
      configuredModel: await this.resolve('chat', signal),
      defaultPickerModel,
    });
    await this.state.update(LAST_PICKER_MODEL, choice.lastSeenPickerModel);
    if (choice.adoptAsChatModel) await this.choose('chat', choice.model);
    return choice.model;
  }

  configured(role: ModelRole): string {
    // One setting, not current(): the status bar asks while the extension activates, before anything needs the others.
    return this.settings.get(role === 'chat' ? 'chatModel' : 'agentModel');
  }

  /** The configured model, or the default of the models the key may use (see `defaultModel`). */
  async resolve(role: ModelRole, signal: AbortSignal): Promise<string> {
    const configured = this.configured(role);
    if (configured) return configured;
    const model = defaultModel(role, await this.catalog.models(signal));
    if (model === undefined) throw new Error("This key may not use any model. Check your plan at the Gateway's account area.");
    return model;
  }

  /** `resolve` without asking the gateway: the default comes from the last list it gave (undefined before any). */
  resolveFromLastList(role: ModelRole): string | undefined {
    return this.configured(role) || defaultModel(role, this.catalog.lastKnown());
  }

  /** The chat model the status bar names: the configured one, or the default once a key can list models. */
  async shownChatModel(hasKey: () => Promise<boolean>): Promise<string | undefined> {
    const configured = this.configured('chat');
    if (configured || !(await hasKey())) return configured || undefined;
    return this.resolve('chat', AbortSignal.timeout(STATUS_LISTING_TIMEOUT_MS));
  }

  async choose(role: ModelRole, model: string): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(settingOf[role], model, vscode.ConfigurationTarget.Global);
  }
}
