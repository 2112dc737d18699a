/**
 * Where a new session works (issue 40): in the workspace folder, or in a Git worktree of its own beside the
 * repository. The setting `gateway.agent.sessionPlace` decides, or the user when it says "ask" and a worktree is
 * possible here.
 */
import * as vscode from 'vscode';
import { rootForNewSession } from '../../sessionModel/common';
import type { GitWorktrees } from '../common/sessions/worktreePorts';
import type { AgentSettings } from '../../settings/common';
import { openFolders } from './windowFolders';

export type SessionPlace = 'folder' | 'worktree';

export class SessionPlaces {
  constructor(private readonly parts: { worktrees: GitWorktrees | undefined; settings: () => AgentSettings }) {}

  /** Why a new session cannot work in a worktree of its own here (no folder, no Git repository, no commit…); undefined when it can. */
  async whyNoWorktree(signal: AbortSignal): Promise<string | undefined> {
    const decision = rootForNewSession(openFolders());
    if (!decision.ok) return decision.message;
    const worktrees = this.parts.worktrees;
    if (!worktrees) return 'Sessions in their own worktree are not available here.';
    return worktrees.whyNot(vscode.Uri.parse(decision.uri).fsPath, signal);
  }

  /**
   * Where a new session works: `requested` when given, else the setting; "ask" asks when the first folder
   * is the top of a Git repository with a commit (elsewhere there is nothing to choose). Undefined: the user cancelled.
   */
  async placeFor(requested: SessionPlace | undefined): Promise<SessionPlace | undefined> {
    if (requested) return requested;
    const setting = this.parts.settings().sessionPlace;
    if (setting !== 'ask') return setting;
    const signal = AbortSignal.timeout(10_000);
    if ((await this.whyNoWorktree(signal).catch((error: unknown) => String(error))) !== undefined) return 'folder';
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'In this folder', description: 'the session changes the workspace folder', place: 'folder' as const },
        { label: 'In a new worktree', description: 'a branch of its own from the current commit, beside the repository', place: 'worktree' as const },
      ],
      { title: 'Where should the agent session work?', placeHolder: 'gateway.agent.sessionPlace sets the default', ignoreFocusOut: true },
    );
    return picked?.place;
  }

  /** The place, or an error saying the session was not started (the user cancelled the choice). */
  async placeOrCancel(requested: SessionPlace | undefined): Promise<SessionPlace> {
    const chosen = await this.placeFor(requested);
    if (!chosen) throw new Error('The session was not started: no place to work in was chosen.');
    return chosen;
  }
}
