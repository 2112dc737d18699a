/**
 * Composition of the features that answer in the editor (part of the composition root, see
 * extension.ts): the @gateway chat participant and the inline edit.
 */
import * as vscode from 'vscode';
import { instructionsForChat } from './customization/common';
import { NodeWorkspaceFiles } from './tools/node';
import type { AgentSessions } from './agent/vscode';
import {
  PARTICIPANT_ID,
  SHOW_THINKING_COMMAND,
  THINKING_SCHEME,
  ThinkingDocuments,
  createChatHandler,
  followupProvider,
  resolvePromptTurn,
  runAgentTurn,
} from './chat/vscode';
import { ThinkingParts } from './chat/common';
import { inlineEditController, PROPOSAL_SCHEME, ProposalDocuments, type InlineEditController } from './inlineEdit/vscode';
import type { Gateway } from './composeGateway';
import { walkthroughAsked } from './status/vscode';
import type { Models } from './composeModels';

export function registerChatParticipant(
  context: vscode.ExtensionContext,
  gateway: Gateway,
  models: Models,
  sessions: AgentSessions,
  budgetNote: (signal: AbortSignal) => Promise<string | undefined>,
) {
  let lastAnswer: string | undefined;
  let lastNotes: readonly string[] = [];
  const thinking = new ThinkingParts();
  const thinkingDocuments = new ThinkingDocuments(thinking);
  const agentTurn = {
    sessions,
    actionsFor: (error: unknown) => gateway.errors.actionsFor(error),
    thinking,
    availableModels: async (signal: AbortSignal) => (await models.catalog.models(signal)).map((model) => model.id),
  };
  const deps: Parameters<typeof createChatHandler>[0] = {
    endpoints: models.endpoints,
    chooseModel: (pickerModel, signal) => models.selection.forChatRequest(pickerModel, signal),
    runAgent: (request, chatContext, stream, token) => runAgentTurn(agentTurn, request, chatContext, stream, token),
    resolvePrompt: (request, stream, token) => resolvePromptTurn(agentTurn, request, stream, token),
    logger: gateway.logger,
    settings: gateway.settings,
    windows: models.windows,
    projectInstructions: (labels, signal) => chatProjectInstructions(labels, () => gateway.settings.current().agent.protectedFiles, gateway.logger, signal),
    budgetNote,
    onAnswer: (text, notes) => {
      walkthroughAsked();
      lastAnswer = text;
      lastNotes = notes;
    },
    thinking,
  };
  // The handler is built at the first request: a large function activate() need not compile.
  let handler: ReturnType<typeof createChatHandler> | undefined;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, chatContext, stream, token) =>
    (handler ??= createChatHandler(deps))(request, chatContext, stream, token),
  );
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = followupProvider;
  context.subscriptions.push(
    participant,
    vscode.workspace.registerTextDocumentContentProvider(THINKING_SCHEME, thinkingDocuments),
    vscode.commands.registerCommand(SHOW_THINKING_COMMAND, (id: unknown) => thinkingDocuments.show(id)),
    vscode.commands.registerCommand('gateway.explainSelection', () =>
      vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /explain ' }),
    ),
  );
  return { lastAnswer: () => lastAnswer, lastNotes: () => [...lastNotes], thinkingParts: () => thinking.recent() };
}

/** The first folder's AGENTS.md and instructions files for a chat request; none without a folder, or when they cannot be read. */
async function chatProjectInstructions(
  labels: string[],
  protectedFileGlobs: () => readonly string[],
  logger: Gateway['logger'],
  signal: AbortSignal,
): Promise<{ text?: string; used: readonly string[] } | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (root?.scheme !== 'file') return undefined;
  const found = await instructionsForChat(
    new NodeWorkspaceFiles(root.fsPath, { protectedFiles: protectedFileGlobs }),
    labels,
    protectedFileGlobs(),
    signal,
    logger,
  );
  return found;
}

/** Edit Selection's commands; the controller (its code, listeners and code lenses) is made at their first use. */
export function registerInlineEdit(context: vscode.ExtensionContext, gateway: Gateway, models: Models): Pick<InlineEditController, 'status'> {
  const proposals = new ProposalDocuments();
  let made: InlineEditController | undefined;
  const inlineEdits = (): InlineEditController => {
    if (made) return made;
    const Controller = inlineEditController();
    made = new Controller(
      models.endpoints,
      (signal) => models.selection.resolve('chat', signal),
      proposals,
      gateway.errors,
      context.globalState,
      gateway.settings,
    );
    context.subscriptions.push(made);
    return made;
  };
  context.subscriptions.push(
    proposals,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.commands.registerCommand('gateway.editSelection', (instruction?: unknown) => inlineEdits().editSelection(instruction)),
    vscode.commands.registerCommand('gateway.inlineEdit.accept', () => inlineEdits().accept()),
    vscode.commands.registerCommand('gateway.inlineEdit.reject', () => inlineEdits().reject()),
  );
  return { status: () => made?.status() };
}
