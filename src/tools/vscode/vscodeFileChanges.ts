/**
 * Applies the agent's approved changes in VS Code without ever letting VS Code
 * write the disk by a path a sandboxed process could re-point (issue 21,
 * finding 4: its save follows a symlink swapped between our check and its open).
 *
 * - A file open with unsaved changes is edited in the editor, as one
 *   WorkspaceEdit (one undo step), and left unsaved: the user's own edits are
 *   never overwritten or saved behind their back, and nothing touches the disk.
 * - Any other file is written by the host's anchored port (a handle checked
 *   after it was opened: inside the workspace, not protected, where the check
 *   said). Its document is loaded first, so VS Code's reload from the disk is
 *   one step the user can undo; the write waits (briefly) for that reload.
 * - Removals go through the same port.
 */
import * as vscode from 'vscode';
import type { FileChanges, WriteExpectation } from '../../base/common';
import { appliedOrThrow } from '../common/editRefusal';
import { normalizeWorkspacePath } from '../common/pathPolicy';

/** How long a write waits for an open document to show what was written (VS Code reloads it when its watcher reports the change). */
const RELOAD_WAIT_MS = 1_500;

export class VsCodeFileChanges implements FileChanges {
  constructor(
    private readonly rootUri: vscode.Uri,
    /** The host's anchored writes and removals (the Node port, passed in by the composition root). */
    private readonly disk: FileChanges,
  ) {}

  async write(path: string, content: string, signal: AbortSignal, expected?: WriteExpectation): Promise<void> {
    signal.throwIfAborted();
    const uri = insideRoot(this.rootUri, path);
    const open = openDocument(uri);
    if (open?.isDirty) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), content);
      await appliedOrThrow(vscode.workspace.applyEdit(edit), `VS Code refused the edit of ${path}.`);
      return;
    }
    // Loaded before the write, so the reload after it is an undoable change. Only kept in VS Code:
    // what it read is never returned to the agent (a dirty document is the only one read from the editor).
    const document = open ?? (await vscode.workspace.openTextDocument(uri).then(identity, () => undefined));
    const reloaded = document ? showsText(document, content, signal) : undefined;
    try {
      await this.disk.write(path, content, signal, expected);
    } catch (error) {
      reloaded?.cancel();
      throw error;
    }
    await reloaded?.done;
  }

  async delete(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    insideRoot(this.rootUri, path);
    await this.disk.delete(path, signal);
  }
}

/**
 * The last check before a write: Uri.joinPath resolves `..` and would happily
 * leave the root, so a path that is not already a plain workspace path is refused.
 */
function insideRoot(rootUri: vscode.Uri, path: string): vscode.Uri {
  const normalized = normalizeWorkspacePath(path);
  if (!normalized.ok || normalized.path !== path || path === '.') throw new Error(`"${path}" is not a path inside the workspace; nothing was written.`);
  return vscode.Uri.joinPath(rootUri, path);
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

function identity<T>(value: T): T {
  return value;
}

/**
 * Resolves once `document` holds `text` (line endings aside), after at most
 * RELOAD_WAIT_MS, or when `signal` aborts: a document VS Code does not reload
 * (a watcher exclusion) only costs the wait, never the write.
 */
function showsText(document: vscode.TextDocument, text: string, signal: AbortSignal): { done: Promise<void>; cancel: () => void } {
  const wanted = text.replace(/\r\n/g, '\n');
  // Already so: VS Code's reload changes nothing and says nothing.
  if (document.getText().replace(/\r\n/g, '\n') === wanted) return { done: Promise.resolve(), cancel: () => undefined };
  let cancel = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      listener.dispose();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, RELOAD_WAIT_MS);
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && document.getText().replace(/\r\n/g, '\n') === wanted) finish();
    });
    signal.addEventListener('abort', finish, { once: true });
    cancel = finish;
  });
  return { done, cancel: () => cancel() };
}
