/**
 * The agent from the command palette and the Sessions view: start, continue,
 * stop, revert, open the transcript, and answer approvals. A session run from
 * here writes its progress to the "Gateway Agent" output and asks for approvals
 * with notifications.
 */
import { counted } from '../../base/common';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../sessionModel/common';
import { compactionNotice } from '../common/engine/compaction';
import { droppedNotice } from '../../checkpoints/common';
import { canContinue, type AgentSessionState } from '../../sessionModel/common';
import type { ErrorPresenter } from '../../gateway/vscode';
import type { AgentSessions, SessionSink } from './agentSessions';
import { openFolders } from './windowFolders';
import { approvalToAnswer, sessionIdOf } from '../../sessionModel/common';
import { OPEN_FOLDER_COMMAND, rootForNewSession } from '../../sessionModel/common';
import { transcriptUri } from './transcript';
import { sessionEndNotice } from '../common/sessions/sessionEndNotice';
import { SharedRunOutput, type RunOutput } from '../common/sessions/sharedRunOutput';
import { waitingProgress } from './waitingProgress';
import { savedAnswerMessage, savedAnswerOf, staleAnswerMessage } from '../common/approvals/approvalText';
import { sessionActionNoLongerApplies } from '../../sessionModel/common';
import { registerPlanCommands } from './planCommands';
import { pickSessionAgent, RUN_PROMPT_FILE_COMMAND, runPromptFile } from './agentFileCommands';

export function registerAgentCommands(sessions: AgentSessions, errors: ErrorPresenter, workspaceState?: vscode.Memento): vscode.Disposable[] {
  const output = vscode.window.createOutputChannel('Gateway Agent');
  // Shared by the palette's sessions: two running at once write whole lines, not their answers' words interleaved.
  const shared = new SharedRunOutput((text) => output.append(text));
  const guarded = errors.guard.bind(errors);
  // The progress notification stays while the run lasts (VS Code hides a plain notification after some seconds):
  // it says what the run is doing, and while an approval waits, which one, with Approve and Deny in it.
  const runInBackground = (work: (sink: SessionSink, signal: AbortSignal) => Promise<AgentSessionState>, doing: string) =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Gateway agent', cancellable: true }, async (progress, token) => {
      output.show(true);
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      const waiting = waitingProgress(sessions.approvals, progress, doing);
      const written = shared.run();
      try {
        const state = await work({ onEvent: (event: AgentEvent) => writeEvent(written, event), presenter: waiting.presenter }, controller.signal);
        void showSessionEnd(state);
        return state;
      } finally {
        written.end();
        waiting.dispose();
      }
    });

  return [
    output,
    ...registerPlanCommands({ sessions, runInBackground, guarded, hasFolder: hasFolderOrOffersOne, workspaceState }),
    vscode.commands.registerCommand(
      RUN_PROMPT_FILE_COMMAND,
      guarded((name?: unknown) => runPromptFile(sessions, name)),
    ),
    vscode.commands.registerCommand(
      'gateway.agent.start',
      // `(task, { place: 'worktree' | 'folder' })` from a script or test: no question asked.
      guarded(async (taskArgument?: unknown, optionsArgument?: unknown) => {
        // Checked before asking for the task, so the user does not type it only to lose it.
        if (!(await hasFolderOrOffersOne())) return undefined;
        const as = typeof taskArgument === 'string' ? {} : await pickSessionAgent(sessions);
        if (as === 'cancelled') return undefined;
        const task =
          typeof taskArgument === 'string'
            ? taskArgument
            : await vscode.window.showInputBox({
                title: 'Gateway: Start Agent Session',
                prompt: 'What should the agent do in this workspace?',
                placeHolder: 'e.g. add a unit test for parseDuration',
                ignoreFocusOut: true,
              });
        if (!task?.trim()) return undefined;
        const place = await sessions.places.placeFor(placeOf(optionsArgument));
        if (!place) return undefined;
        shared.line(`\n=== ${task.trim()}`);
        const { agent } = as;
        return runInBackground(
          (sink, signal) => (agent ? sessions.startAs({ task, agent, sink, signal, place }) : sessions.start(task, sink, signal, [], place)),
          'working… (Cancel stops it)',
        );
      }),
    ),
    vscode.commands.registerCommand(
      'gateway.agent.continue',
      guarded(async (idArgument?: unknown, messageArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, (s) => !sessions.isRunning(s.id), 'Continue which session?'))?.id;
        if (!id) return undefined;
        const state = await sessions.store.load(id);
        // A button of an old notification or chat turn: the session may be gone or running again.
        const stale = sessionActionNoLongerApplies('continue', state, sessions.isRunning(id));
        if (stale) return void vscode.window.showInformationMessage(stale);
        // A finished session needs something new to do; a paused one just goes on.
        const needsMessage = state !== undefined && !canContinue(state);
        const message =
          typeof messageArgument === 'string'
            ? messageArgument
            : needsMessage
              ? await vscode.window.showInputBox({ title: 'Gateway: Continue Agent Session', prompt: 'What should the agent do next?', ignoreFocusOut: true })
              : undefined;
        shared.line(`\n=== continue ${state?.title ?? id}`);
        return runInBackground((sink, signal) => sessions.continue(id, message, sink, signal), 'working… (Cancel stops it)');
      }),
    ),
    vscode.commands.registerCommand(
      'gateway.agent.stop',
      guarded(async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, (s) => sessions.isRunning(s.id), 'Stop which session?'))?.id;
        if (id && !sessions.stop(id)) void vscode.window.showInformationMessage('That session is not running.');
        return id;
      }),
    ),
    vscode.commands.registerCommand(
      'gateway.agent.revert',
      guarded(async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, (s) => s.originals.length > 0, 'Revert the changes of which session?'))?.id;
        if (!id) return undefined;
        const state = await sessions.store.load(id);
        const files = state?.originals.map((o) => o.path).join(', ') || 'no files';
        const confirm = await vscode.window.showWarningMessage(
          `Restore ${files} to what they were before the session changed them?`,
          { modal: true },
          'Revert',
        );
        if (confirm !== 'Revert') return undefined;
        const reverted = await sessions.revert(id);
        void vscode.window.showInformationMessage(`Gateway agent: reverted ${reverted.join(', ') || 'nothing'}.`);
        return reverted;
      }),
    ),
    vscode.commands.registerCommand(
      'gateway.agent.compact',
      guarded(async (idArgument?: unknown) => {
        const id =
          sessionIdOf(idArgument) ?? (await pickSession(sessions, (s) => !sessions.isRunning(s.id) && s.transcript.length > 0, 'Compact which session?'))?.id;
        if (!id) return undefined;
        shared.line(`\n=== compact ${id}`);
        return runInBackground((sink, signal) => sessions.compact(id, sink, signal), 'compacting… (Cancel stops it)');
      }),
    ),
    vscode.commands.registerCommand('gateway.agent.show', () => vscode.commands.executeCommand('gateway.agentSessions.focus')),
    vscode.commands.registerCommand(
      'gateway.agent.openTranscript',
      guarded(async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, () => true, 'Open the transcript of which session?'))?.id;
        if (!id) return undefined;
        const document = await vscode.workspace.openTextDocument(transcriptUri(id));
        await vscode.languages.setTextDocumentLanguage(document, 'markdown');
        return vscode.window.showTextDocument(document, { preview: true });
      }),
    ),
    // From a chat button: (sessionId, callId); from a Sessions view row: (the session, maybe the selected rows).
    vscode.commands.registerCommand('gateway.agent.approve', (session?: unknown, callId?: unknown) => answer(sessions, session, callId, true)),
    vscode.commands.registerCommand('gateway.agent.deny', (session?: unknown, callId?: unknown) => answer(sessions, session, callId, false)),
    vscode.commands.registerCommand('gateway.agent.showDiff', (sessionId: string, callId: string) => sessions.approvals.showDiff(sessionId, callId)),
    vscode.commands.registerCommand('gateway.agent.showInput', (sessionId: string, callId: string) => sessions.approvals.showInput(sessionId, callId)),
  ];
}

/** The place a script's start command names, if any. */
function placeOf(options: unknown): 'folder' | 'worktree' | undefined {
  const place = typeof options === 'object' && options !== null ? (options as { place?: unknown }).place : undefined;
  return place === 'folder' || place === 'worktree' ? place : undefined;
}

/** True when a folder is open; otherwise says so with an "Open Folder" button (opening one reloads the window). */
async function hasFolderOrOffersOne(): Promise<boolean> {
  const decision = rootForNewSession(openFolders());
  if (decision.ok) return true;
  const choice = await vscode.window.showWarningMessage(decision.message, 'Open Folder');
  if (choice === 'Open Folder') await vscode.commands.executeCommand(OPEN_FOLDER_COMMAND);
  return false;
}

/** Approve / Deny from a button, a Sessions view row (that session's approval) or the palette (the oldest waiting one). */
/** The end of a palette session: its model, files and tokens, with Continue / Review Session Changes / Open Transcript. */
async function showSessionEnd(state: AgentSessionState): Promise<void> {
  const { message, actions } = sessionEndNotice(state);
  const picked = await vscode.window.showInformationMessage(message, ...actions.map((action) => action.title));
  const action = actions.find((candidate) => candidate.title === picked);
  if (action) await vscode.commands.executeCommand(action.command, ...action.arguments);
}

function answer(sessions: AgentSessions, session: unknown, callId: unknown, approved: boolean): boolean {
  const target = approvalToAnswer(sessions.approvals.waiting(), session, callId);
  if (!target || !sessions.approvals.respond(target.sessionId, target.callId, approved)) {
    // A button of an approval that has ended (the chat cannot change rendered buttons): say what became of it.
    const sessionId = sessionIdOf(session);
    const ended = sessionId !== undefined && typeof callId === 'string' ? sessions.approvals.ended(sessionId, callId) : undefined;
    if (ended || sessionId === undefined || typeof callId !== 'string') {
      void vscode.window.showInformationMessage(staleAnswerMessage(ended));
      return false;
    }
    // This window no longer remembers it (reloaded since): the saved session tells how it ended.
    void sessions.store
      .load(sessionId)
      .catch(() => undefined)
      .then((saved) => vscode.window.showInformationMessage(savedAnswerMessage(saved && savedAnswerOf(saved, callId))));
    return false;
  }
  return true;
}

async function pickSession(
  sessions: AgentSessions,
  filter: (state: AgentSessionState) => boolean,
  placeHolder: string,
): Promise<AgentSessionState | undefined> {
  const candidates = (await sessions.store.list()).filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No agent session fits. Start one with "Gateway: Start Agent Session…".');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((state) => ({ label: state.title, description: `${state.status} · ${counted(state.turns, 'turn')}`, detail: state.statusReason, state })),
    { placeHolder },
  );
  return picked?.state;
}

function writeEvent(output: RunOutput, event: AgentEvent): void {
  switch (event.type) {
    case 'text':
      output.text(event.text);
      return;
    case 'note':
      output.line(`\n  ℹ ${event.text}`);
      return;
    case 'tool_started':
      output.line(`\n▶ ${event.summary}`);
      return;
    case 'tool_finished':
      output.line(event.approved ? `  ${event.outcome.ok ? '✓' : '✗'} ${event.outcome.output.split('\n')[0].slice(0, 160)}` : '  ✗ denied by you');
      return;
    case 'approval_needed':
      output.line(`  ? waiting for your approval: ${event.request.summary}`);
      return;
    case 'status':
      if (event.reason && event.status !== 'awaiting_approval') output.line(`\n[${event.status}] ${event.reason}`);
      return;
    case 'retry':
      output.line(
        event.notice.delayMs > 0 ? `  … ${event.notice.message} (waiting ${Math.ceil(event.notice.delayMs / 1000)} s)` : `  … ${event.notice.message}`,
      );
      return;
    case 'plan':
      output.line(
        `\n☐ plan: ${event.plan.map((step, index) => `${index + 1}. [${step.status === 'done' ? 'x' : step.status === 'in_progress' ? '~' : ' '}] ${step.step}`).join('  ')}`,
      );
      return;
    case 'compacting':
      output.line('\n… compacting the conversation to fit the context window');
      return;
    case 'checkpoint':
      output.line(`  ◆ checkpoint: ${event.checkpoint.label} ("Gateway: Restore Agent Checkpoint…" goes back to it)`);
      if (event.dropped.length > 0) output.line(`  ${droppedNotice(event.dropped.map((label) => ({ label })))}`);
      return;
    case 'compacted':
      output.line(
        `  ${compactionNotice(event.compaction.before, event.compaction.after)}${event.compaction.how === 'trim' ? ' (old tool outputs shortened)' : ''}`,
      );
      return;
    default:
      return;
  }
}
