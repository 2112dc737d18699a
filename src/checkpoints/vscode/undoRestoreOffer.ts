/**
 * "Undo Restore" after a checkpoint restore (issue 27, item 10). VS Code hides an
 * information toast after a few seconds, buttons and all, so the offer also stays
 * in the status bar until it is used or a later restore replaces it; a toast's
 * button that is no longer the current offer says so instead of restoring again.
 */
import * as vscode from 'vscode';

export interface UndoTarget {
  sessionId: string;
  /** The checkpoint the restore kept of the state before it. */
  checkpointId: number;
}

export class UndoRestoreOffer implements vscode.Disposable {
  private item: vscode.StatusBarItem | undefined;
  private current: UndoTarget | undefined;

  /** Offers `target` (replacing any earlier offer); `summary` is what the restore did. */
  offer(target: UndoTarget, summary: string): void {
    this.withdraw();
    this.current = target;
    const item = vscode.window.createStatusBarItem('gateway.undoRestore', vscode.StatusBarAlignment.Left, 1000);
    item.name = 'Gateway: Undo Restore';
    item.text = '$(discard) Undo Restore';
    item.tooltip = `${summary}\n\nClick to undo this restore.`;
    item.command = { title: 'Undo Restore', command: 'gateway.agent.restoreCheckpoint', arguments: [target.sessionId, target.checkpointId] };
    item.show();
    this.item = item;
  }

  /** Whether `target` is still the offer (a toast's button checks before it acts). */
  isCurrent(target: UndoTarget): boolean {
    return this.current?.sessionId === target.sessionId && this.current.checkpointId === target.checkpointId;
  }

  /** A restore starts (the undo itself or another): the offer is used or about to be replaced. */
  withdraw(): void {
    this.item?.dispose();
    this.item = undefined;
    this.current = undefined;
  }

  /** What the end-to-end tests read: the offer shown, if any. */
  shown(): UndoTarget | undefined {
    return this.current;
  }

  dispose(): void {
    this.withdraw();
  }
}
