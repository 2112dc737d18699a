/**
 * The model's thinking in a chat turn, with the stable chat API only. The chat
 * renders no collapsible markdown for a participant (its sanitizer has no
 * `<details>`/`<summary>` and prints such tags as text; the thinking part is a
 * proposed API), so the thinking is one button in the turn (collapsed: its
 * label says how much there is) that opens it beside the chat (expanded).
 * "Thinking…" shows while it streams; once the answer is complete, VS Code 1.139
 * also folds both under its "Completed N steps" line. A button is not a markdown
 * part, so the thinking is not in the history the next request is built from.
 */
import * as vscode from 'vscode';
import { THINKING_GONE, ThinkingCollector, type ThinkingParts, thinkingDocument, thinkingTitle } from '../common/thinking';

export const THINKING_SCHEME = 'gateway-thinking';
export const SHOW_THINKING_COMMAND = 'gateway.showThinking';

const thinkingUri = (id: number): vscode.Uri => vscode.Uri.from({ scheme: THINKING_SCHEME, path: `/Thinking ${id}.md`, query: String(id) });

/** The read-only documents the buttons open. */
export class ThinkingDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly parts: ThinkingParts) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const part = this.parts.get(Number(uri.query));
    return part ? thinkingDocument(part) : THINKING_GONE;
  }

  async show(id: unknown): Promise<void> {
    if (typeof id !== 'number') return;
    const document = await vscode.workspace.openTextDocument(thinkingUri(id));
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
}

/** One chat turn's thinking: "Thinking…" while it streams, then its part, closed before the next thing the turn shows. */
export class ThinkingStream {
  private readonly collector = new ThinkingCollector();

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly parts: ThinkingParts | undefined,
  ) {}

  reasoning(text: string): void {
    if (!this.parts) return;
    if (!this.collector.started) this.stream.progress('Thinking…');
    this.collector.add(text);
  }

  /** Shows the thinking gathered so far as its part (nothing when there was none). */
  close(): void {
    const gathered = this.collector.take();
    if (!gathered || !this.parts) return;
    const part = this.parts.add(gathered);
    this.stream.button({ title: thinkingTitle(part), command: SHOW_THINKING_COMMAND, arguments: [part.id] });
  }
}
