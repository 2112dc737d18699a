/** Turns the Chat view's history and attached references into the core's plain prompt input. */
import * as vscode from 'vscode';
import type { Attachment, ConversationTurn } from '../common/prompt';
import { TEXT_ONLY_REASON, type ActiveCode, type ReferenceContent } from '../common/commandContext';
import { conversationTurns, type HistoryEntry } from '../common/historyTurns';

export const PARTICIPANT_ID = 'gateway.chat';

export function historyOf(context: vscode.ChatContext): ConversationTurn[] {
  return conversationTurns(context.history.map(toEntry), PARTICIPANT_ID);
}

function toEntry(turn: vscode.ChatRequestTurn | vscode.ChatResponseTurn): HistoryEntry {
  // By shape: the host may hand subclass-free variants of these classes (as with LanguageModelToolResultPart2).
  if ('prompt' in turn) return { kind: 'request', participant: turn.participant, command: turn.command, text: turn.prompt };
  const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
  return { kind: 'response', participant: turn.participant, command: turn.command, metadata: turn.result.metadata, text };
}

/** Files, selections and text the user attached, read; open documents are read with their unsaved edits. */
export async function referenceContents(references: readonly vscode.ChatPromptReference[]): Promise<ReferenceContent[]> {
  const contents: ReferenceContent[] = [];
  for (const reference of references) {
    const value = reference.value;
    if (value instanceof vscode.Uri) {
      contents.push(await fromDocument(value));
    } else if (value instanceof vscode.Location) {
      contents.push(await fromDocument(value.uri, value.range));
    } else if (typeof value === 'string') {
      contents.push({ kind: 'text', attachment: { label: reference.modelDescription ?? reference.id, content: value } });
    } else {
      // Pasted images and other binary data: the chat endpoint here takes text only.
      contents.push({ kind: 'unusable', name: referenceName(reference), reason: TEXT_ONLY_REASON });
    }
  }
  return contents;
}

/** A reference with the path its attachment is labelled with (a file's, workspace-relative), for hostReferences.ts. */
export function pathed(reference: vscode.ChatPromptReference): { id: string; modelDescription?: string; path?: string } {
  const uri = reference.value instanceof vscode.Uri ? reference.value : undefined;
  return { id: reference.id, modelDescription: reference.modelDescription, path: uri && vscode.workspace.asRelativePath(uri) };
}

/** What the user would call a non-text reference (the host's name for it when it gives one). */
function referenceName(reference: vscode.ChatPromptReference): string {
  const name = (reference as { name?: unknown }).name;
  if (typeof name === 'string' && name) return name;
  return reference.modelDescription ?? reference.id;
}

/** The active editor's selection (or whole file when nothing is selected), for /explain and /fix with nothing attached. */
export function activeSelection(): ActiveCode | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const range = editor.selection.isEmpty ? undefined : editor.selection;
  return { path: vscode.workspace.asRelativePath(editor.document.uri, false), attachment: attachment(editor.document, range) };
}

async function fromDocument(uri: vscode.Uri, range?: vscode.Range): Promise<ReferenceContent> {
  try {
    return { kind: 'text', attachment: attachment(await vscode.workspace.openTextDocument(uri), range) };
  } catch {
    // openTextDocument refuses binary files (and unreadable ones): tell the user rather than send a placeholder.
    return { kind: 'unusable', name: vscode.workspace.asRelativePath(uri), reason: TEXT_ONLY_REASON };
  }
}

function attachment(document: vscode.TextDocument, range?: vscode.Range): Attachment {
  const path = vscode.workspace.asRelativePath(document.uri);
  const label = range ? `${path}:${range.start.line + 1}-${range.end.line + 1}` : path;
  return { label, language: document.languageId, content: document.getText(range) };
}
