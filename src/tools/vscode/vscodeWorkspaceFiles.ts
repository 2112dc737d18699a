/**
 * The workspace as the agent sees it in VS Code: the file system (the files are
 * local to this workspace extension; the composition root passes the Node port),
 * with what is open in an editor read from the editor, unsaved edits included,
 * and `files.exclude` honoured on top of .gitignore.
 */
import * as vscode from 'vscode';
import type { DirectoryEntry, FileStat, WorkspaceFiles } from '../../base/common';
import { matchesGlob } from '../../base/common';

export class VsCodeWorkspaceFiles implements WorkspaceFiles {
  constructor(
    private readonly disk: WorkspaceFiles,
    private readonly rootUri: vscode.Uri,
  ) {}

  /**
   * A document with unsaved changes is read as the editor holds it; any other
   * file from the disk, through the host's checked handle (a clean document
   * holds what the disk does, and may lag a moment behind a write the agent made).
   */
  async readText(path: string, signal: AbortSignal): Promise<string> {
    const open = this.openDocument(path);
    return open?.isDirty ? open.getText() : this.disk.readText(path, signal);
  }

  stat(path: string, signal: AbortSignal): Promise<FileStat | undefined> {
    return this.disk.stat(path, signal);
  }

  list(path: string, signal: AbortSignal): Promise<DirectoryEntry[]> {
    return this.disk.list(path, signal);
  }

  realPathInside(path: string, signal: AbortSignal): Promise<string | undefined> {
    return this.disk.realPathInside(path, signal);
  }

  async isIgnored(path: string, signal: AbortSignal): Promise<boolean> {
    if (this.excludedGlobs().some((glob) => matchesGlob(path, glob))) return true;
    return this.disk.isIgnored(path, signal);
  }

  ignoredInWalk(signal: AbortSignal): (path: string, isDirectory: boolean) => Promise<boolean> {
    const excluded = this.excludedGlobs();
    const ignored = this.disk.ignoredInWalk?.(signal);
    return async (path, isDirectory) => {
      if (excluded.some((glob) => matchesGlob(path, glob))) return true;
      return ignored ? ignored(path, isDirectory) : this.disk.isIgnored(path, signal);
    };
  }

  /** `files.exclude`'s globs that are on (a `{ when }` clause, which needs the sibling files, counts as off). */
  excludedGlobs(): readonly string[] {
    const excluded = vscode.workspace.getConfiguration('files', this.rootUri).get<Record<string, unknown>>('exclude', {});
    return Object.entries(excluded).flatMap(([glob, on]) => (on === true ? [glob] : []));
  }

  /** The files under the root open with unsaved changes: the search engine reads the disk, so these are searched here. */
  unsavedPaths(): readonly string[] {
    const root = this.rootUri;
    return vscode.workspace.textDocuments.flatMap(({ uri, isDirty }) => {
      const inside = isDirty && uri.scheme === root.scheme && uri.authority === root.authority && uri.path.startsWith(`${root.path}/`);
      return inside ? [uri.path.slice(root.path.length + 1)] : [];
    });
  }

  private openDocument(path: string): vscode.TextDocument | undefined {
    const uri = vscode.Uri.joinPath(this.rootUri, path).toString();
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
  }
}
