/** The proposed rewrite as a read-only virtual document, updated live while it streams (the right side of the diff). */
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'gateway-inline-proposal';

export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  uriFor(original: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: original.path, query: original.toString() });
  }

  set(uri: vscode.Uri, content: string): void {
    this.contents.set(uri.toString(), content);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.contents.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
