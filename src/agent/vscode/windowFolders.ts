/**
 * The window's folders as the vscode-free session code takes them: the open folders (URIs and names), their local
 * paths, and a folder's files as the editors show them. Small and free of the sessions' services, so a lazily
 * loaded command module can read the folders without loading those.
 */
import * as vscode from 'vscode';
import type { OpenFolder, SessionFolders, SessionRoot } from '../../sessionModel/common';
import type { LocalMachine } from '../common/sessions/localMachine';
import type { EditorFiles } from '../common/sessions/sessionCheckpoints';
import { VsCodeWorkspaceFiles } from '../../tools/vscode';

/** The open workspace folders, as the vscode-free root decisions take them. */
export function openFolders(): OpenFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
}

/** The local paths of the open workspace folders (a remote one's files are not on this machine's disk). */
export function localFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}

/** The open folders and a folder URI's local path, for the root decisions. */
export const windowFolders: SessionFolders = { open: openFolders, pathOf: (uri) => vscode.Uri.parse(uri).fsPath };

/** The folder's files as the editors show them (unsaved changes included). */
export function editorFiles(machine: LocalMachine, root: SessionRoot): EditorFiles {
  const uri = vscode.Uri.parse(root.uri);
  return { files: new VsCodeWorkspaceFiles(machine.files(root.path), uri), isUnsaved: (path) => isUnsaved(uri, path) };
}

/** Whether the file is open in an editor with changes not saved yet. */
function isUnsaved(root: vscode.Uri, path: string): boolean {
  const uri = vscode.Uri.joinPath(root, path).toString();
  return vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.toString() === uri);
}
