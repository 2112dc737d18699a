/** A saved session as a readable markdown document (read-only, virtual). */
import * as vscode from 'vscode';
import type { AgentSessionState } from '../../core/agent/sessionState';
import type { FileSessionStore } from './sessionStore';

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
    return state ? renderTranscript(state) : `No saved agent session ${id}.`;
  }

  dispose(): void {
    this.changed.dispose();
    this.subscription.dispose();
  }
}

const MAX_OUTPUT_SHOWN = 2000;

export function renderTranscript(state: AgentSessionState): string {
  const lines = [
    `# ${state.title}`,
    '',
    `Status: **${state.status}**${state.statusReason ? ` — ${state.statusReason}` : ''}  `,
    `Model: ${state.model} · ${state.turns} turns · ${state.usage.totalTokens.toLocaleString('en-US')} tokens ` +
      `(${state.usage.inputTokens} in, ${state.usage.outputTokens} out, ${state.usage.reasoningTokens} reasoning)  `,
    `Files changed: ${state.originals.map((o) => `\`${o.path}\``).join(', ') || 'none'}  `,
    `Commands run: ${state.commandsRun.map((c) => `\`${c}\``).join(', ') || 'none'}`,
    '',
  ];
  for (const item of state.transcript) {
    if (item.type === 'function_call') lines.push(`**→ ${item.name}** \`${item.arguments}\``, '');
    else if (item.type === 'function_call_output') {
      const output = item.output.length > MAX_OUTPUT_SHOWN ? `${item.output.slice(0, MAX_OUTPUT_SHOWN)}\n… (${item.output.length - MAX_OUTPUT_SHOWN} more characters)` : item.output;
      lines.push('```text', output.replace(/```/g, '`\u200b``'), '```', '');
    } else lines.push(`### ${item.role === 'user' ? 'You' : 'Agent'}`, '', item.content, '');
  }
  return lines.join('\n');
}
