/**
 * "Gateway: Edit Selection…": the chat model rewrites the selection (or the
 * enclosing block); the rewrite streams into a diff against the original, and
 * Accept applies it as one WorkspaceEdit (one undo) while Reject leaves the
 * file exactly as it was. The document changing under a pending edit, the file
 * closing, or a failed request leave the original intact and say what happened.
 */
import * as vscode from 'vscode';
import type { ModelEndpoints } from '../../models/common';
import { CodeAnswerCleaner } from '../common/answerCleaner';
import { buildInlineEditMessages, surroundingContext } from '../common/prompt';
import type { ErrorPresenter } from '../../gateway/vscode';
import { incompleteReason } from '../../chat/common';
import { requestParameters, type SettingsService } from '../../settings/common';
import { pickInstruction } from './instructionPicker';
import { PROPOSAL_SCHEME, type ProposalDocuments } from './proposalDocuments';
import { editRange } from './editRange';

interface PendingEdit {
  document: vscode.TextDocument;
  range: vscode.Range;
  original: string;
  version: number;
  proposal: string;
  proposalUri: vscode.Uri;
  streaming: boolean;
  /** Why the answer ended early (token limit, content filter), shown with the proposal; undefined when complete. */
  cutOff: string | undefined;
  controller: AbortController;
}

export class InlineEditController implements vscode.Disposable {
  private pending: PendingEdit | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly lensChanged = new vscode.EventEmitter<void>();

  constructor(
    private readonly endpoints: ModelEndpoints,
    private readonly chatModel: (signal: AbortSignal) => Promise<string>,
    private readonly proposals: ProposalDocuments,
    private readonly errors: ErrorPresenter,
    private readonly state: vscode.Memento,
    private readonly settings: SettingsService,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => {
        const pending = this.pending;
        if (pending && event.document === pending.document && event.contentChanges.length > 0) {
          void this.abandon('The file changed while the edit was pending, so nothing was applied. Run "Gateway: Edit Selection…" again.');
        }
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.pending && document === this.pending.document) void this.abandon('The file was closed, so the pending edit was dropped. Nothing was changed.');
      }),
      vscode.languages.registerCodeLensProvider(
        { scheme: 'file' },
        { onDidChangeCodeLenses: this.lensChanged.event, provideCodeLenses: (document) => this.codeLenses(document) },
      ),
      vscode.languages.registerCodeLensProvider(
        { scheme: 'untitled' },
        { onDidChangeCodeLenses: this.lensChanged.event, provideCodeLenses: (document) => this.codeLenses(document) },
      ),
    );
  }

  /** The command: asks for an instruction and streams the rewrite into a diff. */
  async editSelection(instructionArgument?: unknown): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Open a file and select the code to edit first.');
      return;
    }
    if (editor.document.uri.scheme === PROPOSAL_SCHEME) {
      void vscode.window.showInformationMessage('This is the proposed edit: accept it (Ctrl+Enter) or reject it (Esc) first, then select code in the file.');
      return;
    }
    // A second request replaces the first one at once.
    if (this.pending) await this.abandon(undefined);
    const { document } = editor;
    const versionAtSelection = document.version;
    const range = await editRange(editor);
    const instruction = typeof instructionArgument === 'string' ? instructionArgument : await pickInstruction(this.state);
    if (!instruction) return;
    // The instruction box does not lock the file: typed-in lines would shift what `range` points at.
    if (document.version !== versionAtSelection) {
      void vscode.window.showWarningMessage(
        'The file changed while you wrote the instruction, so nothing was sent. Select the code again and run "Gateway: Edit Selection…": your instruction is under "recent".',
      );
      return;
    }
    await this.run(document, range, instruction);
  }

  private async run(document: vscode.TextDocument, range: vscode.Range, instruction: string): Promise<void> {
    const original = document.getText(range);
    const controller = new AbortController();
    const proposalUri = this.proposals.uriFor(document.uri);
    const pending: PendingEdit = {
      document,
      range,
      original,
      version: document.version,
      proposal: original,
      proposalUri,
      streaming: true,
      cutOff: undefined,
      controller,
    };
    this.pending = pending;
    this.proposals.set(proposalUri, this.fullProposal(pending, ''));
    await this.setContext();
    await vscode.commands.executeCommand(
      'vscode.diff',
      document.uri,
      proposalUri,
      `${vscode.workspace.asRelativePath(document.uri)}: Gateway edit (Accept Ctrl+Enter · Reject Esc)`,
      {
        preview: true,
        selection: range,
      },
    );
    // Rejected (Escape, the file changed) while the diff was opening: that close found no tab yet.
    if (this.pending !== pending) {
      await this.closeDiff(pending);
      return;
    }
    this.lensChanged.fire();
    try {
      const settings = this.settings.current();
      const context = surroundingContext(document.getText(), document.offsetAt(range.start), document.offsetAt(range.end));
      const messages = buildInlineEditMessages({
        languageId: document.languageId,
        fileName: vscode.workspace.asRelativePath(document.uri),
        instruction,
        selection: original,
        ...context,
      });
      const model = await this.chatModel(controller.signal);
      const cleaner = new CodeAnswerCleaner({ selection: original, languageId: document.languageId });
      let shown = '';
      for await (const event of this.endpoints.stream(
        { model, messages, ...requestParameters(settings) },
        { signal: controller.signal, origin: { surface: 'inline' } },
      )) {
        if (event.type === 'done') pending.cutOff = incompleteReason(event.finishReason);
        if (event.type !== 'text') continue;
        shown += cleaner.push(event.text);
        if (this.pending === pending) this.proposals.set(proposalUri, this.fullProposal(pending, shown));
      }
      shown += cleaner.finish();
      if (this.pending !== pending) return;
      pending.proposal = withDocumentEol(document, shown);
      pending.streaming = false;
      this.proposals.set(proposalUri, this.fullProposal(pending, shown));
      await this.setContext();
      this.lensChanged.fire();
      if (pending.cutOff)
        void vscode.window.showWarningMessage(`The rewrite is incomplete: ${pending.cutOff}. Check the diff before you accept it, or reject it.`);
    } catch (error) {
      if (this.pending !== pending) return;
      await this.abandon(undefined);
      if (!controller.signal.aborted) void this.errors.show(error);
    }
  }

  /** Accept: one WorkspaceEdit, so a single undo reverts it. */
  async accept(): Promise<boolean> {
    const pending = this.pending;
    if (!pending || pending.streaming) return false;
    if (pending.document.version !== pending.version) {
      await this.abandon('The file changed while the edit was pending, so nothing was applied.');
      return false;
    }
    this.pending = undefined;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(pending.document.uri, pending.range, pending.proposal);
    const applied = await vscode.workspace.applyEdit(edit);
    await this.closeDiff(pending);
    await this.setContext();
    this.lensChanged.fire();
    await vscode.window.showTextDocument(pending.document, { selection: new vscode.Range(pending.range.start, pending.range.start) });
    return applied;
  }

  /** Reject, or Escape while streaming: stops the request and leaves the file as it was. */
  async reject(): Promise<void> {
    await this.abandon(undefined);
  }

  private async abandon(message: string | undefined): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    pending.controller.abort();
    await this.closeDiff(pending);
    await this.setContext();
    this.lensChanged.fire();
    if (message) void vscode.window.showWarningMessage(message);
  }

  private fullProposal(pending: PendingEdit, replacement: string): string {
    replacement = withDocumentEol(pending.document, replacement);
    const text = pending.document.getText();
    return text.slice(0, pending.document.offsetAt(pending.range.start)) + replacement + text.slice(pending.document.offsetAt(pending.range.end));
  }

  private async closeDiff(pending: PendingEdit): Promise<void> {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputTextDiff && input.modified.toString() === pending.proposalUri.toString()) await vscode.window.tabGroups.close(tab);
      }
    }
    this.proposals.delete(pending.proposalUri);
  }

  private codeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const pending = this.pending;
    if (!pending || document !== pending.document) return [];
    const at = new vscode.Range(pending.range.start, pending.range.start);
    if (pending.streaming)
      return [new vscode.CodeLens(at, { title: '$(loading~spin) Gateway is rewriting… (Esc to cancel)', command: 'gateway.inlineEdit.reject' })];
    return [
      ...(pending.cutOff ? [new vscode.CodeLens(at, { title: `$(warning) Incomplete: ${pending.cutOff}`, command: '' })] : []),
      new vscode.CodeLens(at, { title: '$(check) Accept (Ctrl+Enter)', command: 'gateway.inlineEdit.accept' }),
      new vscode.CodeLens(at, { title: '$(close) Reject (Esc)', command: 'gateway.inlineEdit.reject' }),
    ];
  }

  private async setContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'gateway.inlineEditPending', this.pending !== undefined);
    // Ctrl+Enter and Escape act only in the edited file or its diff (both have its path).
    await vscode.commands.executeCommand('setContext', 'gateway.inlineEditPaths', this.pending ? [this.pending.document.uri.fsPath] : []);
    await vscode.commands.executeCommand('setContext', 'gateway.inlineEditStreaming', this.pending?.streaming === true);
  }

  /** For the extension's API: what is pending now. */
  status(): { streaming: boolean; proposal: string; cutOff?: string } | undefined {
    return this.pending && { streaming: this.pending.streaming, proposal: this.pending.proposal, cutOff: this.pending.cutOff };
  }

  dispose(): void {
    this.pending?.controller.abort();
    this.lensChanged.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The model answers with \n; a CRLF file keeps CRLF, so the diff shows only real changes. */
function withDocumentEol(document: vscode.TextDocument, text: string): string {
  return text.replace(/\r?\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
}
