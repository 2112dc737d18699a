/**
 * Composition root: builds the objects, registers them with VS Code, nothing else.
 */
import * as vscode from 'vscode';
import { GatewayClient, LimitTracker } from './core/api';
import { ModelEndpoints } from './core/chat/modelEndpoints';
import { systemClock } from './core/ports';
import { NodeCommandRunner, NodeWorkspaceFiles } from './node';
import { clearApiKey, setApiKey, type ApiKeyCommandDeps } from './vscode/apiKeyCommands';
import { ApiKeyStore } from './vscode/apiKeyStore';
import { CONFIRM_KEY_ORIGIN_COMMAND, configuredOrigin, confirmKeyOrigin } from './vscode/keyOriginPrompt';
import { PARTICIPANT_ID } from './vscode/chat/context';
import { createChatHandler, followupProvider, LM_VENDOR } from './vscode/chat/participant';
import { ErrorPresenter } from './vscode/errorPresenter';
import { GatewayLanguageModelProvider } from './vscode/languageModelProvider';
import { channelLogger } from './vscode/logger';
import { ModelCatalog } from './vscode/modelCatalog';
import { ModelPicker } from './vscode/modelPicker';
import { ModelSelection } from './vscode/modelSelection';
import { readSettings, requireBaseUrl, SECTION, SettingError } from './vscode/settings';
import { GatewayStatusBar } from './vscode/statusBar';
import { registerAgentCommands } from './vscode/agent/agentCommands';
import { AgentSessions } from './vscode/agent/agentSessions';
import { ApprovalBroker, PROPOSED_SCHEME } from './vscode/agent/approvalBroker';
import { FileSessionStore } from './vscode/agent/sessionStore';
import { SessionsTree } from './vscode/agent/sessionsTree';
import { TRANSCRIPT_SCHEME, TranscriptProvider } from './vscode/agent/transcript';
import { runAgentTurn } from './vscode/chat/agentTurn';
import { InlineEditController } from './vscode/inlineEdit/inlineEditController';
import { PROPOSAL_SCHEME, ProposalDocuments } from './vscode/inlineEdit/proposalDocuments';

/** What the extension exports: read-only views for automation and the end-to-end tests. */
export interface GatewayExtensionApi {
  statusText(): string | undefined;
  statusState(): string | undefined;
  hasApiKey(): Promise<boolean>;
  /** The text of the last answer @gateway finished. */
  lastChatAnswer(): string | undefined;
  /** How long activate() took, in milliseconds. */
  activationMs(): number;
  /** Approvals the agent waits for: session and call ids with their one-line summary. */
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  /** The inline edit waiting for Accept / Reject, if any. */
  inlineEdit(): { streaming: boolean; proposal: string } | undefined;
  /** The saved agent sessions, newest first. */
  agentSessions(): Promise<{ id: string; title: string; status: string; turns: number; statusReason?: string }[]>;
}

export function activate(context: vscode.ExtensionContext): GatewayExtensionApi {
  const activationStarted = performance.now();
  const channel = vscode.window.createOutputChannel('Gateway', { log: true });
  const logger = channelLogger(channel);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
  const userAgent = `gateway-vscode/${version} vscode/${vscode.version}`;
  const keys = new ApiKeyStore(context.secrets, configuredOrigin);
  const limits = new LimitTracker(systemClock, readLimitsSafely());
  const baseUrl = () => requireBaseUrl(readSettings());
  const siteUrl = () => siteUrlSafely();
  const clientOptions = { baseUrl, siteUrl, userAgent, logger, limits };
  const client = new GatewayClient({ ...clientOptions, apiKey: keys });
  const endpoints = new ModelEndpoints(client);
  const catalog = new ModelCatalog(client, context.globalState, baseUrl);
  const selection = new ModelSelection(catalog, context.globalState);
  const errors = new ErrorPresenter(logger);
  const picker = new ModelPicker(catalog, selection, errors);
  const languageModels = new GatewayLanguageModelProvider(catalog, keys, endpoints, logger, () => selection.configured('chat') || catalog.lastKnown().find((m) => !/code/i.test(m.id))?.id);
  const statusBar = new GatewayStatusBar({
    limits,
    model: () => statusModel(),
    hasKey: () => keys.hasKey(),
    siteUrl,
  });

  catalog.onDidChange(() => void statusBar.refresh());
  const sessionFolder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'agent-sessions');
  const sessionStore = new FileSessionStore(sessionFolder, logger);
  const approvals = new ApprovalBroker(vscode.workspace.workspaceFolders?.[0]?.uri ?? context.globalStorageUri);
  const sessions = new AgentSessions(client, sessionStore, approvals, (signal) => selection.resolve('agent', signal), logger, {
    files: (rootPath) => new NodeWorkspaceFiles(rootPath),
    runChildProcess: (rootPath, command, cwd, timeoutMs, signal, onOutput) => new NodeCommandRunner(rootPath, { onOutput }).run(command, cwd, timeoutMs, signal),
  });
  sessions.recoverInterrupted().catch((error: unknown) => logger.warn(`recovering interrupted agent sessions failed: ${String(error)}`));
  const sessionsTree = new SessionsTree(sessions);
  const transcripts = new TranscriptProvider(sessionStore);
  const proposals = new ProposalDocuments();
  const inlineEdits = new InlineEditController(endpoints, (signal) => selection.resolve('chat', signal), proposals, errors, context.globalState);
  let lastAnswer: string | undefined;
  const onKeyChanged = () => {
    catalog.invalidate();
    languageModels.refresh();
    void statusBar.refresh();
  };
  // A key set or cleared in another window: what was learned of the old key's limits and balance no longer applies.
  keys.onDidChangeKey(() => {
    limits.reset();
    onKeyChanged();
  });
  const keyDeps: ApiKeyCommandDeps = {
    store: keys,
    // The check has limits of its own, so a key the gateway refuses leaves the current key's state untouched.
    clientWithKey: (key) =>
      new GatewayClient({ ...clientOptions, limits: new LimitTracker(systemClock, readLimitsSafely()), apiKey: { getApiKey: async () => key } }),
    limits,
    errors,
    onKeyChanged,
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, createChatHandler({
      endpoints,
      chooseModel: (picker, signal) => selection.forChatRequest(picker, languageModels.defaultPickerModel(), signal),
      runAgent: (request, chatContext, stream, token) => runAgentTurn(sessions, request, chatContext, stream, token),
      logger, onAnswer: (text) => (lastAnswer = text) }));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = followupProvider;

  context.subscriptions.push(
    channel,
    keys,
    catalog,
    statusBar,
    languageModels,
    participant,
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, languageModels),
    vscode.commands.registerCommand('gateway.setApiKey', (key?: unknown) => setApiKey(keyDeps, key)),
    vscode.commands.registerCommand('gateway.clearApiKey', () => clearApiKey(keyDeps)),
    vscode.commands.registerCommand(CONFIRM_KEY_ORIGIN_COMMAND, () => confirmKeyOrigin(keys, onKeyChanged)),
    vscode.commands.registerCommand('gateway.selectModel', () => picker.pick('chat')),
    vscode.commands.registerCommand('gateway.selectAgentModel', () => picker.pick('agent')),
    vscode.commands.registerCommand('gateway.openBilling', () => vscode.env.openExternal(vscode.Uri.parse(`${siteUrl()}/cabinet/billing`))),
    vscode.commands.registerCommand('gateway.openLimits', () => vscode.env.openExternal(vscode.Uri.parse(`${siteUrl()}/cabinet/limits`))),
    vscode.commands.registerCommand('gateway.showLog', () => channel.show()),
    sessionStore,
    approvals,
    sessions,
    sessionsTree,
    transcripts,
    vscode.window.registerTreeDataProvider('gateway.agentSessions', sessionsTree),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, approvals),
    vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    ...registerAgentCommands(sessions, errors),
    proposals,
    inlineEdits,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.commands.registerCommand('gateway.editSelection', (instruction?: unknown) => inlineEdits.editSelection(instruction)),
    vscode.commands.registerCommand('gateway.inlineEdit.accept', () => inlineEdits.accept()),
    vscode.commands.registerCommand('gateway.inlineEdit.reject', () => inlineEdits.reject()),
    vscode.commands.registerCommand('gateway.explainSelection', () => vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /explain ' })),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) return;
      if (event.affectsConfiguration(`${SECTION}.baseUrl`)) {
        onKeyChanged();
        // The key stays with the origin it was set for until the user says otherwise.
        void confirmKeyOrigin(keys, onKeyChanged);
      }
      if (event.affectsConfiguration(`${SECTION}.chatModel`)) languageModels.refresh();
      limits.setConfiguredLimits(readLimitsSafely());
      void statusBar.refresh();
      try {
        readSettings();
      } catch (error) {
        void errors.show(error);
      }
    }),
  );
  const activationMs = performance.now() - activationStarted;
  logger.info(`activated ${userAgent} in ${activationMs.toFixed(1)} ms`);

  return {
    statusText: () => statusBar.current()?.text,
    statusState: () => statusBar.current()?.state,
    hasApiKey: () => keys.hasKey(),
    lastChatAnswer: () => lastAnswer,
    activationMs: () => activationMs,
    inlineEdit: () => inlineEdits.status(),
    pendingApprovals: () => approvals.waiting().map((r) => ({ sessionId: r.sessionId, callId: r.callId, summary: r.summary })),
    agentSessions: async () => (await sessionStore.list()).map((s) => ({ id: s.id, title: s.title, status: s.status, turns: s.turns, statusReason: s.statusReason })),
  };

  /** The model the status bar names: the configured one, or the default once a key can list models. */
  async function statusModel(): Promise<string | undefined> {
    const configured = selection.configured('chat');
    if (configured || !(await keys.hasKey())) return configured || undefined;
    return selection.resolve('chat', AbortSignal.timeout(15_000));
  }

  function readLimitsSafely() {
    try {
      return readSettings().limits;
    } catch (error) {
      if (error instanceof SettingError) return { requestsPerMinute: 60, tokensPerMinute: 200_000 };
      throw error;
    }
  }

  function siteUrlSafely(): string {
    try {
      const settings = readSettings();
      return settings.siteUrl ?? (settings.baseUrl ? new URL(settings.baseUrl).origin : 'https://gateway.example');
    } catch {
      return 'https://gateway.example';
    }
  }
}

export function deactivate(): void {}
