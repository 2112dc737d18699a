/**
 * Applies the agent's approved changes as WorkspaceEdits, so each one is a
 * single undo step in the editor. An editor with unsaved changes is edited in
 * place and left unsaved (the user's own edits are never overwritten or saved
 * behind their back); a file that was clean is saved, so builds and tests see it.
 */
import * as vscode from 'vscode';
import type { FileChanges } from '../../core/ports';
import { normalizeWorkspacePath } from '../../core/tools/pathPolicy';

export class VsCodeFileChanges implements FileChanges {
  constructor(
    private readonly rootUri: vscode.Uri,
    /** The host's last check of the path, resolved at write time (symlinks re-pointed, hard links); throws to refuse. */
    private readonly checkTarget: (path: string, signal: AbortSignal) => Promise<void> = () => Promise.resolve(),
  ) {}

  private inside(path: string): vscode.Uri {
    return insideRoot(this.rootUri, path);
  }

  async write(path: string, content: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const uri = this.inside(path);
    await this.checkTarget(path, signal);
    const edit = new vscode.WorkspaceEdit();
    if (!(await exists(uri))) {
      edit.createFile(uri, { contents: new TextEncoder().encode(content), ignoreIfExists: false });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused to create ${path}.`);
      return;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const wasDirty = document.isDirty;
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, whole, content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit of ${path}.`);
    if (!wasDirty && !(await document.save())) throw new Error(`The edit of ${path} was made but could not be saved.`);
  }

  async delete(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(this.inside(path), { ignoreIfNotExists: true });
    await vscode.workspace.applyEdit(edit);
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

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
