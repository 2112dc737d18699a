/** A saved session as a readable markdown document (read-only, virtual). */
import * as vscode from 'vscode';
import type { FileSessionStore } from './sessionStore';
import { agentExtras } from '../common/sessions/agentExtrasLoader';

export const TRANSCRIPT_SCHEME = 'gateway-transcript';

export function transcriptUri(sessionId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${sessionId}.md` });
}

export class TranscriptProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: FileSessionStore) {
    this.subscription = store.onDidChange((state) => this.changed.fire(transcriptUri(state.id)));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const state = await this.store.load(id);
    return state ? agentExtras().renderTranscript(state) : `No saved agent session ${id}.`;
  }

  dispose(): void {
    this.changed.dispose();
    this.subscription.dispose();
  }
}
