/**
 * Review and rewind: the session's changes as one multi-file diff
 * (`vscode.changes`), one step's changes, "Restore to here" with the user's
 * own changes named and asked about, and undoing a restore. A lazily loaded part: the commands are registered at
 * activation by checkpointCommandsLoader.ts, and this file is read at the first call.
 */
import * as vscode from 'vscode';
import {
  KEEP_MINE,
  OVERWRITE,
  RESTORE,
  RESTORE_FROM_CHAT,
  UNDO_RESTORE,
  asksBeforeRestore,
  droppedNotice,
  latestRestore,
  restoreDone,
  restoreQuestion,
  sessionStateQuery,
  UNDO_NO_LONGER_APPLIES,
  undoNoLongerApplies,
} from '../../checkpoints/common';
import type { UndoRestoreOffer } from '../../checkpoints/vscode';
import type { FileVersion } from '../../checkpoints/common';
import { sessionActionNoLongerApplies, sessionIdOf, decidedRoot, rootForSavedSession, type AgentSessionState } from '../../sessionModel/common';
import { normalizeWorkspacePath } from '../../tools/common';
import type { AgentSessions } from './agentSessions';
import { openFolders, windowFolders } from './windowFolders';
import type { CheckpointCommand } from './checkpointCommandsLoader';
import { checkpointTime } from '../common/sessions/sessionRow';
import { CHECKPOINT_SCHEME, isCheckpointNode } from './checkpointNode';

/**
 * A file as a checkpoint holds it (`version`: a blob, null: no file), or as it was before the session (`original`).
 * Its path is the file's own (`file`, when the workspace folder is known): VS Code's multi-file diff marks a pair
 * whose two paths differ as renamed ("R"), so both sides of a modification carry one path.
 */
function checkpointUri(sessionId: string, path: string, content: { version: FileVersion } | 'original', file?: vscode.Uri): vscode.Uri {
  const query = new URLSearchParams({ session: sessionId, ...(content === 'original' ? { original: '', file: path } : { blob: content.version ?? 'none' }) });
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: file?.path ?? `/${path}`, query: query.toString() });
}

/** One file of a multi-file diff: no left side for a file the change created, no right side for one it deleted (shown "A" and "D"). */
type DiffResource = [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined];

/** Serves the read-only "before" and "after" sides of the review diffs. */
export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly sessions: AgentSessions) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const sessionId = query.get('session') ?? '';
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return '';
    if (query.has('original')) return (await originalText(this.sessions, sessionId, query.get('file') ?? uri.path.slice(1))) ?? '';
    const blob = query.get('blob') ?? 'none';
    if (blob === 'none') return '';
    return (await this.sessions.checkpoints(sessionId).blob(blob, new AbortController().signal)) ?? '(no longer kept)';
  }
}

/** The commands' handlers and the diff sides' provider (registered by checkpointCommandsLoader.ts). */
export function checkpointHandlers(sessions: AgentSessions, offer: UndoRestoreOffer) {
  const restoreTo = (target: RestoreTarget) => restoreWithUndo(sessions, offer, target);
  return {
    provider: new CheckpointContentProvider(sessions),
    commands: {
      'gateway.agent.reviewChanges': async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, 'Review the changes of which session?'))?.id;
        if (!id) return undefined;
        const stale = sessionActionNoLongerApplies('review', await sessions.store.load(id), sessions.isRunning(id));
        return stale ? void vscode.window.showInformationMessage(stale) : reviewSession(sessions, id);
      },
      'gateway.agent.reviewStep': async (sessionArgument?: unknown, checkpointArgument?: unknown) => {
        const target = await checkpointOf(sessions, { sessionArgument, checkpointArgument, placeHolder: 'Review the changes of which step?' });
        if (!target) return undefined;
        const stale = sessionActionNoLongerApplies('review', await sessions.store.load(target.sessionId), false);
        return stale ? void vscode.window.showInformationMessage(stale) : reviewStep(sessions, target.sessionId, target.checkpointId);
      },
      'gateway.agent.restoreCheckpoint': async (sessionArgument?: unknown, checkpointArgument?: unknown, fromArgument?: unknown) => {
        const target = await checkpointOf(sessions, { sessionArgument, checkpointArgument, placeHolder: 'Restore the session to which checkpoint?' });
        return target ? restoreTo({ ...target, from: fromArgument === RESTORE_FROM_CHAT ? RESTORE_FROM_CHAT : undefined }) : undefined;
      },
      'gateway.agent.undoRestore': async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument) ?? (await pickSession(sessions, 'Undo the last restore of which session?'))?.id;
        if (!id) return undefined;
        const undo = (await sessions.checkpoints(id).list(new AbortController().signal)).filter((c) => c.kind === 'restore').at(-1);
        if (!undo) {
          void vscode.window.showInformationMessage('This session has no restore to undo.');
          return undefined;
        }
        return restoreTo({ sessionId: id, checkpointId: undo.id });
      },
    } satisfies Record<CheckpointCommand, (...args: unknown[]) => Promise<unknown>>,
  };
}

/** Every file the session changed, against what it was before the session first touched it; files back as they were are left out. */
async function reviewSession(sessions: AgentSessions, id: string): Promise<unknown> {
  const state = await sessions.store.load(id);
  if (!state) throw new Error(`There is no saved agent session ${id}.`);
  const root = rootOf(state);
  const resources: DiffResource[] = [];
  for (const original of state.originals) {
    const normalized = normalizeWorkspacePath(original.path);
    if (!normalized.ok || normalized.path !== original.path) continue;
    const file = vscode.Uri.joinPath(root, original.path);
    const now = await readIfThere(file);
    const before = await originalText(sessions, id, original.path);
    if (now === before) continue;
    resources.push([file, before === undefined ? undefined : checkpointUri(id, original.path, 'original', file), now === undefined ? undefined : file]);
  }
  if (resources.length === 0) {
    void vscode.window.showInformationMessage(`Every file "${state.title}" changed is back as it was before the session.`);
    return undefined;
  }
  return vscode.commands.executeCommand('vscode.changes', `Session changes: ${state.title.slice(0, 80)}`, resources);
}

/** A file as it was before the session changed it (its checkpoint baseline); undefined: there was no file. */
async function originalText(sessions: AgentSessions, id: string, path: string): Promise<string | undefined> {
  const signal = new AbortController().signal;
  const legacy = (await sessions.store.load(id))?.originals.find((o) => o.path === path)?.before;
  if (legacy !== undefined) return legacy;
  const version = (await sessions.checkpoints(id).baseline(signal)).get(path);
  return version ? sessions.checkpoints(id).blob(version, signal) : undefined;
}

async function reviewStep(sessions: AgentSessions, id: string, checkpointId: number): Promise<unknown> {
  const store = sessions.checkpoints(id);
  const signal = new AbortController().signal;
  const checkpoint = (await store.list(signal)).find((c) => c.id === checkpointId);
  // The paths come from a file on disk: only plain workspace paths become links to files.
  const changes = (await store.stepChanges(checkpointId, signal)).filter(({ path }) => {
    const normalized = normalizeWorkspacePath(path);
    return normalized.ok && normalized.path === path;
  });
  const state = await sessions.store.load(id);
  const root = state ? rootOf(state) : undefined;
  const resources = changes.map(({ path, before, after }): DiffResource => {
    const file = root ? vscode.Uri.joinPath(root, path) : undefined;
    return [
      file ?? checkpointUri(id, path, { version: after }),
      before === null ? undefined : checkpointUri(id, path, { version: before }, file),
      after === null ? undefined : checkpointUri(id, path, { version: after }, file),
    ];
  });
  return vscode.commands.executeCommand('vscode.changes', `${checkpoint?.label ?? 'Step'} (${state?.title.slice(0, 60) ?? id})`, resources);
}

/** Asks (naming the user's own changes and the commands that ran since) unless it is a plain undo, restores, and offers Undo. */
async function restoreWithUndo(sessions: AgentSessions, offer: UndoRestoreOffer, target: RestoreTarget): Promise<unknown> {
  const { sessionId: id, checkpointId, from } = target;
  // A button of an old notification or chat turn: the session may be gone or running again.
  const stale = sessionActionNoLongerApplies('restore', await sessions.store.load(id), sessions.isRunning(id));
  if (stale) return void vscode.window.showInformationMessage(stale);
  const undoneAlready = undoNoLongerApplies(await sessions.checkpoints(id).list(new AbortController().signal), checkpointId);
  if (undoneAlready) return void vscode.window.showInformationMessage(undoneAlready);
  const plan = await sessions.planRestore(id, checkpointId, new AbortController().signal);
  let answer = plan.target.kind === 'step' ? RESTORE : UNDO_RESTORE;
  if (asksBeforeRestore(plan)) {
    const question = restoreQuestion(plan);
    const picked = await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, ...question.buttons);
    if (picked !== KEEP_MINE && picked !== OVERWRITE && picked !== RESTORE && picked !== UNDO_RESTORE) return undefined;
    answer = picked;
  }
  offer.withdraw();
  const result = await sessions.restore(id, plan, answer === KEEP_MINE);
  const signal = new AbortController().signal;
  const status = (await sessions.store.load(id))?.status ?? 'paused';
  // The newest checkpoint is this restore's own; the steps after the target are the ones it undid.
  const restored = latestRestore(await sessions.checkpoints(id).list(signal)) ?? { target: plan.target, undo: result.undo, undone: [] };
  const summary = `Gateway agent: ${restoreDone(restored, status, result)}`;
  // The chat's older turn still says "Session done" and lists the undone steps: a new turn says where the session stands.
  if (from === RESTORE_FROM_CHAT) void vscode.commands.executeCommand('workbench.action.chat.open', { query: sessionStateQuery(id) });
  // Undoing an undo is a restore again: only a restore to a step offers one (the Sessions view lists the rest).
  const undo = plan.target.kind === 'step' ? { sessionId: id, checkpointId: result.undo.id } : undefined;
  if (undo) offer.offer(undo, summary);
  // Continue only where the session can go on (a restore to a finished point leaves it done).
  const next = status === 'paused' || status === 'stopped' ? ['Continue'] : [];
  void vscode.window.showInformationMessage(summary, ...(undo ? [UNDO_RESTORE] : []), ...next, 'Review Session Changes').then((choice) => {
    if (choice === UNDO_RESTORE && undo) {
      if (offer.isCurrent(undo)) return vscode.commands.executeCommand('gateway.agent.restoreCheckpoint', id, undo.checkpointId);
      return vscode.window.showInformationMessage(UNDO_NO_LONGER_APPLIES);
    }
    if (choice === 'Continue') return vscode.commands.executeCommand('gateway.agent.continue', id);
    if (choice === 'Review Session Changes') return vscode.commands.executeCommand('gateway.agent.reviewChanges', id);
    return undefined;
  });
  return result;
}

/** A restore asked for: the session, the checkpoint, and whether the chat's button asked (the chat then gets a turn saying it). */
interface RestoreTarget {
  sessionId: string;
  checkpointId: number;
  from?: typeof RESTORE_FROM_CHAT;
}

/** A command's arguments (as VS Code passes them) and the question asked when they do not name a checkpoint. */
interface CheckpointQuestion {
  sessionArgument: unknown;
  checkpointArgument: unknown;
  placeHolder: string;
}

/** The checkpoint a command means: (session id, checkpoint id) from a chat button, a Sessions view row, or picked. */
async function checkpointOf(sessions: AgentSessions, asked: CheckpointQuestion): Promise<{ sessionId: string; checkpointId: number } | undefined> {
  const { sessionArgument, checkpointArgument, placeHolder } = asked;
  if (isCheckpointNode(sessionArgument)) return { sessionId: sessionArgument.sessionId, checkpointId: sessionArgument.checkpoint.id };
  const sessionId = sessionIdOf(sessionArgument) ?? (await pickSession(sessions, 'Which session?'))?.id;
  if (!sessionId) return undefined;
  if (typeof checkpointArgument === 'number') return { sessionId, checkpointId: checkpointArgument };
  const store = sessions.checkpoints(sessionId);
  const signal = new AbortController().signal;
  const checkpoints = (await store.list(signal)).reverse();
  const dropped = await store.dropped(signal);
  if (checkpoints.length === 0) {
    void vscode.window.showInformationMessage(
      dropped.length > 0 ? droppedNotice(dropped) : 'This session has no checkpoint yet: one is made after each step that changes files.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    checkpoints.map((checkpoint) => ({
      label: checkpoint.label,
      description: checkpointTime(checkpoint.at, new Date(checkpoint.at).getTimezoneOffset()),
      checkpoint,
    })),
    { placeHolder },
  );
  return picked && { sessionId, checkpointId: picked.checkpoint.id };
}

async function pickSession(sessions: AgentSessions, placeHolder: string): Promise<AgentSessionState | undefined> {
  const candidates = (await sessions.store.list()).filter((state) => state.originals.length > 0);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No agent session has changed files.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((state) => ({ label: state.title, description: `${state.status} · ${state.originals.length} files`, state })),
    { placeHolder },
  );
  return picked?.state;
}

function rootOf(state: AgentSessionState): vscode.Uri {
  const decision = rootForSavedSession(state.rootUri, openFolders(), 'review its changes', state.worktree);
  return vscode.Uri.parse(decidedRoot(decision, windowFolders).uri);
}

async function readIfThere(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}
