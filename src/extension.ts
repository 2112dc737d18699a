/**
 * Composition root: builds the objects, registers them with VS Code, nothing else.
 * Each rule it wires lives in its module (model defaults in modelChoice.ts, limit
 * defaults in limits.ts, the site URL in the transport); the functions below only
 * connect them, one area of the extension each.
 */
import * as vscode from 'vscode';
import { GatewayClient, LimitTracker, ModelWindows } from './gateway/common';
import { ModelEndpoints } from './models/common';
import { systemClock, type Logger } from './base/common';
import { instructionsForChat } from './agent/common';
import { FileSharedWindow } from './rateLimits/node';
import { FileUsageStorage } from './usage/node';
import { NodeJournalFolder, nodeLocalMachine } from './agent/node';
import { NodeWorkspaceFiles, findVsCodeRipgrep } from './tools/node';
import { BubblewrapSandbox } from './terminal/node';
import { RETENTION_BOUNDS, checkpointStorageBytes } from './checkpoints/common';
import {
  registerDeleteSessionCommand,
  registerAgentCommands,
  AgentSessions,
  ApprovalBroker,
  PROPOSED_SCHEME,
  FileSessionStore,
  SessionsTree,
  TRANSCRIPT_SCHEME,
  TranscriptProvider,
} from './agent/vscode';
import {
  clearApiKey,
  setApiKey,
  type ApiKeyCommandDeps,
  ApiKeyStore,
  CONFIRM_KEY_ORIGIN_COMMAND,
  configuredOrigin,
  confirmKeyOrigin,
  ErrorPresenter,
} from './gateway/vscode';
import { PARTICIPANT_ID, createChatHandler, followupProvider, LM_VENDOR, runAgentTurn } from './chat/vscode';
import { GatewayLanguageModelProvider, ModelCatalog, ModelPicker, ModelSelection, learnedWindows } from './models/vscode';
import { channelLogger } from './base/vscode';
import { createSettingsService, settingOrUndefined, type SettingsService } from './settings/vscode';
import { GatewayStatusBar } from './status/vscode';
import { registerCheckpointCommands } from './checkpoints/vscode';
import { chooseHostTools } from './tools/vscode';
import { InlineEditController, PROPOSAL_SCHEME, ProposalDocuments } from './inlineEdit/vscode';
import { UsageLog } from './usage/common';
import { UsageView } from './usage/vscode';
import { gatewayTestApi, type GatewayExtensionApi } from './testApi';

/** The objects every area uses: the log, the key, the gateway client and what it knows of the limits. */
interface Gateway {
  channel: vscode.LogOutputChannel;
  logger: Logger & { recentLines(): string[] };
  userAgent: string;
  keys: ApiKeyStore;
  limits: LimitTracker;
  client: GatewayClient;
  /** A client that checks `key` instead of the stored one, with limits of its own. */
  clientWithKey: (key: string) => GatewayClient;
  /** `{site_url}` by the transport's rule; throws the SettingError while no base URL is set. */
  siteUrl: () => string;
  errors: ErrorPresenter;
  /** The `gateway.*` settings, read once and on change. */
  settings: SettingsService;
  /** Every answered request's counts, in global storage (shared by the windows). */
  usageLog: UsageLog;
}

/** Which model answers: the catalog of the key's models, the configured choice, VS Code's model picker. */
interface Models {
  endpoints: ModelEndpoints;
  catalog: ModelCatalog;
  selection: ModelSelection;
  languageModels: GatewayLanguageModelProvider;
  /** Each model's context window: gateway.models, learned from the gateway's errors, or the default. */
  windows: ModelWindows;
}

export function activate(context: vscode.ExtensionContext): GatewayExtensionApi {
  const activationStarted = performance.now();
  // Filled in once the agent is registered (the usage view lists sessions, the agent asks the budget).
  let agentStore: () => Promise<{ id: string; title: string }[]> = async () => [];
  let refreshStatus = () => {};
  const gateway = createGateway(context);
  const models = createModels(context, gateway);
  const usage = new UsageView({
    log: gateway.usageLog,
    logger: gateway.logger,
    settings: gateway.settings,
    extensionUri: context.extensionUri,
    sessionTitles: async () => new Map((await agentStore()).map((s) => [s.id, s.title])),
    onTodayChanged: () => refreshStatus(),
  });
  context.subscriptions.push(usage);
  const statusBar = createStatusBar(context, gateway, models, () => usage.todayLine());
  refreshStatus = () => void statusBar.refresh();
  const onKeyChanged = () => {
    models.catalog.invalidate();
    models.languageModels.refresh();
    void statusBar.refresh();
  };
  registerKeyCommands(context, gateway, onKeyChanged);
  registerModelAndSiteCommands(context, gateway, models);
  const agent = registerAgent(context, gateway, models, (signal) => usage.spendGate(signal));
  agentStore = () => agent.sessionStore.list();
  const chat = registerChatParticipant(context, gateway, models, agent.sessions, (signal) => usage.chatNote(signal));
  const inlineEdits = registerInlineEdit(context, gateway, models);
  watchSettings(context, gateway, models, statusBar, onKeyChanged);
  const activationMs = performance.now() - activationStarted;
  gateway.logger.info(`activated ${gateway.userAgent} in ${activationMs.toFixed(1)} ms`);

  return gatewayTestApi({
    status: () => statusBar.current(),
    hasApiKey: () => gateway.keys.hasKey(),
    lastChatAnswer: () => chat.lastAnswer(),
    activationMs,
    inlineEdit: () => inlineEdits.status(),
    recentLog: () => gateway.logger.recentLines(),
    usageView: () => usage.state(),
    waitingApprovals: () => agent.approvals.waiting(),
    savedSessions: () => agent.sessionStore.list(),
  });
}

export function deactivate(): void {}

function createGateway(context: vscode.ExtensionContext): Gateway {
  const channel = vscode.window.createOutputChannel('Gateway', { log: true });
  const logger = channelLogger(channel);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
  const userAgent = `gateway-vscode/${version} vscode/${vscode.version}`;
  const { service: settings, subscription: settingsSubscription } = createSettingsService(logger);
  const keys = new ApiKeyStore(context.secrets, () => configuredOrigin(settings));
  // The windows of this machine share the key's rate window through a file in global storage (see LimitTracker).
  const sharedWindow = new FileSharedWindow(vscode.Uri.joinPath(context.globalStorageUri, 'rate-window.json').fsPath);
  const usageLog = new UsageLog(new FileUsageStorage(vscode.Uri.joinPath(context.globalStorageUri, 'usage.jsonl').fsPath), systemClock, logger);
  usageLog.rollUp(AbortSignal.timeout(60_000)).catch((error: unknown) => logger.warn(`usage: the roll-up failed: ${String(error)}`));
  const limits = new LimitTracker(systemClock, settings.current().limits, undefined, sharedWindow);
  const clientOptions = {
    baseUrl: () => settings.requireBaseUrl(),
    siteUrl: () => settings.get('siteUrl'),
    userAgent,
    logger,
  };
  const client = new GatewayClient({ ...clientOptions, limits, apiKey: keys, onUsage: (record) => void usageLog.record(record, AbortSignal.timeout(10_000)) });
  const clientWithKey = (key: string) =>
    new GatewayClient({ ...clientOptions, limits: new LimitTracker(systemClock, settings.current().limits), apiKey: { getApiKey: async () => key } });
  context.subscriptions.push(channel, settingsSubscription, keys, { dispose: () => usageLog.today.dispose() });
  return {
    channel,
    logger,
    userAgent,
    keys,
    limits,
    client,
    clientWithKey,
    siteUrl: () => client.transport.siteUrl(),
    errors: new ErrorPresenter(logger, settings),
    settings,
    usageLog,
  };
}

function createModels(context: vscode.ExtensionContext, gateway: Gateway): Models {
  const { client, keys, logger, settings } = gateway;
  const endpoints = new ModelEndpoints(client);
  const catalog = new ModelCatalog(client, context.globalState, () => settings.requireBaseUrl());
  const selection = new ModelSelection(catalog, context.globalState, settings);
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
  });
  context.subscriptions.push(catalog, languageModels, vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, languageModels));
  return { endpoints, catalog, selection, languageModels, windows };
}

function createStatusBar(context: vscode.ExtensionContext, gateway: Gateway, models: Models, today: () => string | undefined): GatewayStatusBar {
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
  context.subscriptions.push(statusBar);
  return statusBar;
}

function registerKeyCommands(context: vscode.ExtensionContext, gateway: Gateway, onKeyChanged: () => void): void {
  const { keys, limits, errors, clientWithKey } = gateway;
  // A key set or cleared in another window: what was learned of the old key's limits and balance no longer applies.
  keys.onDidChangeKey(() => {
    limits.reset();
    onKeyChanged();
  });
  // The check has limits of its own, so a key the gateway refuses leaves the current key's state untouched.
  const deps: ApiKeyCommandDeps = { store: keys, clientWithKey, limits, errors, settings: gateway.settings, onKeyChanged };
  context.subscriptions.push(
    vscode.commands.registerCommand('gateway.setApiKey', (key?: unknown) => setApiKey(deps, key)),
    vscode.commands.registerCommand('gateway.clearApiKey', () => clearApiKey(deps)),
    vscode.commands.registerCommand(CONFIRM_KEY_ORIGIN_COMMAND, () => confirmKeyOrigin(keys, gateway.settings, onKeyChanged)),
  );
}

function registerModelAndSiteCommands(context: vscode.ExtensionContext, gateway: Gateway, models: Models): void {
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

function registerAgent(context: vscode.ExtensionContext, gateway: Gateway, models: Models, spendGate: (signal: AbortSignal) => Promise<string | undefined>) {
  const { client, logger, errors } = gateway;
  const sessionFolder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'agent-sessions');
  // The journal appends each step (VS Code's file system cannot append): only for a session folder on this machine.
  const sessionStore = new FileSessionStore(sessionFolder, logger, sessionFolder.scheme === 'file' ? new NodeJournalFolder(sessionFolder.fsPath) : undefined);
  const checkpointRoot = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'agent-checkpoints');
  const approvals = new ApprovalBroker();
  const sandbox = new BubblewrapSandbox();
  const protectedFiles = () => gateway.settings.current().agent.protectedFiles;
  const ripgrep = findVsCodeRipgrep(vscode.env.appRoot);
  logger.info(
    ripgrep
      ? `list_files and search_text run on VS Code's ripgrep: ${ripgrep}`
      : `no ripgrep under ${vscode.env.appRoot}: list_files and search_text walk the files`,
  );
  const sessions = new AgentSessions({
    client,
    store: sessionStore,
    approvals,
    resolveAgentModel: (signal) => models.selection.resolve('agent', signal),
    logger,
    machine: nodeLocalMachine({
      checkpointRoot: checkpointRoot.fsPath,
      ripgrep,
      sandbox,
      protectedFiles,
      // User (or machine) settings only: a workspace that raised it could fill the disk, one that lowered it could erase the user's checkpoints.
      checkpointStorageBytes: () => checkpointStorageBytes(gateway.settings.get('agent.checkpointStorageMB')),
      logger,
    }),
    context: { windows: models.windows, tokensPerMinute: () => gateway.limits.snapshot().tokenLimit, spendGate },
    workspaceState: context.workspaceState,
    settings: () => gateway.settings.current(),
  });
  sessions
    .recoverInterrupted()
    .catch((error: unknown) => logger.warn(`recovering interrupted agent sessions failed: ${String(error)}`))
    // After recovery (a restore in progress needs its checkpoints): orphan folders and the total bound, bounded in time and entries.
    .then(() => sessions.keepCheckpointsInBudget(AbortSignal.timeout(RETENTION_BOUNDS.timeMs * 2)))
    .catch((error: unknown) => logger.warn(`cleaning up agent checkpoint folders failed: ${String(error)}`));
  const sessionsTree = new SessionsTree(sessions);
  const transcripts = new TranscriptProvider(sessionStore);
  context.subscriptions.push(
    sessionStore,
    approvals,
    sessions,
    // After the sessions: whatever private /tmp they have not removed yet goes when the window closes.
    sandbox,
    sessionsTree,
    transcripts,
    vscode.window.registerTreeDataProvider('gateway.agentSessions', sessionsTree),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, approvals),
    vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    ...registerAgentCommands(sessions, errors),
    ...registerCheckpointCommands(sessions, errors),
    registerDeleteSessionCommand(sessions, errors),
    vscode.commands.registerCommand('gateway.agent.chooseTools', (names?: unknown) => chooseHostTools(context.workspaceState, names)),
  );
  return { sessionStore, approvals, sessions };
}

function registerChatParticipant(
  context: vscode.ExtensionContext,
  gateway: Gateway,
  models: Models,
  sessions: AgentSessions,
  budgetNote: (signal: AbortSignal) => Promise<string | undefined>,
) {
  let lastAnswer: string | undefined;
  const handler = createChatHandler({
    endpoints: models.endpoints,
    chooseModel: (pickerModel, signal) => models.selection.forChatRequest(pickerModel, models.languageModels.defaultPickerModel(), signal),
    runAgent: (request, chatContext, stream, token) =>
      runAgentTurn({ sessions, actionsFor: (error) => gateway.errors.actionsFor(error) }, request, chatContext, stream, token),
    logger: gateway.logger,
    settings: gateway.settings,
    windows: models.windows,
    projectInstructions: (labels, signal) => chatProjectInstructions(labels, () => gateway.settings.current().agent.protectedFiles, signal),
    budgetNote,
    onAnswer: (text) => (lastAnswer = text),
  });
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = followupProvider;
  context.subscriptions.push(
    participant,
    vscode.commands.registerCommand('gateway.explainSelection', () =>
      vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /explain ' }),
    ),
  );
  return { lastAnswer: () => lastAnswer };
}

/** The first folder's AGENTS.md files for a chat request; none without a folder, or when they cannot be read. */
async function chatProjectInstructions(labels: string[], protectedFileGlobs: () => readonly string[], signal: AbortSignal): Promise<string | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (root?.scheme !== 'file') return undefined;
  const found = await instructionsForChat(new NodeWorkspaceFiles(root.fsPath, { protectedFiles: protectedFileGlobs }), labels, protectedFileGlobs(), signal);
  return found.text;
}

function registerInlineEdit(context: vscode.ExtensionContext, gateway: Gateway, models: Models): InlineEditController {
  const proposals = new ProposalDocuments();
  const inlineEdits = new InlineEditController(
    models.endpoints,
    (signal) => models.selection.resolve('chat', signal),
    proposals,
    gateway.errors,
    context.globalState,
    gateway.settings,
  );
  context.subscriptions.push(
    proposals,
    inlineEdits,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.commands.registerCommand('gateway.editSelection', (instruction?: unknown) => inlineEdits.editSelection(instruction)),
    vscode.commands.registerCommand('gateway.inlineEdit.accept', () => inlineEdits.accept()),
    vscode.commands.registerCommand('gateway.inlineEdit.reject', () => inlineEdits.reject()),
  );
  return inlineEdits;
}

/** A changed `gateway.*` setting applies at once (a refused value is announced by the settings service itself). */
function watchSettings(context: vscode.ExtensionContext, gateway: Gateway, models: Models, statusBar: GatewayStatusBar, onKeyChanged: () => void): void {
  const { settings } = gateway;
  context.subscriptions.push(
    settings.onDidChange((changed) => {
      if (changed.includes('baseUrl')) {
        onKeyChanged();
        // The key stays with the origin it was set for until the user says otherwise.
        void confirmKeyOrigin(gateway.keys, settings, onKeyChanged);
      }
      if (changed.includes('chatModel') || changed.includes('models')) models.languageModels.refresh();
      gateway.limits.setConfiguredLimits(settings.current().limits);
      void statusBar.refresh();
    }),
  );
}
