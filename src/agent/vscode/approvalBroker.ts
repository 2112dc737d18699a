/**
 * Holds the approvals the agent is waiting for. Whoever shows the session (the
 * chat, or a notification for sessions run from the palette) presents them;
 * the Approve / Deny buttons and commands answer them here. Edits are shown as
 * a diff of the current and the proposed content before the user answers.
 */
import * as vscode from 'vscode';
import { keyOf, PendingApprovals, type AnsweredApproval, type PendingApproval } from '../common/approvals/pendingApprovals';
import { staleAnswerMessage, unlinked } from '../common/approvals/approvalText';
import { backgroundNote, commandPlace, notificationCommand } from '../common/approvals/commandDisplay';
import { visibleText } from '../../base/common';
import type { ApprovalRequest, Approver } from '../../sessionModel/common';

export const PROPOSED_SCHEME = 'gateway-proposed';
const SHOW_FULL_COMMAND = 'Show Full Command';
const SHOW_FULL_INPUT = 'Show Full Input';
/** The fragment that makes a document of this scheme a waiting call's whole input rather than a proposed file. */
const INPUT_FRAGMENT = 'input';

export type ApprovalPresenter = (request: ApprovalRequest) => void;

export class ApprovalBroker implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly presenters = new Map<string, ApprovalPresenter>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangePending = this.changed.event;
  private readonly endedEmitter = new vscode.EventEmitter<AnsweredApproval>();
  /** An approval stopped waiting: answered, or its session stopped. */
  readonly onDidEnd = this.endedEmitter.event;
  private readonly pending = new PendingApprovals(
    () => this.changed.fire(),
    (ended) => this.endedEmitter.fire(ended),
  );

  /** Who shows this session's approvals (the chat turn that runs it, or a notification). */
  present(sessionId: string, presenter: ApprovalPresenter): vscode.Disposable {
    this.presenters.set(sessionId, presenter);
    return { dispose: () => this.presenters.get(sessionId) === presenter && this.presenters.delete(sessionId) };
  }

  /** The approver for a session running in `root`: its diffs compare against the files there. */
  forSession(root: vscode.Uri): Approver {
    return this.pending.forSession(root.toString(), ({ request }) => {
      if (request.preview) void this.showDiff(request.sessionId, request.callId);
      (this.presenters.get(request.sessionId) ?? notificationPresenter(this))(request);
    });
  }

  /** Answers a waiting approval; false when there is none (already answered, or the session stopped). */
  respond(sessionId: string, callId: string, approved: boolean): boolean {
    return this.pending.respond(sessionId, callId, approved);
  }

  waiting(sessionId?: string): ApprovalRequest[] {
    return this.pending.waiting(sessionId);
  }

  /** How an approval that no longer waits ended (for a click on its stale button). */
  ended(sessionId: string, callId: string): AnsweredApproval | undefined {
    return this.pending.ended(sessionId, callId);
  }

  async showDiff(sessionId: string, callId: string): Promise<void> {
    const approval = this.pending.find(sessionId, callId);
    if (!approval?.request.preview) return;
    const { preview } = approval.request;
    const current = currentFileOf(approval);
    const proposed = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${preview.path}`, query: keyOf(sessionId, callId) });
    const left = preview.before === undefined ? proposed.with({ query: `${keyOf(sessionId, callId)}&empty` }) : current;
    await vscode.commands.executeCommand('vscode.diff', left, proposed, `${preview.path}: proposed by the agent`, besideTheChat());
  }

  /**
   * Opens a waiting host tool call's whole input, pretty-printed, in a read-only
   * editor (a document of this provider): the approval's summary may show only its start and end.
   */
  async showInput(sessionId: string, callId: string): Promise<void> {
    const input = this.pending.find(sessionId, callId)?.request.input;
    if (!input) return;
    const name = input.tool.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'tool';
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${name} input.json`, query: keyOf(sessionId, callId), fragment: INPUT_FRAGMENT });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, besideTheChat());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.fragment === INPUT_FRAGMENT) return this.inputDocument(uri.query);
    const [key, empty] = uri.query.split('&');
    if (empty === 'empty') return '';
    const separator = key.indexOf(':');
    return this.pending.find(key.slice(0, separator), key.slice(separator + 1))?.request.preview?.after ?? '';
  }

  /** The text of a "Show Full Input" document: what the call would get, and how long it is. */
  private inputDocument(key: string): string {
    const separator = key.indexOf(':');
    const input = this.pending.find(key.slice(0, separator), key.slice(separator + 1))?.request.input;
    if (!input) return '// This call is no longer waiting for approval.\n';
    return `// The whole input the agent wants to give ${visibleText(input.tool)}: ${input.chars.toLocaleString('en-US')} characters.\n// Invisible characters are written as ⟨U+XXXX⟩.\n${input.text}\n`;
  }

  dispose(): void {
    this.pending.denyAll();
    this.changed.dispose();
    this.endedEmitter.dispose();
  }
}

/**
 * Where a diff or a document for an approval opens without taking the chat's place: the user answers the
 * approval in the chat. When the chat is an editor tab (Chat: Open Chat in Editor, or a chat opened while the
 * Chat view was hidden), the active group is the chat's own, and a preview opened there hides the chat and its
 * Approve button behind it: it opens in the group beside instead. VS Code has TabInputChat at run time; the
 * @types/vscode this builds against does not declare it.
 */
function besideTheChat(): vscode.TextDocumentShowOptions {
  const chatTab = (vscode as unknown as { TabInputChat?: abstract new (...args: never[]) => unknown }).TabInputChat;
  const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const chatIsActive = chatTab !== undefined && active instanceof chatTab;
  return { preview: true, preserveFocus: true, ...(chatIsActive ? { viewColumn: vscode.ViewColumn.Beside } : {}) };
}

/** The file as it is now, in the asking session's folder. */
function currentFileOf({ request, rootUri }: PendingApproval): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.parse(rootUri), request.preview?.path ?? '');
}

/**
 * Opens the whole command in an editor (plain text, nothing interpreted), for
 * when a notification or a row of the Sessions view can show only its start.
 */
export async function showFullCommand(command: { line: string; cwd: string; background?: boolean }): Promise<void> {
  const content = `# Runs${backgroundNote(command)} in: ${visibleText(command.cwd)}\n# Exactly this, character for character (invisible characters written as ⟨U+XXXX⟩):\n\n${visibleText(command.line)}\n`;
  const document = await vscode.workspace.openTextDocument({ content, language: 'shellscript' });
  await vscode.window.showTextDocument(document, besideTheChat());
}

/** For sessions that run without a chat turn, and for "Show the Agent's Waiting Approval": a notification with the same choices. */
export function notificationPresenter(broker: ApprovalBroker): ApprovalPresenter {
  return (request) => {
    const shown = request.command ? notificationCommand(request.command.line) : undefined;
    const ask = async () => {
      const choices = ['Approve', 'Deny'];
      if (request.preview) choices.push('Show Diff');
      if (shown && !shown.complete) choices.push(SHOW_FULL_COMMAND);
      if (request.input) choices.push(SHOW_FULL_INPUT);
      const detail = request.command && shown ? `${shown.text} ${commandPlace(request, soleFolderName())}` : request.summary;
      const choice = await vscode.window.showWarningMessage(`Gateway agent wants to: ${unlinked(detail)}`, ...choices);
      if (choice === 'Show Diff') {
        await broker.showDiff(request.sessionId, request.callId);
        return ask();
      }
      if (choice === SHOW_FULL_COMMAND && request.command) {
        await showFullCommand(request.command);
        return ask();
      }
      if (choice === SHOW_FULL_INPUT) {
        await broker.showInput(request.sessionId, request.callId);
        return ask();
      }
      // Dismissing the notification leaves the approval waiting: it stays answerable from the Sessions view.
      if ((choice === 'Approve' || choice === 'Deny') && !broker.respond(request.sessionId, request.callId, choice === 'Approve'))
        void vscode.window.showInformationMessage(staleAnswerMessage(broker.ended(request.sessionId, request.callId)));
    };
    void ask();
  };
}

/** The workspace folder's name when there is one folder: "in `my-app`" says where, "in `.`" did not. */
export function soleFolderName(): string | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length === 1 ? folders[0].name : undefined;
}
