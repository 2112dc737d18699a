/**
 * The gateway's models in VS Code's own model picker
 * (`vscode.lm.registerLanguageModelChatProvider`): text and tool calls streamed.
 * The message conversion is in languageModelMessages.ts.
 */
import * as vscode from 'vscode';
import { droppedNote, streamFitted } from '../common/historyFit';
import { estimateTokens, toChatMessages } from '../common/languageModelMessages';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, type ModelWindows } from '../common/modelWindows';
import { ShownNotes, type ModelInfo, type ToolDefinition } from '../../gateway/common';
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
}

export class GatewayLanguageModelProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

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
  }

  /** Tells VS Code to ask again (key set or cleared, base URL changed). */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelChatInformation[]> {
    // With no key there is nothing to list, and nothing to complain about either.
    if (!(await this.keys.hasKey())) return [];
    let models: ModelInfo[];
    try {
      models = await this.catalog.models(toAbortSignal(token));
    } catch (error) {
      this.logger.warn(`model list for VS Code's picker failed: ${error instanceof Error ? error.message : String(error)}`);
      // No empty picker: VS Code would not hand @gateway the question at all ("Language model unavailable"). What a
      // gateway listed before, from any address, is offered: a question then gets the real error (unreachable, a
      // malformed address, 401, 402…) in the chat with its fix.
      models = this.catalog.offeredWhileAway();
      if (models.length === 0 && !options.silent) throw error;
    }
    const preferred = this.preferredModel();
    // The configured chat model first: VS Code selects the first model by default, so the two agree.
    const ordered = [...models].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
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
    this.changed.dispose();
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
