/**
 * Which model answers: the chat model and the agent model, persisted in the
 * `gateway.chatModel` / `gateway.agentModel` settings. When a setting is empty
 * the first model the key may use is taken, so a new user gets answers at once.
 * An @gateway request is answered by the model selected in the Chat view's
 * picker, which then becomes gateway.chatModel; "Select Chat Model" moves that
 * picker too, so the picker, the status bar, Edit Selection and the answer agree.
 */
import * as vscode from 'vscode';
import { SECTION } from '../../settings/vscode';
import { type SettingsService } from '../../settings/common';
import type { ModelCatalog } from './modelCatalog';
import { defaultModel, type ModelRole } from '../common/modelChoice';
import { chatRequestModel, isPlaceholderModel } from '../common/pickerModels';

export type { ModelRole } from '../common/modelChoice';

const settingOf: Record<ModelRole, string> = { chat: 'chatModel', agent: 'agentModel' };

/** How long the status bar waits for the model list to name the default model. */
const STATUS_LISTING_TIMEOUT_MS = 15_000;
/** VS Code's command that selects a model in the Chat view's picker (what Copilot's own fallback uses). */
const CHANGE_CHAT_VIEW_MODEL = 'workbench.action.chat.changeModel';

export class ModelSelection implements vscode.Disposable {
  private readonly used = new vscode.EventEmitter<string>();
  /** Fired with the model an @gateway request was just sent to. */
  readonly onDidUseModel = this.used.event;
  private lastUsed: string | undefined;
  /** Whether the Chat view's picker was last seen on a Gateway model (an @gateway request's, or our move); undefined: not seen. */
  private chatViewOnGateway: boolean | undefined;

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly settings: SettingsService,
    private readonly vendor: string,
  ) {}

  /**
   * The model for an @gateway request: the Chat view's picker when it holds a gateway model, else the configured one.
   * A pick in the Chat view becomes the chat model everywhere (issue 39): gateway.chatModel is written, so the status
   * bar, Select Chat Model's "current", Edit Selection and the next window agree with it. (The stable API tells an
   * extension the Chat view's pick only with a request, so this is where it is learned.)
   */
  async forChatRequest(pickerModel: string | undefined, signal: AbortSignal): Promise<string> {
    this.chatViewOnGateway = pickerModel !== undefined;
    // The picker's placeholder (no key, or no list yet) is never sent nor written: the list is asked for, and its failure is the answer.
    const model = await chatRequestModel(
      pickerModel,
      { configured: () => this.configured('chat'), list: (listSignal, fresh) => this.catalog.models(listSignal, { refresh: fresh }) },
      signal,
    );
    if (pickerModel !== undefined && !isPlaceholderModel(pickerModel) && pickerModel !== this.configured('chat'))
      await this.chooseWhereSet('chat', pickerModel);
    if (model !== this.lastUsed) {
      this.lastUsed = model;
      this.used.fire(model);
    }
    return model;
  }

  /** Writes the role's model where its value comes from now (a workspace's value would hide a user-level write); never fails the request. */
  private async chooseWhereSet(role: ModelRole, model: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const seen = config.inspect<string>(settingOf[role]);
    const target =
      seen?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : seen?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    await config.update(settingOf[role], model, target).then(undefined, () => undefined);
  }

  /** Selects the configured chat model (or `model`) in the Chat view's picker too, so both show one choice. */
  async showInChatView(model = this.configured('chat')): Promise<void> {
    if (!model) return;
    this.lastUsed = undefined;
    // The Chat view switches only to a model it has listed; after a reload (or a settings change that refreshed
    // the list) it may not have ours yet, and the switch did nothing: the view then restored the pick it remembered.
    // Selecting the model through vscode.lm first waits for VS Code to have resolved this vendor's models.
    await vscode.lm.selectChatModels({ vendor: this.vendor, id: model }).then(undefined, () => undefined);
    // The provider lists a model with its id as family (languageModelProvider.ts). An older VS Code without the command keeps its own pick.
    await vscode.commands.executeCommand(CHANGE_CHAT_VIEW_MODEL, { vendor: this.vendor, id: model, family: model }).then(undefined, () => undefined);
  }

  /**
   * The provider's offer switched (languageModelProvider.ts `onDidSwitchOffer`): the Chat view is moved onto `model`, a
   * real one or the placeholder, once VS Code has it (it keeps a vanished model selected, and then has none: "Language
   * model unavailable"). VS Code learns the new list after the provider returns it, so the move waits for its model
   * change, bounded in time. Resolves with the model moved to; undefined when VS Code never listed it in time, or for
   * the placeholder when the Chat view was last seen on another vendor's model (that pick is the user's, not ours).
   */
  async moveChatView(model: string, signal: AbortSignal): Promise<string | undefined> {
    const placeholder = isPlaceholderModel(model);
    if (placeholder && this.chatViewOnGateway === false) return undefined;
    const listed = async () => (await vscode.lm.selectChatModels({ vendor: this.vendor, id: model }).then(undefined, () => [])).length > 0;
    while (!(await listed())) {
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          change.dispose();
          signal.removeEventListener('abort', done);
          resolve();
        };
        const change = vscode.lm.onDidChangeChatModels(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    // A chat model chosen meanwhile (Select Chat Model, the setting) wins over the list's first.
    const target = placeholder ? model : this.configured('chat') || model;
    await this.showInChatView(target);
    this.chatViewOnGateway = true;
    return target;
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

  /** The chat model the status bar names: the one @gateway used last, else the configured one, or the default once a key can list models. */
  async shownChatModel(hasKey: () => Promise<boolean>): Promise<string | undefined> {
    const configured = this.lastUsed ?? this.configured('chat');
    if (configured || !(await hasKey())) return configured || undefined;
    return this.resolve('chat', AbortSignal.timeout(STATUS_LISTING_TIMEOUT_MS));
  }

  async choose(role: ModelRole, model: string): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(settingOf[role], model, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.used.dispose();
  }
}
