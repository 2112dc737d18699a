/**
 * The gateway's models in VS Code's own model picker
 * (`vscode.lm.registerLanguageModelChatProvider`): text and tool calls streamed.
 * The message conversion is in languageModelMessages.ts.
 */
import * as vscode from 'vscode';
import { droppedNote, streamFitted } from '../common/historyFit';
import { estimateTokens, toChatMessages } from '../common/languageModelMessages';
import { isPlaceholderModel, PLACEHOLDER_MODEL_ID, pickerOffer, placeholderRefusal, placeholderText, type PickerOffer } from '../common/pickerModels';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, type ModelWindows } from '../common/modelWindows';
import { ShownNotes, type ToolDefinition } from '../../gateway/common';
import type { ModelEndpoints } from '../common/modelEndpoints';
import type { Logger } from '../../base/common';
import type { ApiKeyStore } from '../../gateway/vscode';
import { toAbortSignal } from '../../base/vscode';
import type { ModelCatalog } from './modelCatalog';
import { requestParameters, type SettingsService } from '../../settings/common';

export { toChatMessages } from '../common/languageModelMessages';

export interface LanguageModelProviderDeps {
  catalog: ModelCatalog;
  keys: ApiKeyStore;
  endpoints: ModelEndpoints;
  logger: Logger;
  /** The configured chat model, listed first. */
  preferredModel: () => string | undefined;
  /** Each model's window and output limit: gateway.models, learned from the gateway's errors, or the default. */
  windows?: ModelWindows;
  /** The request parameters (temperature, top_p…) each answer is sent with. */
  settings: SettingsService;
  /** VS Code's global state: whether the placeholder was the last offer, so a later window moves the picker off it too. */
  state: vscode.Memento;
}

/** What VS Code's picker was last given, 'placeholder' or 'models' (in any window): a later window moves the picker too. */
const LAST_OFFER = 'gateway.pickerLastOffer';

export class GatewayLanguageModelProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly pickerMove = new vscode.EventEmitter<string>();
  /** What VS Code was last given (undefined before its first question in this window). */
  private offered: PickerOffer | undefined;
  private readonly state: vscode.Memento;
  private readonly catalogWatch: vscode.Disposable;

  private readonly catalog: ModelCatalog;
  private readonly keys: ApiKeyStore;
  private readonly endpoints: ModelEndpoints;
  private readonly logger: Logger;
  private readonly preferredModel: () => string | undefined;
  private readonly windows: ModelWindows | undefined;
  private readonly settings: SettingsService;

  constructor(deps: LanguageModelProviderDeps) {
    this.catalog = deps.catalog;
    this.keys = deps.keys;
    this.endpoints = deps.endpoints;
    this.logger = deps.logger;
    this.settings = deps.settings;
    this.preferredModel = deps.preferredModel;
    this.windows = deps.windows;
    this.state = deps.state;
    // A list received while the placeholder is shown (a question's listing, a Retry, the Select Chat Model refresh):
    // VS Code is told at once, so the placeholder goes. (Only then: each listing fires the catalog's change.)
    this.catalogWatch = this.catalog.onDidChange(() => {
      if (this.offered?.kind === 'placeholder') this.changed.fire();
    });
  }

  /**
   * Fired with the model the Chat view's picker should move to when the offer switched: the first model listed when a
   * real list replaced the placeholder, the placeholder when it replaced the models (the key cleared). VS Code keeps a
   * vanished model selected, and then answers every question "Language model unavailable" without asking @gateway.
   */
  readonly onDidSwitchOffer = this.pickerMove.event;

  /** Tells VS Code to ask again (key set or cleared, base URL changed). */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    _options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelChatInformation[]> {
    const offer = await pickerOffer(
      {
        hasKey: () => this.keys.hasKey(),
        list: (signal) => this.catalog.models(signal),
        offeredWhileAway: () => this.catalog.offeredWhileAway(),
      },
      toAbortSignal(token),
    );
    const before = this.offered?.kind ?? this.state.get<PickerOffer['kind']>(LAST_OFFER);
    this.offered = offer;
    if (offer.kind !== before) void this.state.update(LAST_OFFER, offer.kind);
    if (offer.failure)
      this.logger.warn(`model list for VS Code's picker failed${offer.kind === 'placeholder' ? ', none received before' : ''}: ${offer.failure}`);
    if (offer.kind === 'placeholder') {
      // No empty picker: VS Code would not hand @gateway the question at all ("Language model unavailable"). The same
      // capabilities as a real model, so no mode of the Chat view hides it.
      const text = placeholderText(offer.reason);
      if (before === 'models') this.pickerMove.fire(PLACEHOLDER_MODEL_ID);
      return [
        {
          ...this.tokenLimits(PLACEHOLDER_MODEL_ID),
          id: PLACEHOLDER_MODEL_ID,
          family: PLACEHOLDER_MODEL_ID,
          version: '1',
          ...text,
          capabilities: { toolCalling: true, imageInput: false },
        },
      ];
    }
    const preferred = this.preferredModel();
    // The configured chat model first: VS Code selects the first model by default, so the two agree.
    const ordered = [...offer.models].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
    // VS Code keeps a vanished model selected (and then has none): the Chat view's picker is moved off the placeholder.
    if (before === 'placeholder' && ordered.length > 0) this.pickerMove.fire(ordered[0].id);
    return ordered.map((model) => ({
      ...this.tokenLimits(model.id),
      id: model.id,
      name: model.id,
      family: model.id,
      version: '1',
      detail: 'Gateway',
      tooltip: `${model.id} via the Gateway`,
      capabilities: { toolCalling: true, imageInput: false },
    }));
  }

  private tokenLimits(model: string): { maxInputTokens: number; maxOutputTokens: number } {
    const limits = this.windows?.limitsOf(model) ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS };
    // VS Code counts the input against maxInputTokens: the output must fit in the same window.
    return { maxInputTokens: Math.max(1, limits.contextWindow - limits.maxOutputTokens), maxOutputTokens: limits.maxOutputTokens };
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // The placeholder is not a model: another extension's (or VS Code's) request is refused with what to do, never sent.
    if (isPlaceholderModel(model.id)) {
      const offered = this.offered?.kind === 'placeholder' ? this.offered : undefined;
      throw new Error(placeholderRefusal((await this.keys.hasKey()) ? 'not-listed' : 'no-key', offered?.failure));
    }
    const settings = this.settings.current();
    const tools: ToolDefinition[] | undefined = options.tools?.length
      ? options.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema as Record<string, unknown> | undefined }))
      : undefined;
    const events = streamFitted(
      this.endpoints,
      {
        model: model.id,
        messages: toChatMessages(messages),
        tools,
        toolChoice: tools && options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : undefined,
        ...requestParameters(settings),
      },
      this.windows,
      { signal: toAbortSignal(token), origin: { surface: 'lm' } },
      (dropped, contextWindow) => {
        this.logger.info(`language-model request for ${model.id}: ${dropped} oldest messages left out to fit its ${contextWindow}-token window`);
        progress.report(new vscode.LanguageModelTextPart(`${droppedNote(dropped)}\n\n`));
      },
    );
    // VS Code's parts are text and tool calls only: a note goes to the log rather than into the answer's text.
    const notes = new ShownNotes();
    const log = (note: string | undefined) => note !== undefined && this.logger.info(`language-model answer from ${model.id}: ${note}`);
    for await (const event of events) {
      if (event.type === 'text') progress.report(new vscode.LanguageModelTextPart(event.text));
      else if (event.type === 'tool_call')
        progress.report(new vscode.LanguageModelToolCallPart(event.call.callId, event.call.name, parseArguments(event.call.arguments)));
      else if (event.type === 'note') log(notes.take(event.text));
    }
    log(notes.rest());
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    // Counted on the text the request will carry, so budgets match what is sent (an image is a short placeholder).
    return typeof text === 'string' ? estimateTokens([{ role: 'user', content: text }]) : estimateTokens(toChatMessages([text]));
  }

  dispose(): void {
    this.catalogWatch.dispose();
    this.changed.dispose();
    this.pickerMove.dispose();
  }
}

function parseArguments(text: string): object {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' ? value : { value };
  } catch {
    return { raw: text };
  }
}
