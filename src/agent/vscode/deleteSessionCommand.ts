/**
 * "Delete Session": a row of the Agent Sessions view or the palette's pick; a
 * modal names the session and says its checkpoints go too. The files the
 * session changed stay as they are.
 */
import * as vscode from 'vscode';
import { sessionIdOf } from '../../sessionModel/common';
import type { AgentSessionState } from '../../sessionModel/common';
import type { ErrorPresenter } from '../../gateway/vscode';
import type { AgentSessions } from './agentSessions';

export const DELETE = 'Delete';

export function registerDeleteSessionCommand(sessions: AgentSessions, errors: ErrorPresenter): vscode.Disposable {
  return vscode.commands.registerCommand(
    'gateway.agent.deleteSession',
    errors.guard(async (idArgument?: unknown) => {
      const state = await sessionToDelete(sessions, idArgument);
      if (!state) return false;
      if (sessions.isRunning(state.id)) {
        void vscode.window.showWarningMessage(`"${state.title || state.id}" is running. Stop it first, then delete it.`);
        return false;
      }
      const answer = await vscode.window.showWarningMessage(
        `Delete the agent session "${state.title || state.id}"?`,
        {
          modal: true,
          detail:
            'Its transcript and all its checkpoints are deleted; it can no longer be reviewed, restored or continued. ' +
            'The changes it made to your files stay as they are.' +
            (state.worktree && state.worktree.discardedAt === undefined
              ? ` Its worktree ${state.worktree.path} and branch ${state.worktree.branch} stay too: discard the worktree first, or remove it later with "Gateway: Clean Up Stale Worktrees…".`
              : ''),
        },
        DELETE,
      );
      if (answer !== DELETE) return false;
      await sessions.deleteSession(state.id, new AbortController().signal);
      return true;
    }),
  );
}

async function sessionToDelete(sessions: AgentSessions, idArgument: unknown): Promise<AgentSessionState | undefined> {
  const id = sessionIdOf(idArgument);
  if (id !== undefined) {
    const state = await sessions.store.load(id);
    if (!state) void vscode.window.showInformationMessage(`There is no saved agent session ${id}.`);
    return state;
  }
  const all = await sessions.store.list();
  if (all.length === 0) {
    void vscode.window.showInformationMessage('There is no saved agent session.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    all.map((state) => ({
      label: state.title || state.id,
      description: `${sessions.isRunning(state.id) ? 'running' : state.status} · ${new Date(state.updatedAt).toLocaleString()}`,
      state,
    })),
    { placeHolder: 'Delete which agent session (with its checkpoints)?' },
  );
  return picked?.state;
}
