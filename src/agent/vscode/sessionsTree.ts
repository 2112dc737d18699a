/** "Agent Sessions": every saved session with its state, turns and tokens. */
import { counted } from '../../base/common';
import * as vscode from 'vscode';
import { backgroundNote, commandBlock, inlineCode } from '../common/approvals/commandDisplay';
import type { AgentSessionState } from '../../sessionModel/common';
import { contextUsage, lastCompactionNotice } from '../common/engine/compaction';
import { checkpointTime, planStepText, sessionRow } from '../common/sessions/sessionRow';
import { filesChangedText } from '../common/sessions/transcriptMarkdown';
import type { PlanStep } from '../../tools/common';
import type { AgentSessions } from './agentSessions';
import { openFolders } from './windowFolders';
import { describePlace } from '../../sessionModel/common';
import { transcriptUri } from './transcript';
import { isCheckpointNode, type CheckpointNode } from './checkpointNode';

const ICONS: Record<AgentSessionState['status'], string> = {
  running: 'sync~spin',
  awaiting_approval: 'question',
  paused: 'debug-pause',
  stopped: 'debug-stop',
  done: 'pass',
};

/**
 * A running session saves after every step; each save refreshes the view, and a
 * refresh lists every session. Saves that come close together make one refresh.
 */
const REFRESH_DELAY_MS = 200;

const STEP_ICONS: Record<PlanStep['status'], string> = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', done: 'pass-filled' };

/** A step of a session's plan, shown under the session. */
interface PlanNode {
  sessionId: string;
  sessionStatus: AgentSessionState['status'];
  index: number;
  step: PlanStep;
}

type Node = AgentSessionState | PlanNode | CheckpointNode;

/** The session a row of the view belongs to (the session's own row, a step of its plan, a checkpoint). */
export function sessionOfNode(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if ('sessionId' in node && typeof node.sessionId === 'string') return node.sessionId;
  return 'id' in node && typeof node.id === 'string' ? node.id : undefined;
}

function isPlanNode(node: Node): node is PlanNode {
  return 'step' in node && 'sessionId' in node;
}

export class SessionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private reportedFailure: string | undefined;

  constructor(private readonly sessions: AgentSessions) {
    this.subscriptions = [
      sessions.store.onDidChange(() => this.refreshSoon()),
      sessions.store.onDidRemove(() => this.refreshSoon()),
      sessions.approvals.onDidChangePending(() => this.refreshSoon()),
    ];
  }

  private refreshSoon(): void {
    if (this.refreshTimer !== undefined) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.changed.fire();
    }, REFRESH_DELAY_MS);
  }

  getChildren(element?: Node): Promise<Node[]> | Node[] {
    if (!element) return this.listSessions();
    if (isPlanNode(element) || isCheckpointNode(element)) return [];
    return this.sessionChildren(element);
  }

  /** The plan's steps, then the checkpoints, newest first (what "Restore to here" goes back to). */
  private async sessionChildren(state: AgentSessionState): Promise<Node[]> {
    const steps: Node[] = (state.plan ?? []).map((step, index) => ({ sessionId: state.id, sessionStatus: state.status, index, step }));
    if (state.originals.length === 0) return steps;
    try {
      const checkpoints = await this.sessions.checkpoints(state.id).list(new AbortController().signal);
      return [...steps, ...checkpoints.reverse().map((checkpoint): CheckpointNode => ({ sessionId: state.id, checkpoint }))];
    } catch (error) {
      this.sessions.logger.warn(`the checkpoints of agent session ${state.id} could not be read: ${String(error)}`);
      return steps;
    }
  }

  /** An unreadable sessions folder is said once (the view refreshes after every save), not shown as "no sessions". */
  private async listSessions(): Promise<AgentSessionState[]> {
    try {
      const sessions = await this.sessions.store.list();
      this.reportedFailure = undefined;
      return sessions;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.reportedFailure) void vscode.window.showErrorMessage(message);
      this.reportedFailure = message;
      return [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (isCheckpointNode(node)) return checkpointItem(node);
    return isPlanNode(node) ? planItem(node) : this.sessionItem(node);
  }

  private sessionItem(state: AgentSessionState): vscode.TreeItem {
    const collapsible = state.plan?.length || state.originals.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
    const row = sessionRow(state, Date.now(), new Date().getTimezoneOffset());
    const item = new vscode.TreeItem(row.label, collapsible);
    item.id = state.id;
    const context = contextUsage(state);
    const compacted = lastCompactionNotice(state);
    // The state first (at the view's default width the end of a row is what is cut), then the place — a worktree's
    // branch, or the folder where several are open (with one folder, a folder session's place says nothing new).
    const folders = openFolders();
    const folder = folders.find((candidate) => candidate.uri === state.rootUri)?.name;
    const shownPlace = state.worktree || folders.length > 1 ? ` · ${describePlace(state.worktree, folder)}` : '';
    item.description = `${row.description}${shownPlace}`;
    // The row shows 80 characters of a command at most: the tooltip shows every waiting one whole.
    const waitingCommands = this.sessions.approvals.waiting(state.id).flatMap((request) => (request.command ? [request.command] : []));
    const commands = waitingCommands
      .map((command) => `\n\nWaiting for your approval,${backgroundNote(command)} in ${inlineCode(command.cwd)}:\n\n${commandBlock(command.line)}`)
      .join('');
    // A host tool's input: its start and end, as the approval shows them ("Show Full Input" there shows all).
    const inputs = this.sessions.approvals
      .waiting(state.id)
      .flatMap((request) => (request.input ? [`\n\nWaiting for your approval: ${inlineCode(request.summary)}`] : []))
      .join('');
    item.tooltip = new vscode.MarkdownString(
      `**${state.title}**\n\n${state.status}${state.statusReason ? `: ${state.statusReason}` : ''}\n\nModel ${state.model} · ${counted(state.turns, 'turn')} · ` +
        `${counted(state.usage.totalTokens, 'token')}${context ? ` · ${context}` : ''}\n\n` +
        `${compacted ? `${compacted} (${state.compactions?.length ?? 0} compactions)\n\n` : ''}${worktreeLine(state)}Files changed: ${filesChangedText(state.originals.map((o) => o.path).join(', ') || 'none', state.commandsRun.length)}${commands}${inputs}`,
    );
    item.iconPath = new vscode.ThemeIcon(ICONS[state.status]);
    const running = this.sessions.isRunning(state.id);
    const waiting = this.sessions.approvals.waiting(state.id).length > 0;
    const place = !state.worktree ? 'folder' : state.worktree.discardedAt !== undefined ? 'discarded' : 'worktree';
    item.contextValue = [
      'session',
      running ? 'running' : 'idle',
      state.originals.length > 0 ? 'changed' : 'unchanged',
      place,
      waiting ? 'waiting' : 'answered',
    ].join('-');
    item.command = { title: 'Open Transcript', command: 'gateway.agent.openTranscript', arguments: [state.id] };
    item.resourceUri = transcriptUri(state.id);
    return item;
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.changed.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The tooltip's line on the session's worktree (issue 40). */
function worktreeLine(state: AgentSessionState): string {
  const { worktree } = state;
  if (!worktree) return '';
  const from = `from ${worktree.baseCommit.slice(0, 12)}`;
  return worktree.discardedAt !== undefined
    ? `Worktree discarded (was ${worktree.path}, branch ${worktree.branch} ${from})\n\n`
    : `Worktree ${worktree.path}, branch ${worktree.branch} ${from}\n\n`;
}

function checkpointItem(node: CheckpointNode): vscode.TreeItem {
  const { checkpoint } = node;
  const item = new vscode.TreeItem(checkpoint.label, vscode.TreeItemCollapsibleState.None);
  item.id = `${node.sessionId}/checkpoint/${checkpoint.id}`;
  item.description = checkpointTime(checkpoint.at, new Date(checkpoint.at).getTimezoneOffset());
  item.tooltip =
    checkpoint.kind === 'step'
      ? `After ${checkpoint.label}. "Restore to Here" puts the files and the conversation back to this point.`
      : `${checkpoint.label}: restoring this undoes that restore.`;
  item.iconPath = new vscode.ThemeIcon(checkpoint.kind === 'step' ? 'history' : 'discard');
  item.contextValue = `checkpoint-${checkpoint.kind}`;
  if (checkpoint.kind === 'step') item.command = { title: 'Review Step Changes', command: 'gateway.agent.reviewStep', arguments: [node] };
  return item;
}

function planItem(node: PlanNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.step.step, vscode.TreeItemCollapsibleState.None);
  item.id = `${node.sessionId}/plan/${node.index}`;
  const text = planStepText(node.step.status, node.sessionStatus);
  item.description = text;
  item.iconPath = new vscode.ThemeIcon(text === node.step.status.replace('_', ' ') ? STEP_ICONS[node.step.status] : 'circle-slash');
  item.contextValue = 'planStep';
  return item;
}
