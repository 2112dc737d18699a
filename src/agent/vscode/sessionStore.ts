/**
 * Agent sessions as JSON files in the extension's storage for this workspace,
 * written after every step so a reload or a crash loses nothing. With a journal
 * folder (the composition root passes the Node one) a step appends only what
 * changed, and the whole file is rewritten every SNAPSHOT_EVERY steps
 * (sessionJournal.ts): a save costs what the step added, not the session. Writes go
 * through a temporary file and a rename, so a crash mid-write never leaves a
 * half-written session. Each save has its own temporary file: two saves at
 * once (of one session or several) must not rename each other's file away.
 * That copy is for a folder off the local disk only (a remote or virtual one, no
 * journal): a local folder's writes go through the journal to base/node/fileSafety.ts.
 */
import * as vscode from 'vscode';
import type { AgentSessionState } from '../../sessionModel/common';
import type { Logger } from '../../base/common';
import type { SessionStore } from '../../sessionModel/common';
import { removeSessionFiles } from '../../checkpoints/common';
import { SessionFiles, type SessionFileSystem } from '../common/sessions/sessionFiles';
import { SessionJournal, type JournalFolder } from '../../sessionModel/common';

export class FileSessionStore implements SessionStore<AgentSessionState> {
  private readonly changed = new vscode.EventEmitter<AgentSessionState>();
  readonly onDidChange = this.changed.event;
  private readonly removed = new vscode.EventEmitter<string>();
  /** A session's id once it is deleted. */
  readonly onDidRemove = this.removed.event;
  /** Numbers the temporary files of this store's saves. */
  private saves = 0;
  private readonly files: SessionFiles;
  private readonly journal: SessionJournal | undefined;

  constructor(
    private readonly folder: vscode.Uri,
    logger?: Pick<Logger, 'warn' | 'error'>,
    journalFolder?: JournalFolder,
  ) {
    this.files = new SessionFiles(folderFileSystem(folder), logger);
    this.journal = journalFolder && new SessionJournal(journalFolder);
  }

  async save(state: AgentSessionState): Promise<void> {
    if (this.journal) {
      this.fileOf(state.id);
      await this.journal.save(state);
      this.files.invalidate(state.id);
      this.changed.fire(state);
      return;
    }
    await vscode.workspace.fs.createDirectory(this.folder);
    const target = this.fileOf(state.id);
    const temporary = vscode.Uri.joinPath(this.folder, `${state.id}.json.${++this.saves}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(JSON.stringify(state)));
    await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
    this.files.invalidate(state.id);
    this.changed.fire(state);
  }

  /** Saves a session whose lists were replaced, not grown (a checkpoint restore): a whole snapshot, never a journal record. */
  replace(state: AgentSessionState): Promise<void> {
    this.journal?.forget(state.id);
    return this.save(state);
  }

  async load(id: string): Promise<AgentSessionState | undefined> {
    return isSessionId(id) ? this.files.load(id) : undefined;
  }

  /** Every readable session, newest first; damaged files are skipped. Do not change the results: load() a session to change it. */
  list(): Promise<AgentSessionState[]> {
    return this.files.list();
  }

  /**
   * Deletes a saved session: the snapshot first (the commit point: without it the
   * session is not listed, whatever else remains), then its journal.
   */
  async remove(id: string, signal: AbortSignal): Promise<void> {
    this.fileOf(id);
    await removeSessionFiles(
      { remove: async (name) => void (await unlessNotFound(vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name), { useTrash: false }))) },
      id,
      signal,
    );
    this.journal?.forget(id);
    this.files.invalidate(id);
    this.removed.fire(id);
  }

  private fileOf(id: string): vscode.Uri {
    if (!isSessionId(id)) throw new Error(`Invalid session id ${id}`);
    return vscode.Uri.joinPath(this.folder, `${id}.json`);
  }

  dispose(): void {
    this.changed.dispose();
    this.removed.dispose();
  }
}

/** Ids are file names: anything else could reach outside the folder. */
function isSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(id);
}

function folderFileSystem(folder: vscode.Uri): SessionFileSystem {
  const file = (name: string) => vscode.Uri.joinPath(folder, name);
  return {
    names: async () =>
      (await unlessNotFound(vscode.workspace.fs.readDirectory(folder)))?.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name) ?? [],
    stat: async (name) => {
      const stat = await unlessNotFound(vscode.workspace.fs.stat(file(name)));
      return stat && { mtime: stat.mtime, size: stat.size };
    },
    read: async (name) => {
      const bytes = await unlessNotFound(vscode.workspace.fs.readFile(file(name)));
      return bytes && new TextDecoder().decode(bytes);
    },
  };
}

/** undefined when the file or folder is not there; any other failure is thrown. */
async function unlessNotFound<T>(operation: Thenable<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}
