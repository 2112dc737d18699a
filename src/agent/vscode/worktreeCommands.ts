/**
 * Issue 40: the actions on a session that works in its own worktree (a row of the
 * Sessions view, or the palette with a session id): Review Changes against the commit
 * it started from, Apply to Workspace (checked whole first: a conflict is shown, never
 * forced; files with unsaved editors refused; a path the sandbox's review would hold in the
 * workspace folder asked about in a modal), Open Worktree in a new window, Discard
 * (worktree and branch, after a modal), and Clean Up Stale Worktrees.
 */
import * as vscode from 'vscode';
import { sessionIdOf, type AgentSessionState, type SessionWorktree } from '../../sessionModel/common';
import type { GitWorktrees, HeldOnApply, StaleWorktree, WorktreeApply } from '../common/sessions/worktreePorts';
import type { AgentSessions } from './agentSessions';
import { openFolders } from './windowFolders';

/** The scheme of a file's content at a worktree's base commit: `gateway-worktree-base:/<session id>/<path>`. */
export const WORKTREE_BASE_SCHEME = 'gateway-worktree-base';

export const DISCARD = 'Discard';
export const REMOVE = 'Remove';
/** Apply to Workspace's choices when some paths would be held in the workspace folder (Cancel is the modal's own). */
export const APPLY_WITHOUT_HELD = 'Apply Without Them';
export const APPLY_ALL = 'Apply All Anyway';

/**
 * What Apply to Workspace returns (the palette and tests read it): `left`, the held paths not applied (still in
 * the worktree); `held`, the paths a refusal was about.
 */
export type ApplyOutcome = { applied: true; files: string[]; left?: HeldOnApply[] } | { applied: false; reason: string; held?: HeldOnApply[] };

/** The commands' handlers and the base content's provider (a lazily loaded part: worktreeCommandsLoader.ts registers them). */
export function worktreeHandlers(sessions: AgentSessions): {
  provider: vscode.TextDocumentContentProvider;
  commands: Record<string, (...args: unknown[]) => Promise<unknown>>;
} {
  const worktrees = (): GitWorktrees => {
    const found = sessions.worktrees;
    if (!found) throw new Error('Sessions in their own worktree are not available here.');
    return found;
  };
  const sessionWorktree = async (idArgument: unknown): Promise<{ state: AgentSessionState; worktree: SessionWorktree } | undefined> => {
    const id = sessionIdOf(idArgument) ?? (await pickWorktreeSession(sessions));
    if (id === undefined) return undefined;
    const state = await sessions.store.load(id);
    if (!state?.worktree) {
      void vscode.window.showInformationMessage(
        state ? `"${state.title}" works in the workspace folder, not in a worktree.` : `There is no saved agent session ${id}.`,
      );
      return undefined;
    }
    return { state, worktree: state.worktree };
  };
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: async (uri) => {
      const [, sessionId, ...rest] = uri.path.split('/');
      const state = await sessions.store.load(sessionId);
      if (!state?.worktree || rest.length === 0) return '';
      const bytes = await worktrees().baseContent(state.worktree, rest.join('/'), new AbortController().signal);
      return bytes ? new TextDecoder().decode(bytes) : '';
    },
  };
  return {
    provider,
    commands: {
      'gateway.agent.reviewWorktree': async (idArgument?: unknown) => {
        const found = await sessionWorktree(idArgument);
        if (!found) return 0;
        const { state, worktree } = found;
        const changes = await worktrees().changes(worktree, new AbortController().signal);
        if (changes.length === 0) {
          void vscode.window.showInformationMessage(`"${state.title}" has changed nothing against ${worktree.baseCommit.slice(0, 12)}.`);
          return 0;
        }
        const base = (path: string) => vscode.Uri.from({ scheme: WORKTREE_BASE_SCHEME, path: `/${state.id}/${path}` });
        const current = (path: string) => vscode.Uri.joinPath(vscode.Uri.file(worktree.path), path);
        const resources = changes.map((change) => [
          current(change.path),
          change.status === 'added' ? undefined : base(change.path),
          change.status === 'deleted' ? undefined : current(change.path),
        ]);
        await vscode.commands.executeCommand(
          'vscode.changes',
          `${state.title}: changes in ${worktree.branch} since ${worktree.baseCommit.slice(0, 7)}`,
          resources,
        );
        return changes.length;
      },
      // A path the sandbox's review would hold in the workspace folder is asked about in a modal. `{ confirmed: true }`
      // (a script's or test's call) never asks, so it never carries such a path: it refuses the whole, or with
      // `leaveHeld: true` applies the rest and leaves those in the worktree.
      'gateway.agent.applyWorktree': async (idArgument?: unknown, options?: unknown): Promise<ApplyOutcome | undefined> => {
        const found = await sessionWorktree(idArgument);
        if (!found) return undefined;
        const { state, worktree } = found;
        if (sessions.isRunning(state.id)) return refuse(`"${state.title}" is running. Stop it first, then apply its changes.`);
        const repo = vscode.Uri.file(worktree.repoRoot);
        if (!openFolders().some((folder) => vscode.Uri.parse(folder.uri).fsPath === repo.fsPath))
          return refuse(`The folder ${worktree.repoRoot} this session started from is not open in this window.`);
        const signal = new AbortController().signal;
        const refuseUnsaved = (files: readonly string[]) => unsavedRefusal(repo, files);
        let result: WorktreeApply = await worktrees().apply(worktree, signal, { refuse: refuseUnsaved });
        if (!result.ok && result.held) {
          const choice = isConfirmed(options) ? (leavesHeld(options) ? APPLY_WITHOUT_HELD : undefined) : await askAboutHeld(state.title, result.held);
          if (choice === APPLY_ALL)
            result = await worktrees().apply(worktree, signal, { refuse: refuseUnsaved, approved: result.held.map((entry) => entry.path) });
          else if (choice === APPLY_WITHOUT_HELD) result = await worktrees().apply(worktree, signal, { refuse: refuseUnsaved, leaveHeld: true });
          else if (!isConfirmed(options)) return { applied: false, reason: 'Cancelled: nothing in the workspace changed.', held: result.held };
        }
        if (!result.ok) {
          const review = 'Review Changes';
          void vscode.window
            .showWarningMessage(`The changes of "${state.title}" were not applied (nothing in the workspace changed): ${result.reason}`, review)
            .then((picked) => picked === review && vscode.commands.executeCommand('gateway.agent.reviewWorktree', state.id));
          return { applied: false, reason: result.reason, ...(result.held ? { held: result.held } : {}) };
        }
        const left = result.left ?? [];
        const kept = left.length === 0 ? '' : ` Left in the worktree (held in the workspace folder): ${left.map((entry) => entry.path).join(', ')}.`;
        void vscode.window.showInformationMessage(
          result.files.length === 0
            ? left.length === 0
              ? `"${state.title}" has no changes to apply.`
              : `Nothing of "${state.title}" was applied.${kept}`
            : `Applied the changes of "${state.title}" to the workspace: ${result.files.join(', ')}.${kept}`,
        );
        return { applied: true, files: result.files, ...(left.length > 0 ? { left } : {}) };
      },
      'gateway.agent.openWorktree': async (idArgument?: unknown) => {
        const found = await sessionWorktree(idArgument);
        if (found) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(found.worktree.path), { forceNewWindow: true });
      },
      // `{ confirmed: true }` (a script's or test's call) skips the question; a row of the view and the palette ask.
      'gateway.agent.discardWorktree': async (idArgument?: unknown, options?: unknown) => {
        const found = await sessionWorktree(idArgument);
        if (!found) return false;
        const { state, worktree } = found;
        if (sessions.isRunning(state.id)) {
          void vscode.window.showWarningMessage(`"${state.title}" is running. Stop it first, then discard its worktree.`);
          return false;
        }
        if (!isConfirmed(options)) {
          const answer = await vscode.window.showWarningMessage(
            `Discard the worktree of "${state.title}"?`,
            {
              modal: true,
              detail: `The folder ${worktree.path} and the branch ${worktree.branch} are removed, with every change the session made there that was not applied.`,
            },
            DISCARD,
          );
          if (answer !== DISCARD) return false;
        }
        await sessions.discardWorktree(state.id, new AbortController().signal);
        void vscode.window.showInformationMessage(`Discarded the worktree and the branch ${worktree.branch}.`);
        return true;
      },
      'gateway.agent.cleanUpWorktrees': async (options?: unknown) => {
        const signal = new AbortController().signal;
        const known = new Set((await sessions.store.list()).map((state) => state.id));
        const stale: { repoRoot: string; stale: StaleWorktree }[] = [];
        for (const folder of openFolders()) {
          const repoRoot = vscode.Uri.parse(folder.uri).fsPath;
          const found = await worktrees()
            .findStale(repoRoot, known, signal)
            .catch(() => []);
          stale.push(...found.map((entry) => ({ repoRoot, stale: entry })));
        }
        if (stale.length === 0) {
          void vscode.window.showInformationMessage('No stale session worktrees: every worktree and gateway/ branch belongs to a saved session.');
          return 0;
        }
        const picked = isConfirmed(options)
          ? stale.map((entry) => ({ entry }))
          : await vscode.window.showQuickPick(
              stale.map((entry) => ({
                label: entry.stale.branch ?? entry.stale.sessionId,
                description: entry.stale.path ?? 'a branch without a worktree',
                detail: `session ${entry.stale.sessionId} is gone`,
                picked: false,
                entry,
              })),
              { canPickMany: true, title: 'Remove which stale session worktrees (folder and branch)?', ignoreFocusOut: true },
            );
        if (!picked?.length) return 0;
        if (!isConfirmed(options)) {
          const answer = await vscode.window.showWarningMessage(
            `Remove ${picked.length} stale worktree${picked.length === 1 ? '' : 's'}?`,
            { modal: true, detail: 'Their folders and gateway/ branches are deleted, with any change in them.' },
            REMOVE,
          );
          if (answer !== REMOVE) return 0;
        }
        for (const { entry } of picked) await worktrees().removeStale(entry.repoRoot, entry.stale, signal);
        return picked.length;
      },
    },
  };
}

function refuse(reason: string): ApplyOutcome {
  void vscode.window.showWarningMessage(reason);
  return { applied: false, reason };
}

/**
 * Asks what to do with the paths that would be held in the workspace folder; undefined for Cancel (the modal's
 * Escape and close too: nothing is applied unless the user picks).
 */
async function askAboutHeld(title: string, held: readonly HeldOnApply[]): Promise<string | undefined> {
  const shown = held.slice(0, 15).map((entry) => `• ${entry.path}: ${entry.why}`);
  if (held.length > shown.length) shown.push(`• and ${held.length - shown.length} more`);
  return vscode.window.showWarningMessage(
    `Some changes of "${title}" are ones the sandbox holds for you in the workspace folder.`,
    {
      modal: true,
      detail: [
        ...shown,
        '',
        'In the workspace folder, programs run these outside the sandbox (its Git hooks, direnv, VS Code, agents), though the worktree had nothing that ran them.',
        `${APPLY_WITHOUT_HELD}: the rest is applied, these stay in the worktree. ${APPLY_ALL}: everything is written. Cancel: nothing changes.`,
      ].join('\n'),
    },
    APPLY_WITHOUT_HELD,
    APPLY_ALL,
  );
}

/** `{ leaveHeld: true }` beside `confirmed`: a caller that asked for the rest to be applied without the held paths. */
function leavesHeld(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { leaveHeld?: unknown }).leaveHeld === true;
}

function isConfirmed(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { confirmed?: unknown }).confirmed === true;
}

/** Files of the workspace with unsaved changes in an editor: applying over them would lose one side. */
function unsavedRefusal(repo: vscode.Uri, files: readonly string[]): string | undefined {
  const wanted = new Set(files.map((path) => vscode.Uri.joinPath(repo, path).toString()));
  const unsaved = vscode.workspace.textDocuments.filter((document) => document.isDirty && wanted.has(document.uri.toString()));
  if (unsaved.length === 0) return undefined;
  return `Save or revert the unsaved editors of ${unsaved.map((document) => vscode.workspace.asRelativePath(document.uri)).join(', ')} first: the session changes them too.`;
}

async function pickWorktreeSession(sessions: AgentSessions): Promise<string | undefined> {
  const candidates = (await sessions.store.list()).filter((state) => state.worktree);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No agent session works in a worktree of its own.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((state) => ({ label: state.title, description: `${state.status} · ${state.worktree?.branch ?? ''}`, id: state.id })),
    { placeHolder: 'Which session (in its own worktree)?' },
  );
  return picked?.id;
}
