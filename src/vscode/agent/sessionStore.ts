/**
 * Agent sessions as JSON files in the extension's storage for this workspace,
 * written after every step so a reload or a crash loses nothing. Writes go
 * through a temporary file and a rename, so a crash mid-write never leaves a
 * half-written session. Each save has its own temporary file: two saves at
 * once (of one session or several) must not rename each other's file away.
 */
import * as vscode from 'vscode';
import type { AgentSessionState } from '../../core/agent/sessionState';
import type { SessionStore } from '../../core/ports';

export class FileSessionStore implements SessionStore<AgentSessionState> {
  private readonly changed = new vscode.EventEmitter<AgentSessionState>();
  readonly onDidChange = this.changed.event;
  /** Numbers the temporary files of this store's saves. */
  private saves = 0;

  constructor(private readonly folder: vscode.Uri) {}

  async save(state: AgentSessionState): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder);
    const target = this.fileOf(state.id);
    const temporary = vscode.Uri.joinPath(this.folder, `${state.id}.json.${++this.saves}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(JSON.stringify(state)));
    await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
    this.changed.fire(state);
  }

  async load(id: string): Promise<AgentSessionState | undefined> {
    try {
      return JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.fileOf(id)))) as AgentSessionState;
    } catch {
      return undefined;
    }
  }

  async list(): Promise<AgentSessionState[]> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return [];
    }
    const sessions = await Promise.all(entries.filter(([name]) => name.endsWith('.json')).map(([name]) => this.load(name.slice(0, -'.json'.length))));
    return sessions.filter((s): s is AgentSessionState => s !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  private fileOf(id: string): vscode.Uri {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`Invalid session id ${id}`);
    return vscode.Uri.joinPath(this.folder, `${id}.json`);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
