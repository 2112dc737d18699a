/**
 * Composition of the agent (part of the composition root, see extension.ts): its sessions with the
 * Node implementations they run on (journal, local machine, sandbox, ripgrep), their views and commands.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { NodeJournalFolder, nodeLocalMachine } from './agent/node';
import { findVsCodeRipgrep } from './tools/node';
import { BubblewrapSandbox } from './terminal/node';
import { RETENTION_BOUNDS } from './checkpoints/common';
import { checkpointStorageBytes } from './settings/common';
import {
  registerDeleteSessionCommand,
  registerAgentCommands,
  AgentSessions,
  ApprovalBroker,
  PROPOSED_SCHEME,
  FileSessionStore,
  SessionsTree,
  sessionOfNode,
  TRANSCRIPT_SCHEME,
  TranscriptProvider,
  showWaiting,
} from './agent/vscode';
import { registerCheckpointCommands, registerForgetHookDecisions, registerWorktreeCommands } from './agent/vscode';
import { interruptedNotice, untoldInterrupted, type InterruptedSession } from './agent/common';

/** The interrupted sessions this workspace was told about: id → the updatedAt they were paused with. */
const TOLD_INTERRUPTED_KEY = 'gateway.agent.toldInterrupted';
import { chooseHostTools } from './tools/vscode';
import { systemClock, type Logger } from './base/common';
import { profileFolderOf } from './customization/common';
import type { Gateway } from './composeGateway';
import type { TimedStep } from './composeActivation';
import type { Models } from './composeModels';

export interface AgentComposition {
  context: vscode.ExtensionContext;
  gateway: Gateway;
  models: Models;
  spendGate: (signal: AbortSignal) => Promise<string | undefined>;
  /** Times each part (activation's steps). */
  timed: TimedStep;
}

export function registerAgent({ context, gateway, models, spendGate, timed }: AgentComposition) {
  const { client, logger, errors } = gateway;
  const sessionFolder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'agent-sessions');
  // The journal appends each step (VS Code's file system cannot append): only for a session folder on this machine.
  const sessionStore = new FileSessionStore(sessionFolder, logger, sessionFolder.scheme === 'file' ? new NodeJournalFolder(sessionFolder.fsPath) : undefined);
  const checkpointRoot = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'agent-checkpoints');
  const approvals = new ApprovalBroker();
  // One home folder for the sandbox (what it empties) and for the decision whether a workspace is or holds it.
  const home = homedir();
  const sandbox = new BubblewrapSandbox({ home });
  const protectedFiles = () => gateway.settings.current().agent.protectedFiles;
  const sessions = timed(
    'agent: sessions',
    () =>
      new AgentSessions({
        client,
        store: sessionStore,
        approvals,
        watchedSessions: gateway.watchedSessions,
        resolveAgentModel: (signal) => models.selection.resolve('agent', signal),
        logger,
        machine: nodeLocalMachine({
          checkpointRoot: checkpointRoot.fsPath,
          ripgrep: vsCodeRipgrep(logger),
          sandbox,
          home,
          protectedFiles,
          // User (or machine) settings only: a workspace that raised it could fill the disk, one that lowered it could erase the user's checkpoints.
          checkpointStorageBytes: () => checkpointStorageBytes(gateway.settings.get('agent.checkpointStorageMB')),
          logger,
        }),
        context: { windows: models.windows, tokensPerMinute: () => gateway.limits.tokenLimit(), spendGate },
        workspaceState: context.workspaceState,
        globalState: context.globalState,
        settings: () => gateway.settings.current(),
        telemetry: gateway.telemetry,
        availableModels: async (signal) => (await models.catalog.models(signal)).map((model) => model.id),
        // The user's prompt files (User/prompts), where vscode-copilot-chat finds them too: two levels above the global storage.
        ...(context.globalStorageUri.scheme === 'file' ? { profileFolder: profileFolderOf(context.globalStorageUri.fsPath) } : {}),
      }),
  );
  registerAgentViews({ context, parts: { sessionStore, approvals, sessions, sandbox }, errors, timed, watchedSessions: gateway.watchedSessions });
  return { sessionStore, approvals, sessions };
}

function registerAgentViews(options: {
  context: vscode.ExtensionContext;
  parts: { sessionStore: FileSessionStore; approvals: ApprovalBroker; sessions: AgentSessions; sandbox: BubblewrapSandbox };
  errors: Gateway['errors'];
  timed: TimedStep;
  watchedSessions: Gateway['watchedSessions'];
}): void {
  const { context, parts, errors, timed, watchedSessions } = options;
  const { sessionStore, approvals, sessions, sandbox } = parts;
  // Each part timed on its own: activation's report names the one that grows.
  const sessionsView = timed('agent: sessions view', () => {
    const sessionsTree = new SessionsTree(sessions);
    // A view (not only a provider): its badge counts the approvals waiting.
    const view = vscode.window.createTreeView('gateway.agentSessions', { treeDataProvider: sessionsTree });
    // The session the user last focused in the view is watched: its requests go before the other sessions'.
    context.subscriptions.push(view.onDidChangeSelection((event) => watchedSessions.focus(sessionOfNode(event.selection[0]))));
    // The sandbox after the sessions: whatever private /tmp they have not removed yet goes when the window closes.
    context.subscriptions.push(sessionStore, approvals, sessions, sandbox, sessionsTree, view);
    return view;
  });
  timed('agent: waiting indicator', () => context.subscriptions.push(showWaiting(approvals, sessionsView)));
  timed('agent: documents', () => {
    const transcripts = new TranscriptProvider(sessionStore);
    context.subscriptions.push(
      transcripts,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, approvals),
      vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    );
  });
  timed('agent: commands', () =>
    context.subscriptions.push(
      ...registerAgentCommands(sessions, errors, context.workspaceState),
      ...registerCheckpointCommands(sessions, errors),
      ...registerWorktreeCommands(sessions, errors),
      registerDeleteSessionCommand(sessions, errors),
      registerForgetHookDecisions(context.globalState),
      vscode.commands.registerCommand('gateway.agent.chooseTools', (names?: unknown) => chooseHostTools(context.workspaceState, systemClock, names)),
    ),
  );
}

/**
 * After activation: sessions a closed window left running are paused, then (a restore in progress needs
 * its checkpoints) orphan checkpoint folders go and the total bound is kept, bounded in time and entries.
 */
export async function recoverAgentSessions(input: { sessions: AgentSessions; logger: Logger; state: vscode.Memento }, signal: AbortSignal): Promise<void> {
  const { sessions, logger, state } = input;
  const paused = await sessions.recoverInterrupted().catch((error: unknown) => {
    logger.warn(`recovering interrupted agent sessions failed: ${String(error)}`);
    return [];
  });
  // Each interruption is told once: the closing window may have saved the session paused itself, so a paused one is
  // told unless this workspace told it before (the notice names its session, so it stays off other windows' folders).
  const { untold, remember } = untoldInterrupted(paused, state.get<Record<string, number>>(TOLD_INTERRUPTED_KEY) ?? {});
  await state.update(TOLD_INTERRUPTED_KEY, remember);
  void tellInterrupted(untold);
  if (signal.aborted) return;
  await sessions
    .keepCheckpointsInBudget(AbortSignal.any([signal, AbortSignal.timeout(RETENTION_BOUNDS.timeMs * 2)]))
    .catch((error: unknown) => logger.warn(`cleaning up agent checkpoint folders failed: ${String(error)}`));
}

/** The reopened window says which sessions it paused, with Continue for one and the Sessions view for any. */
async function tellInterrupted(paused: readonly InterruptedSession[]): Promise<void> {
  const notice = interruptedNotice(paused);
  if (!notice) return;
  const actions = [...(notice.continueId ? ['Continue'] : []), 'Show Sessions'];
  const choice = await vscode.window.showWarningMessage(notice.message, ...actions);
  if (choice === 'Continue') await vscode.commands.executeCommand('gateway.agent.continue', notice.continueId);
  if (choice === 'Show Sessions') await vscode.commands.executeCommand('gateway.agent.show');
}

/** VS Code's ripgrep, looked up (and logged) at the first search rather than during activation. */
function vsCodeRipgrep(logger: Logger): () => string | undefined {
  let found: { path: string | undefined } | undefined;
  return () => {
    if (found) return found.path;
    found = { path: findVsCodeRipgrep(vscode.env.appRoot) };
    logger.info(
      found.path
        ? `list_files and search_text run on VS Code's ripgrep: ${found.path}`
        : `no ripgrep under ${vscode.env.appRoot}: list_files and search_text walk the files`,
    );
    return found.path;
  };
}
